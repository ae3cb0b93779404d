"""Self-played deals replay as valid and complete, for each preset, and are reproducible."""
from __future__ import annotations

import io
from functools import lru_cache

import pytest

from matches.rules.gouji import play
from matches.rules.gouji.game import GoujiGame
from matches.rules.gouji.record import read_record
from matches.rules.gouji.replay import initial_state, replay
from matches.rules.gouji.selfplay import selfplay, write_jsonl

PRESETS = ("standard", "qingdao-hold3", "six-decks")
SEEDS = (1, 2)
DEALS = 10  # per preset and seed: 20 per preset


@lru_cache(maxsize=None)
def deals(preset: str, seed: int) -> tuple:
    return tuple(selfplay(DEALS, seed, preset))


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", SEEDS)
def test_self_played_deals_replay_valid_and_complete(preset, seed):
    for doc in deals(preset, seed):
        verdict = replay(doc)
        assert verdict["valid"], verdict["error"]
        assert verdict["complete"]
        assert verdict["mismatches"] == []
        assert sorted(verdict["finish"]) == [1, 2, 3, 4, 5, 6]
        assert sum(verdict["union_scores"].values()) == 0  # every preset scores the difference


@pytest.mark.parametrize("preset", PRESETS)
def test_full_deals_hold_the_whole_deck(preset):
    per_seat = 54 if preset == "six-decks" else 36
    for doc in deals(preset, 1):
        assert [len(cards) for cards in doc["hands"].values()] == [per_seat] * 6


def test_every_self_played_action_is_a_legal_action():
    for doc in deals("standard", 1)[:3] + deals("qingdao-hold3", 1)[:3]:
        record = read_record(doc)
        state = initial_state(record)
        for action in record.actions:
            assert action in play.legal_actions(state)
            state = play.apply(state, action)
        assert state.over and play.legal_actions(state) == []


def test_same_seed_same_bytes_other_seed_other_deals():
    def text(seed):
        out = io.StringIO()
        write_jsonl(selfplay(3, seed, "standard"), out)
        return out.getvalue()

    assert text(7) == text(7)
    assert text(7) != text(8)
    assert len(text(7).splitlines()) == 3


def test_self_play_exercises_the_rules():
    """Across the deals, bots open points, burn, and (under hold-3) suffocate each other."""
    verdicts = [replay(doc) for preset in PRESETS for seed in SEEDS for doc in deals(preset, seed)]
    assert any(v["points"] for v in verdicts)
    assert any(v["burns"] for v in verdicts)
    hold3 = [replay(doc) for seed in SEEDS for doc in deals("qingdao-hold3", seed)]
    assert any(v["suffocated"] for v in hold3)


def test_game_interface():
    game = GoujiGame()
    docs = list(game.selfplay(2, 5, rules="qingdao-hold3"))
    assert len(docs) == 2 and docs[0]["rules"] == "qingdao-hold3"
    assert all(game.replay(doc)["valid"] for doc in docs)
