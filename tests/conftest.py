"""Shared fixtures. Browser fixtures live in tests/browser/conftest.py."""

import pytest


@pytest.fixture
def demo_event(db):
    """A team event of 12 unions after three closed Swiss rounds (see matches/demo.py)."""
    from matches.demo import build_demo_event

    return build_demo_event(unions=12, rounds=3, seed=2026)


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """Rate-limit counters and lockouts (matches/ratelimit.py) live in the cache: start every
    test without the failures of the tests before it."""
    from django.core.cache import cache

    cache.clear()
