"""Self-played deals replay as valid and complete, for each preset, and are reproducible."""

from __future__ import annotations

import io
from functools import lru_cache

import pytest

from matches.games.gouji.engine import play
from matches.games.gouji.engine.game import GoujiGame
from matches.games.gouji.engine.record import read_record
from matches.games.gouji.engine.replay import initial_state, replay
from matches.games.gouji.engine.selfplay import selfplay, write_jsonl
from matches.games.gouji.engine.settle import settle

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


@pytest.mark.parametrize("preset", PRESETS)
def test_replayed_outcomes_settle_the_same_way(preset):
    """The replay's outcome, written as a referee's summary, passes `gouji settle` with the
    same union scores and tribute ledger."""
    for doc in deals(preset, 2):
        verdict = replay(doc)
        summary = {
            "format": "gouji-outcome/1",
            "rules": doc["rules"],
            "finish": verdict["finish"],
            "points": verdict["points"],
            "declarations": doc.get("declarations", {}),
            "burns": verdict["burns"],
            "suffocated": verdict["suffocated"],
            "revolution": doc.get("revolution", []),
        }
        settled = settle(summary)
        assert settled["valid"], (settled["errors"], summary)
        assert settled["union_scores"] == verdict["union_scores"]
        if not summary["declarations"]:
            # (with declarations, D12's late points can differ: a summary cannot carry them)
            assert settled["tributes"] == verdict["tributes"]


def test_hold3_deals_buy_threes_and_keep_the_shares():
    from matches.games.gouji.engine.cards import parse_cards
    from matches.games.gouji.engine.play import NO_CARDS
    from matches.games.gouji.engine.selfplay import buy_threes

    hands = (NO_CARDS,) + tuple(
        parse_cards(text) for text in ["3349", "5562", "3339", "5559", "566B", "5557"]
    )
    bought = buy_threes(hands)
    # seat 2 has no 3: its head rival 5 and its mates 4 and 6 have none to sell, so the first
    # mate's head rival, seat 1, sells one of its two 3s for seat 2's 2
    assert bought[2][0] == 1 and bought[2][12] == 0 and bought[1][12] == 1 and bought[1][0] == 1
    assert [sum(bought[s]) for s in range(1, 7)] == [sum(hands[s]) for s in range(1, 7)]
    for doc in deals("qingdao-hold3", 1):
        assert all("3" in cards for cards in doc["hands"].values())


VARIANTS = [
    {"preset": "standard", "false_burn": "tribute"},
    {"preset": "standard", "burn_first_hand_needs_joker": True},
    {"preset": "standard", "burn_requires_point": True},
    {"preset": "standard", "last_hand_answer": False},
    {"preset": "standard", "hold_four_before_point": True},
    {"preset": "standard", "short_deck": True},
    {"preset": "standard", "point_sets": "en"},
    {"preset": "qingdao-hold3", "suffocated_play_on": True},
    {"preset": "qingdao-hold3", "no_three": "hold_four"},
    {"preset": "qingdao-hold3", "no_three": "exempt"},
]


@pytest.mark.parametrize("rules", VARIANTS, ids=[str(v) for v in VARIANTS])
def test_variant_deals_replay_valid_and_complete(rules):
    for doc in selfplay(4, 3, rules):
        assert doc["rules"] == rules
        verdict = replay(doc)
        assert verdict["valid"] and verdict["complete"] and not verdict["mismatches"]


def test_game_replay_raises_bad_document():
    from matches.kernel.engine_errors import BadDocument

    with pytest.raises(BadDocument):
        GoujiGame().replay({"format": "gouji-deal/1"})
