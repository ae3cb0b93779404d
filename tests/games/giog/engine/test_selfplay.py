"""Self-played hands replay cleanly; changing one action is caught at that action."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.games.giog.engine import game
from matches.games.giog.engine.combinations import classify
from matches.games.giog.engine.pieces import DISTRIBUTION, FULL_SET, SET_SIZE
from matches.games.giog.engine.play import HandState
from matches.games.giog.engine.record import write_record
from matches.games.giog.engine.selfplay import play_out

VARIANTS = [
    {},
    {"must_compete": True},
    {"tie_order": "play"},
    {"must_compete": True, "tie_order": "play"},
]


def in_play(players: int) -> int:
    return SET_SIZE - DISTRIBUTION[players][1]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("rules", VARIANTS, ids=["default", "must", "play", "must+play"])
def test_self_played_hands_replay_valid_and_complete(players, seed, rules):
    for doc in game.selfplay(10, seed, players=players, rules=rules):
        v = game.replay(doc)
        assert v["valid"] and v["complete"], v["error"]
        assert v["mismatches"] == []
        assert sum(v["won"].values()) == in_play(players)
        assert sum(t["pieces"] for t in v["tricks"]) == in_play(players)
        assert sorted(s for group in v["places"] for s in group) == list(range(1, players + 1))
        assert doc.get("rules", {}) == rules


def test_the_same_seed_plays_the_same_hands():
    assert list(game.selfplay(5, 11)) == list(game.selfplay(5, 11))
    assert list(game.selfplay(5, 11)) != list(game.selfplay(5, 12))


def test_self_play_meets_every_kind_of_combination_and_beheads_sometimes():
    leads, beheadings = Counter(), 0
    for doc in game.selfplay(200, 4):
        v = game.replay(doc)
        beheadings += bool(v["beheaded"])
        # The first action of each trick is a lead.
        index = 0
        for _ in v["tricks"]:
            leads[classify(doc["actions"][index]["pieces"]).name.split()[0]] += 1
            index += doc["players"]
    assert {"Liab", "Dui", "Giog", "Sam"} <= set(leads)
    assert beheadings > 0


def test_a_self_played_outcome_is_a_valid_summary_with_the_same_places():
    for players in (2, 3, 4):
        for doc in game.selfplay(20, 8, players=players):
            v = game.replay(doc)
            summary = {
                "format": "giog-outcome/1",
                "players": players,
                "won": v["won"],
                "beheaded": v["beheaded"],
            }
            checked = game.check_summary(summary)
            assert checked == {"valid": True, "errors": [], "places": v["places"]}


# -- mutations --------------------------------------------------------------------------------


def state_before(doc: dict, index: int) -> HandState:
    flags = {"must_compete": False, "tie_order": "seat", **doc.get("rules", {})}
    state = HandState(
        doc["players"], {int(s): h for s, h in doc["hands"].items()}, doc["leader"], **flags
    )
    for action in doc["actions"][:index]:
        state.apply(action["seat"], action["pieces"])
    return state


def replay_with(doc: dict, index: int, **change) -> dict:
    mutated = copy.deepcopy(doc)
    mutated["actions"][index].update(change)
    return game.replay(mutated)


@st.composite
def hand_and_index(draw):
    players = draw(st.sampled_from([2, 3, 4]))
    rules = draw(st.sampled_from(VARIANTS))
    seed = draw(st.integers(0, 10**6))
    doc = next(game.selfplay(1, seed, players=players, rules=rules))
    index = draw(st.integers(0, len(doc["actions"]) - 1))
    return doc, index


def assert_rejected_at(v: dict, index: int, code: str) -> None:
    assert not v["valid"]
    assert (v["error"]["action"], v["error"]["code"]) == (index, code), v["error"]


@settings(max_examples=100, deadline=None)
@given(hand_and_index())
def test_mutation_another_seat_plays_out_of_turn(case):
    doc, i = case
    seat = doc["actions"][i]["seat"] % doc["players"] + 1
    assert_rejected_at(replay_with(doc, i, seat=seat), i, "out_of_turn")


@settings(max_examples=100, deadline=None)
@given(hand_and_index(), st.data())
def test_mutation_a_piece_not_in_hand(case, data):
    doc, i = case
    action = doc["actions"][i]
    hand = state_before(doc, i).hands[action["seat"]]
    absent = data.draw(st.sampled_from([p for p in sorted(FULL_SET) if hand[p] == 0]))
    pieces = absent + action["pieces"][1:]
    assert_rejected_at(replay_with(doc, i, pieces=pieces), i, "not_in_hand")


@settings(max_examples=100, deadline=None)
@given(hand_and_index())
def test_mutation_a_follower_plays_one_piece_more_or_less(case):
    doc, i = case
    state = state_before(doc, i)
    action = doc["actions"][i]
    if state.trick is None:
        return  # a lead sets the size; see the lead mutation below
    rest = state.hands[action["seat"]] - Counter(action["pieces"])
    if rest:
        pieces = action["pieces"] + next(iter(rest))
    else:
        pieces = action["pieces"][1:]
    assert_rejected_at(replay_with(doc, i, pieces=pieces), i, "size_mismatch")


@settings(max_examples=100, deadline=None)
@given(hand_and_index(), st.data())
def test_mutation_a_lead_that_is_no_combination(case, data):
    doc, i = case
    state = state_before(doc, i)
    if state.trick is not None:
        return
    hand = sorted(state.hands[doc["actions"][i]["seat"]].elements())
    pairs = sorted({a + b for a in hand for b in hand if a != b})
    if not pairs:
        return  # holds one kind of piece only
    pieces = data.draw(st.sampled_from(pairs))
    assert classify(pieces) is None
    assert_rejected_at(replay_with(doc, i, pieces=pieces), i, "not_a_combination")


@settings(max_examples=100, deadline=None)
@given(hand_and_index(), st.data())
def test_mutation_another_legal_follow_is_accepted_there(case, data):
    doc, i = case
    doc = copy.deepcopy(doc)
    # Without must_compete any follow of the right size is legal (G8). The tie order stays:
    # it decides who won the earlier tricks.
    doc.get("rules", {}).pop("must_compete", None)
    state = state_before(doc, i)
    if state.trick is None:
        return
    action = doc["actions"][i]
    hand = list(state.hands[action["seat"]].elements())
    pieces = "".join(data.draw(st.permutations(hand))[: len(action["pieces"])])
    v = replay_with(doc, i, pieces=pieces)
    # Later actions may now break the rules (someone else leads, a piece is gone), this
    # one may not.
    assert v["valid"] or v["error"]["action"] > i


# -- conservation -----------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.data(), st.integers(0, 10**6), st.sampled_from(VARIANTS))
def test_property_pieces_are_conserved_in_any_position(players, data, seed, rules):
    size = data.draw(st.integers(1, DISTRIBUTION[players][0]))
    rng = random.Random(seed)
    pieces = sorted(FULL_SET.elements())
    rng.shuffle(pieces)
    hands = {s: "".join(pieces[(s - 1) * size : s * size]) for s in range(1, players + 1)}
    record = play_out(rng, players, hands, rng.randint(1, players), rules)
    v = game.replay(write_record(record))
    assert v["valid"] and v["complete"] and v["mismatches"] == []
    assert sum(v["won"].values()) == players * size
    assert all(n % players == 0 for n in v["won"].values())
    assert all(t["pieces"] % players == 0 for t in v["tricks"])
    # Every trick is one play from each player.
    assert len(record.actions) == players * len(v["tricks"])
