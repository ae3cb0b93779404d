"""One process checks an event's public stamps per interval (matches/events/notify.py): the
claim must hold for the interval, a fraction of a second, on Redis as in local memory."""

from __future__ import annotations

import time

import pytest

from matches.events import notify


@pytest.fixture
def claims(redis_cache):
    yield redis_cache
    redis_cache.delete_many(["live-check:1", "live-check:2"])


def test_djangos_add_for_half_a_second_does_not_hold_on_redis(claims):
    """Why the claim exists: Django rounds 0.5 s down to 0, and 0 sets the key and deletes it,
    so every process 'won' and each checked the stamps every interval."""
    assert claims.add("live-check:1", 1, 0.5) is True
    assert claims.add("live-check:1", 1, 0.5) is True


def test_a_claim_holds_for_its_fraction_of_a_second_on_redis(claims):
    assert claims.claim("live-check:2", 0.4) is True
    assert claims.claim("live-check:2", 0.4) is False  # another process, same interval
    time.sleep(0.5)
    assert claims.claim("live-check:2", 0.4) is True  # the next interval


def test_a_claim_lets_everyone_through_while_redis_is_away():
    from gouji_tournament.cache import TolerantRedisCache

    away = TolerantRedisCache("redis://127.0.0.1:1/0", {})
    assert away.claim("live-check:1", 0.5) is True
    assert away.claim("live-check:1", 0.5) is True


def test_the_live_check_takes_one_claim_an_interval_whatever_the_cache():
    """notify's own claim, on the cache the settings give (local memory in pass 1, Redis in
    pass 2): the second process in the same interval is refused."""
    from django.core.cache import cache

    cache.delete("live-check:99")
    assert notify._claim("live-check:99", 0.4) is True
    assert notify._claim("live-check:99", 0.4) is False
    time.sleep(0.5)
    assert notify._claim("live-check:99", 0.4) is True
    cache.delete("live-check:99")
