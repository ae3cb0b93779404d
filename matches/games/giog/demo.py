"""What the shared demo builder (`matches/demo/builder.py`) asks Giog: the demo event (ten
players at tables of 3 and 4, three hands a round, one round played) and a random hand.

Hands come from the engine's self-play (`giog-hand/1` records); odd hands are reported as the
record, even hands as the referee's summary of it, so the demo shows both.
"""

from __future__ import annotations

import datetime
import random

from matches.games.giog.engine.selfplay import selfplay
from matches.kernel.games.adapter import DemoPlan

GIOG_DEMO_NAME = "Giog 邀请赛（演示）"

PLAN = DemoPlan(
    name=GIOG_DEMO_NAME,
    event={
        "venue": "青岛市民健身中心",
        "start_date": datetime.date(2026, 5, 3),
        "entry_type": "individual",
        "published": True,
        "deals_per_match": 3,
        "game_settings": {"place_points": [3, 2, 1, 0]},
        "result_confirmation": "none",
        "labels": {"deal": "手", "match": "桌"},
    },
    entrants=10,
    closed_rounds=1,
    planned_rounds=2,
    seed=2027,
    stage_name="轮换",
)


def hand_report(players: int, seed: int) -> tuple[dict, dict]:
    """(record without its claim, the summary a referee would write of it)."""
    record = next(iter(selfplay(1, seed, players=players)))
    claimed = record.pop("claimed")
    summary = {
        "format": "giog-outcome/1",
        "players": players,
        "won": claimed["won"],
        "beheaded": claimed["beheaded"],
    }
    return record, summary


def random_hand(players: int, number: int, rng: random.Random) -> tuple[dict | None, dict | None]:
    """(summary, play log) of a self-played hand: the record for odd hands, its summary else."""
    record, summary = hand_report(players, rng.randrange(2**31))
    return (None, record) if number % 2 else (summary, None)
