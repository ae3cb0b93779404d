"""What the shared demo builder (`matches/demo/builder.py`) asks Gou Ji: the demo event (twelve
unions, three rounds played, captains confirm) and a random referee summary of a deal."""

from __future__ import annotations

import datetime
import random

from matches.kernel.games.adapter import DemoPlan

DEMO_NAME = "青岛够级公开赛（演示）"

PLAN = DemoPlan(
    name=DEMO_NAME,
    event={
        "venue": "青岛市民健身中心",
        "start_date": datetime.date(2026, 5, 1),
        "end_date": datetime.date(2026, 5, 2),
        "entry_type": "team",
        "published": True,
        "deals_per_match": 6,
        "result_confirmation": "captain",
    },
    entrants=12,
    closed_rounds=3,
    planned_rounds=5,
    seed=2026,
)


def random_outcome(rng: random.Random, table_seats: tuple[int, ...]) -> dict:
    """A plausible referee summary for a table of `table_seats`: a finishing order, and points
    opened mostly by the leaders."""
    seats = list(table_seats)
    rng.shuffle(seats)
    points = [seat for place, seat in enumerate(seats) if rng.random() < (0.8 - place * 0.12)]
    return {"format": "gouji-outcome/1", "finish": seats, "points": points}
