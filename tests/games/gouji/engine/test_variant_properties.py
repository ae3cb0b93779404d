"""Property: deals self-played under the variants of gouji-rules.md §10–13 (`eight-players`,
`six-decks`, each new flag, and two revolutionaries set up on purpose) replay valid and
complete, and their outcome, written as a referee's summary, settles with the same union
scores and tributes (deal-record.md)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.games.gouji.engine.cards import BIG, SMALL, TWO
from matches.games.gouji.engine.record import write_record
from matches.games.gouji.engine.replay import replay
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.seating import head_rival
from matches.games.gouji.engine.selfplay import deal_hands, play_deal, selfplay
from matches.games.gouji.engine.settle import settle

VARIANTS = [
    "eight-players",
    "six-decks",
    {"preset": "standard", "joker_groups": True},
    {"preset": "standard", "point_tributes_cancel": True},
    {"preset": "standard", "two_revolutions": True},
    {"preset": "eight-players", "joker_groups": True, "point_tributes_cancel": True},
    {"preset": "eight-players", "two_revolutions": True, "hold_three": True},
    {"preset": "eight-players", "revolution_contest": True},
    {"preset": "eight-players", "place_tribute": "pool", "declaration_tributes": "zh"},
    {"preset": "eight-players", "union_score": "own", "false_burn": "tribute"},
    {"preset": "six-decks", "point_tributes_cancel": True, "two_revolutions": True},
]


def check(doc: dict) -> dict:
    rules = RuleSet.from_json(doc["rules"])
    verdict = replay(doc)
    assert verdict["valid"], verdict["error"]
    assert verdict["complete"] and verdict["mismatches"] == []
    assert sorted(verdict["finish"]) == list(rules.seats)
    assert all(burn["outcome"] is not None for burn in verdict["burns"])
    summary = {
        "format": "gouji-outcome/1",
        "rules": doc["rules"],
        "finish": verdict["finish"],
        "points": verdict["points"],
        "declarations": doc.get("declarations", {}),
        "burns": verdict["burns"],
        "suffocated": verdict["suffocated"],
        "revolution": doc.get("revolution", []),
        "special_failed": verdict.get("special_failed", []),
    }
    settled = settle(summary)
    assert settled["valid"], (settled["errors"], summary)
    assert settled["union_scores"] == verdict["union_scores"]
    if not verdict["points"] or not summary["declarations"]:
        # (D12's late points, which a summary cannot carry, can change a declaration's ledger)
        assert settled["tributes"] == verdict["tributes"]
    return verdict


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: str(r).replace(" ", ""))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_a_self_played_variant_deal_replays_and_settles_the_same(rules, seed):
    (doc,) = selfplay(1, seed, rules)
    check(doc)


def with_rebels(rules: RuleSet, rng: random.Random, rebels: tuple[int, ...]):
    """A full deal in which `rebels` hold no 2 and no joker (R29): their 2s and jokers are
    swapped, card for card, with natural cards of the other seats (D10 holds)."""
    hands = [list(counts) for counts in deal_hands(rules, rng)]
    others = [seat for seat in rules.seats if seat not in rebels]
    for rebel in rebels:
        for rank in (TWO, SMALL, BIG):
            while hands[rebel][rank]:
                seat = rng.choice(others)
                natural = [r for r in range(TWO) if hands[seat][r]]
                if not natural:
                    continue
                swap = rng.choice(natural)
                hands[rebel][rank] -= 1
                hands[rebel][swap] += 1
                hands[seat][swap] -= 1
                hands[seat][rank] += 1
    return tuple(tuple(counts) for counts in hands)


@pytest.mark.parametrize(
    "rules",
    [
        {"preset": "standard", "two_revolutions": True},
        {"preset": "standard", "two_revolutions": True, "point_tributes_cancel": True},
        {"preset": "eight-players", "two_revolutions": True},
        {"preset": "six-decks", "two_revolutions": True},
        {"preset": "qingdao-hold3", "two_revolutions": True},
    ],
    ids=lambda r: str(r).replace(" ", ""),
)
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), data=st.data())
def test_two_revolutionaries_r56(rules, seed, data):
    ruleset = RuleSet.from_json(rules)
    rebels = tuple(
        sorted(
            data.draw(st.lists(st.sampled_from(ruleset.seats), min_size=2, max_size=2, unique=True))
        )
    )
    rng = random.Random(seed)
    hands = with_rebels(ruleset, rng, rebels)
    doc = write_record(play_deal(ruleset, rng, hands=hands, revolution=rebels))
    verdict = check(doc)
    k = ruleset.union_size
    # R56/D39: the two take places k and k + 1
    assert sorted(verdict["finish"].index(seat) + 1 for seat in rebels) == [k, k + 1]
    # D40: each rebel's head rival has its point, unless it is the other rebel
    for rebel in rebels:
        rival = head_rival(rebel, ruleset.players)
        assert (rival in verdict["points"]) is (rival not in rebels)
        assert rebel not in verdict["points"]
