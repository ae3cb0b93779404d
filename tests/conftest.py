"""Shared fixtures. Browser fixtures live in tests/browser/conftest.py."""

import pytest


@pytest.fixture
def demo_event(db):
    """A team event of 12 unions after three closed Swiss rounds (see matches/demo.py)."""
    from matches.demo import build_demo_event

    return build_demo_event(unions=12, rounds=3, seed=2026)
