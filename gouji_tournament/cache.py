"""Redis as a cache that a Redis restart cannot turn into errors.

Everything the app caches can be recomputed: version stamps and pages kept for a second or two,
and rate-limit counters. So while Redis is unreachable (restarting, say) a read misses, a write
or a delete is dropped, and a counter counts from one: the request goes on without the cache
instead of answering 500 after its result was already committed (the fault drills found
exactly that). A dropped delete leaves a stamp at most its own timeout old. Each miss is logged.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


def _tolerant(fallback):
    """Answer `fallback(*args)` instead of raising when Redis cannot be reached."""

    def wrap(method):
        @functools.wraps(method)
        def call(self, *args, **kwargs):
            try:
                return method(self, *args, **kwargs)
            except RedisError as exc:
                log.warning("cache unavailable, %s skipped: %s", method.__name__, exc)
                return fallback(*args, **kwargs)

        return call

    return wrap


def _nothing(*args, **kwargs):
    return None


class _ReusedClient(RedisCacheClient):
    """Django's Redis cache client builds a new `redis.Redis` around its connection pool on
    every cache call (a dict of some 170 response callbacks filled each time): about a tenth of
    a referee request's CPU, three calls a request (the festival bench's profile). One client per pool,
    built once: `redis.Redis` is safe to share, its connections stay the pool's."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class TolerantRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _ReusedClient

    get = _tolerant(lambda key, default=None, version=None: default)(RedisCache.get)
    get_many = _tolerant(lambda keys, version=None: {})(RedisCache.get_many)
    has_key = _tolerant(lambda key, version=None: False)(RedisCache.has_key)
    add = _tolerant(lambda *args, **kwargs: False)(RedisCache.add)
    set = _tolerant(_nothing)(RedisCache.set)
    set_many = _tolerant(lambda data, *args, **kwargs: [])(RedisCache.set_many)
    touch = _tolerant(lambda *args, **kwargs: False)(RedisCache.touch)
    delete = _tolerant(lambda *args, **kwargs: False)(RedisCache.delete)
    delete_many = _tolerant(_nothing)(RedisCache.delete_many)
    # A counter that cannot be read counts from `delta`: rate limits open for the seconds Redis
    # is away rather than refusing every client.
    incr = _tolerant(lambda key, delta=1, version=None: delta)(RedisCache.incr)
    clear = _tolerant(lambda: False)(RedisCache.clear)

    def _count_in_window(self, key, window: int, version=None) -> int:
        """Count one in a window of `window` seconds started by its first count: one round
        trip (SET NX EX, INCR in a pipeline), where `add` then `incr` take three (Django's
        `incr` asks whether the key exists first). The rate limits count every referee
        request with this."""
        key = self.make_and_validate_key(key, version=version)
        client = self._cache.get_client(key, write=True)
        pipeline = client.pipeline(transaction=False)
        pipeline.set(key, 0, ex=int(window), nx=True)
        pipeline.incr(key)
        return int(pipeline.execute()[1])

    # Redis away: the counter counts from one (the limits open, as `incr` above).
    count_in_window = _tolerant(lambda key, window, version=None: 1)(_count_in_window)

    def _claim(self, key, seconds: float, version=None) -> bool:
        """True for the first caller in `seconds` (SET NX PX): `add` cannot say this for less
        than a second, since Django rounds a Redis timeout down to whole seconds and treats 0 as
        "delete at once" (its `add` then sets the key and deletes it, and every caller wins)."""
        key = self.make_and_validate_key(key, version=version)
        client = self._cache.get_client(key, write=True)
        return bool(client.set(key, 1, px=max(1, round(seconds * 1000)), nx=True))

    # Redis away: every caller may go ahead (what the claim guards is work, not correctness).
    claim = _tolerant(lambda key, seconds, version=None: True)(_claim)
