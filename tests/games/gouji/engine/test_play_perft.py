"""Legal-action counts in fixed positions (tests/games/gouji/engine/data/perft.json), like perft."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from matches.games.gouji.engine import play
from matches.games.gouji.engine.record import read_record
from matches.games.gouji.engine.replay import initial_state

POSITIONS = json.loads((Path(__file__).parent / "data" / "perft.json").read_text())["positions"]


def position(record_doc) -> play.State:
    record = read_record(record_doc)
    state = initial_state(record)
    for action in record.actions:
        state = play.apply(state, action)
    return state


def perft(state: play.State, depth: int) -> int:
    actions = play.legal_actions(state)
    if depth == 1:
        return len(actions)
    return sum(perft(play.apply(state, action), depth - 1) for action in actions)


@pytest.mark.parametrize("entry", POSITIONS, ids=[p["name"] for p in POSITIONS])
def test_perft_counts(entry):
    state = position(entry["record"])
    for depth, expected in enumerate(entry["counts"], start=1):
        assert perft(state, depth) == expected, (entry["name"], depth, entry["why"])
