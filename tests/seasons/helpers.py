"""Events that share players: a pool of people entering several rated events."""

from __future__ import annotations

import datetime

from matches.events import registration
from players.models import Club, Player
from tests.builder import EventBuilder


def pool(size: int = 24, clubs: int = 3) -> list[Player]:
    made = [Club.objects.get_or_create(name=f"俱乐部{k}")[0] for k in range(clubs)]
    return [Player.objects.create(name=f"棋友{k:02d}", club=made[k % clubs]) for k in range(size)]


def rated_event(
    people: list[Player], offset: int, *, unions: int = 4, day: int = 1, rated: bool = True
) -> EventBuilder:
    """A rated team event of `unions` unions drawn from `people` (from `offset` on, wrapping)."""
    b = EventBuilder(
        unions=unions,
        deals=2,
        planned_rounds=4,
        name=f"杯赛{day}",
        start_date=datetime.date(2026, 3, day),
        confirmation="none",
        rated=rated,
    )
    n = len(people)
    for k in range(unions):
        members = [people[(offset + 3 * k + j) % n] for j in range(3)]
        entry = registration.register_union(b.event, f"联邦{day}-{k + 1}", members, seed=k + 1)
        registration.check_in(entry)
        b.unions.append(entry.union)
    return b


def snapshot() -> dict:
    """Every rating row as values: compared exactly (floats and all)."""
    from seasons.models import PlayerRating, RatingStep

    return {
        "list": sorted(
            PlayerRating.objects.values_list("player_id", "mu", "sigma", "rounds", "events")
        ),
        "steps": sorted(
            RatingStep.objects.values_list("player_id", "round_id", "key", "mu", "sigma")
        ),
    }
