"""The rate limit's window counter on Redis (gouji_tournament/cache.py)."""

from __future__ import annotations


def test_a_rate_limit_window_counts_in_one_round_trip_on_redis(redis_cache):
    """`count_in_window` (gouji_tournament/cache.py): 1, 2, 3 in a window its first count
    started, with the window's expiry; counts from one while Redis is away."""
    import redis

    from gouji_tournament.cache import TolerantRedisCache

    cache = redis_cache
    key = "rl:test:window"
    cache.delete(key)
    try:
        assert [cache.count_in_window(key, 60) for _ in range(3)] == [1, 2, 3]
        raw = redis.Redis.from_url("redis://127.0.0.1:6379/10")
        assert 0 < raw.ttl(cache.make_and_validate_key(key)) <= 60
        assert cache.get(key) == 3  # the plain int the ORM-side readers expect
    finally:
        cache.delete(key)
    away = TolerantRedisCache("redis://127.0.0.1:1/0", {})
    assert away.count_in_window(key, 60) == 1
