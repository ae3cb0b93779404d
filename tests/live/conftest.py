"""Feature tables' fixtures: a published round with a feature table and a whole played deal."""

from __future__ import annotations

import pytest

from matches.events import features
from matches.games.gouji.engine.selfplay import selfplay


def played_deal(seed: int = 3) -> dict:
    """A whole six-seat deal record, played by the engine's bots (no revolution)."""
    return next(iter(selfplay(1, seed)))


def play_first_deal(feature, actor, seed: int = 3) -> dict:
    """Deal 1 of `feature` entered whole through the service (its hands, then every action):
    the deal before the one a test is about. The record played."""
    from matches.results import live

    record = played_deal(seed)
    live.set_hands(feature, 1, {"hands": record["hands"], "leader": record["leader"]}, actor)
    for seq, action in enumerate(record["actions"], start=1):
        live.add_action(feature, 1, {"seq": seq, **action}, actor)
    return record


@pytest.fixture
def deal_record() -> dict:
    return played_deal()


@pytest.fixture(autouse=True)
def fast_table(settings):
    """A digital table sends a deal's 300 actions faster than a referee link's 120 a minute."""
    settings.RATE_LIMITS = {"referee_token_requests": {"limit": 100000, "window": 60}}


@pytest.fixture
def featured(build):
    """(builder, feature table) at table 1 of a published round, no delay, all hands shown."""

    def make(delay: int = 0, shows: str = "hands", **event):
        b = build(**{"unions": 4, "deals": 1, **event})
        round_ = b.round([(0, 1), (2, 3)])
        table = b.match(round_, 1).table
        return b, features.feature_table(table, delay, shows, b.organiser)

    return make
