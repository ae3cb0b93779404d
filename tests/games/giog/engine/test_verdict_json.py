"""Property: every verdict the Giog engine gives reads back from its JSON into an equal value,
and its JSON is exactly what the command line and the rules API print (giog.md)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.games.giog.engine import game
from matches.games.giog.engine.outcome import check_summary, summary_verdict
from matches.games.giog.engine.replay import replay, replay_verdict
from matches.games.giog.engine.verdict import (
    GiogDealVerdict,
    GiogTally,
    HandVerdict,
    SummaryVerdict,
)

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def same_text(a: dict, b: dict) -> bool:
    return json.dumps(a) == json.dumps(b)


@st.composite
def records(draw):
    players = draw(st.integers(2, 4))
    rules = draw(st.sampled_from([{}, {"must_compete": True}, {"tie_order": "play"}]))
    (doc,) = game.selfplay(1, draw(st.integers(0, 2**32 - 1)), players=players, rules=rules)
    doc = dict(doc)
    cut = draw(st.sampled_from(["whole", "unclaimed", "stopped", "wrong claim", "illegal"]))
    if cut == "unclaimed":
        doc.pop("claimed")
    elif cut == "stopped":
        doc["actions"] = doc["actions"][: draw(st.integers(0, len(doc["actions"]) - 1))]
    elif cut == "wrong claim":
        doc["claimed"] = {**doc["claimed"], "beheaded": [1]}
    elif cut == "illegal":  # the first action played by the wrong seat
        first = doc["actions"][0]
        doc["actions"] = [{**first, "seat": first["seat"] % players + 1}, *doc["actions"][1:]]
    return doc


@SETTINGS
@given(doc=records())
def test_a_hand_verdict_round_trips_through_its_json(doc):
    verdict = replay_verdict(doc)
    assert HandVerdict.from_json(verdict.to_json()) == verdict
    assert same_text(verdict.to_json(), replay(doc))


@SETTINGS
@given(doc=records(), beheaded=st.lists(st.integers(1, 4), max_size=3))
def test_a_summary_verdict_round_trips_through_its_json(doc, beheaded):
    replayed = replay_verdict(doc)
    summary = {
        "format": "giog-outcome/1",
        "players": doc["players"],
        "won": replayed.to_json()["won"],
        "beheaded": [seat for seat in beheaded if seat <= doc["players"]],
    }
    verdict = summary_verdict(summary)
    assert SummaryVerdict.from_json(verdict.to_json()) == verdict
    assert same_text(verdict.to_json(), check_summary(summary))
    stored = GiogDealVerdict(
        verdict,
        replayed,
        won=replayed.won,
        beheaded=tuple(sorted(set(summary["beheaded"]))),
        points=tuple((seat, str(n)) for seat, n in replayed.won),
    )
    assert GiogDealVerdict.from_json(stored.to_json()) == stored
    tally = GiogTally(won=replayed.won, beheaded=stored.beheaded)
    assert GiogTally.from_json(tally.to_json()) == tally
    assert tally.won_by_seat == {seat: n for seat, n in replayed.won}
