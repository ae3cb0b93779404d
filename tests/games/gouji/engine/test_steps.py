"""The deal viewer's steps (`engine/steps.py`): stepping through a self-played record ends in the
replay's final state, and the first disagreement with a summary is found exactly when the replay
finds the summary wrong, at a step whose state contradicts it."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.games.gouji.engine.cards import parse_cards
from matches.games.gouji.engine.replay import replay
from matches.games.gouji.engine.selfplay import selfplay
from matches.games.gouji.engine.steps import deal_steps

PRESETS = ("standard", "qingdao-hold3", "six-decks")


def record_for(seed: int, preset: str) -> dict:
    return next(iter(selfplay(1, seed, preset)))


def own_summary(record: dict) -> dict:
    claimed = record["claimed"]
    return {
        "finish": list(claimed["finish"]),
        "points": list(claimed["points"]),
        "burns": list(claimed.get("burns") or []),
        "suffocated": list(claimed.get("suffocated") or []),
    }


seeds = st.integers(min_value=0, max_value=10_000)
presets = st.sampled_from(PRESETS)
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=seeds, preset=presets)
def test_stepping_through_every_step_ends_in_the_replays_final_state(seed, preset):
    record = record_for(seed, preset)
    verdict = replay(record)
    result = deal_steps(record)
    steps = result["steps"]
    assert result["complete"] and result["error"] is None
    assert len(steps) == len(record["actions"]) + 1
    last = steps[-1]
    assert last["finish"] == verdict["finish"]
    assert last["points"] == verdict["points"]
    assert last["burns"] == verdict["burns"]
    assert last["suffocated"] == verdict["suffocated"]
    assert last["phase"] == "over" and last["top"] is None
    # Each step's cards are the previous step's less what its action played.
    for before, after in zip(steps, steps[1:]):
        action = after["action"]
        for seat, cards in after["hands"].items():
            if action["kind"] == "play" and int(seat) == action["seat"] and cards:
                held = parse_cards(before["hands"][seat])
                played = parse_cards(action["cards"])
                assert parse_cards(cards) == tuple(h - p for h, p in zip(held, played))
            elif int(seat) != action["seat"] and after["hands"][seat]:
                assert cards == before["hands"][seat]


def mutations(summary: dict) -> list[dict]:
    finish = summary["finish"]
    swapped = list(finish)
    swapped[0], swapped[-1] = swapped[-1], swapped[0]
    last_two = finish[:-2] + [finish[-1], finish[-2]]
    missing_point = [seat for seat in range(1, 7) if seat not in summary["points"]]
    found = [
        {**summary, "finish": swapped},
        {**summary, "finish": last_two},
        {**summary, "points": summary["points"][1:]},
        {**summary, "burns": [*summary["burns"], {"burner": 1, "burned": 2, "outcome": "success"}]},
        {**summary, "burns": summary["burns"][1:]},
        {**summary, "suffocated": [*summary["suffocated"], {"seat": 3, "by": 4}]},
    ]
    if missing_point:
        found.append({**summary, "points": [*summary["points"], missing_point[0]]})
    return found


@SETTINGS
@given(seed=seeds, preset=presets, pick=st.integers(min_value=0, max_value=6))
def test_a_disagreement_is_marked_exactly_when_the_replay_finds_a_mismatch(seed, preset, pick):
    record = record_for(seed, preset)
    summary = own_summary(record)
    assert deal_steps(record, summary)["disagreement"] is None
    options = mutations(summary)
    changed = options[pick % len(options)]
    result = deal_steps(record, changed)
    claimed = {
        **record,
        "claimed": {k: changed[k] for k in ("finish", "points", "burns", "suffocated")},
    }
    mismatched = bool(replay(claimed)["mismatches"])
    found = result["disagreement"]
    assert (found is not None) == mismatched
    if found is None:
        return
    step = result["steps"][found["step"]]
    assert 0 <= found["step"] < len(result["steps"])
    if found["code"] == "place":
        # the marked step is the one at which the seat's place became what the replay says
        place = (
            step["places"].get(str(found["seat"]))
            or step.get("finish", []).index(found["seat"]) + 1
        )
        assert place == found["replayed"] != found["claimed"]
        if found["step"] > 0 and found["seat"] not in record.get("revolution", []):
            before = result["steps"][found["step"] - 1]
            assert str(found["seat"]) not in before["places"] or "finish" in step
    if found["code"] == "point_extra":
        assert found["seat"] in step["points"]
        assert found["seat"] not in result["steps"][found["step"] - 1]["points"]


def test_a_summary_whose_setup_differs_is_marked_before_the_first_action():
    record = record_for(3, "standard")
    summary = {**own_summary(record), "declarations": {"2": "clear"}}
    found = deal_steps(record, summary)["disagreement"]
    assert found["step"] == 0 and found["code"] == "setup"


def test_an_illegal_action_stops_the_steps_there():
    record = record_for(3, "standard")
    actions = list(record["actions"])
    actions[4] = {"seat": actions[4]["seat"] % 6 + 1, "pass": True}
    result = deal_steps({**record, "actions": actions})
    if result["error"] is None:
        pytest.skip("the changed action happened to be legal")
    assert len(result["steps"]) == result["error"]["action"] + 1
    assert not result["complete"]
