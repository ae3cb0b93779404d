"""Property: every verdict the Gou Ji engine gives reads back from its JSON into an equal value,
and its JSON is exactly what the command line and the rules API print (deal-record.md)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.games.gouji.engine.replay import replay, replay_verdict
from matches.games.gouji.engine.selfplay import selfplay
from matches.games.gouji.engine.sequence import outcome_from_replay
from matches.games.gouji.engine.settle import settle, settle_verdict
from matches.games.gouji.engine.verdict import (
    GoujiDealVerdict,
    GoujiTally,
    ReplayVerdict,
    SettleVerdict,
)

RULES = st.sampled_from(
    [
        "standard",
        "qingdao-hold3",
        "six-decks",
        {"preset": "standard", "place_tribute": "pool"},
        {"preset": "standard", "union_score": "own"},
        {"preset": "qingdao-hold3", "counter_burn_tribute": "doubling"},
    ]
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same_text(a: dict, b: dict) -> bool:
    """Equal as printed: key order included."""
    return json.dumps(a) == json.dumps(b)


@st.composite
def records(draw):
    (doc,) = selfplay(1, draw(st.integers(0, 2**32 - 1)), draw(RULES))
    doc = dict(doc)
    cut = draw(st.sampled_from(["whole", "unclaimed", "stopped", "wrong claim"]))
    if cut == "unclaimed":
        doc.pop("claimed")
    elif cut == "stopped":  # a record that ends early: incomplete, maybe undecided burns
        doc["actions"] = doc["actions"][: draw(st.integers(0, len(doc["actions"]) - 1))]
    elif cut == "wrong claim":  # mismatches
        doc["claimed"] = {**doc["claimed"], "finish": list(reversed(doc["claimed"]["finish"]))}
    return doc


@SETTINGS
@given(doc=records())
def test_a_replay_verdict_round_trips_through_its_json(doc):
    verdict = replay_verdict(doc)
    assert ReplayVerdict.from_json(verdict.to_json()) == verdict
    assert same_text(verdict.to_json(), replay(doc))


@SETTINGS
@given(doc=records(), streak=st.integers(0, 3), broken=st.booleans())
def test_a_settle_verdict_round_trips_through_its_json(doc, streak, broken):
    replayed = replay_verdict(doc)
    summary = outcome_from_replay(doc, replayed)
    summary["rules"] = doc.get("rules", "standard")
    summary["string_three_streak"] = streak
    if broken:  # an inconsistent summary: every error listed, with its numbers
        summary["finish"] = summary["finish"][:5] + summary["finish"][:1]
    verdict = settle_verdict(summary)
    assert SettleVerdict.from_json(verdict.to_json()) == verdict
    assert same_text(verdict.to_json(), settle(summary))
    stored = GoujiDealVerdict(verdict, replayed, "replay" if broken else None)
    assert GoujiDealVerdict.from_json(stored.to_json()) == stored
    assert GoujiDealVerdict.from_json(stored.to_json()).settles_like(stored)


@SETTINGS
@given(doc=records())
def test_a_tally_round_trips_through_its_json(doc):
    verdict = replay_verdict(doc)
    tally = GoujiTally(
        points=verdict.points,
        burners=tuple(b.burner for b in verdict.burns if b.outcome in ("success", "counter")),
        strung="A" if verdict.finish[:3] == (1, 3, 5) else None,
        streak=1 if verdict.finish[:3] == (1, 3, 5) else 0,
        tributes=verdict.tributes,
    )
    assert GoujiTally.from_json(tally.to_json()) == tally
    assert list(tally.to_json()) == ["points", "burners", "strung", "streak", "tributes"]


def test_string_three_by_b_prints_b_first_and_still_equals_a_sorted_copy():
    summary = {"format": "gouji-outcome/1", "finish": [2, 4, 6, 1, 3, 5], "points": [2, 4, 6]}
    verdict = settle_verdict(summary)
    assert list(settle(summary)["union_scores"]) == ["B", "A"]
    assert list(verdict.to_json()["union_scores"]) == ["B", "A"]
    # PostgreSQL's jsonb gives the keys back sorted: the value is the same all the same
    resorted = {**verdict.to_json(), "union_scores": {"A": -12, "B": 12}}
    assert verdict.union_scores is not None and verdict.union_scores.b == 12
    assert SettleVerdict.from_json(resorted) == verdict
