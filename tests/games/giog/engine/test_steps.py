"""The Giog hand viewer's steps (`engine/steps.py`): stepping through a self-played record ends
in the replay's final state, and the first disagreement with a summary is found exactly when
the replay finds the summary wrong."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.games.giog.engine.replay import replay
from matches.games.giog.engine.selfplay import selfplay
from matches.games.giog.engine.steps import hand_steps

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=10_000)
players = st.sampled_from((2, 3, 4))


@SETTINGS
@given(seed=seeds, players=players)
def test_stepping_through_every_step_ends_in_the_replays_final_state(seed, players):
    record = next(iter(selfplay(1, seed, players=players)))
    verdict = replay(record)
    result = hand_steps(record)
    steps = result["steps"]
    assert result["complete"] and len(steps) == len(record["actions"]) + 1
    assert steps[-1]["won"] == verdict["won"]
    assert steps[-1]["beheaded"] == verdict["beheaded"]
    assert all(pieces == "" for pieces in steps[-1]["hands"].values())
    # Pieces only leave a hand, by the action's seat, as many as it played.
    for before, after in zip(steps, steps[1:]):
        seat = str(after["action"]["seat"])
        played = len(after["action"]["pieces"])
        assert len(after["hands"][seat]) == len(before["hands"][seat]) - played
        assert sum(after["won"].values()) >= sum(before["won"].values())


@SETTINGS
@given(seed=seeds, players=players, data=st.data())
def test_a_disagreement_is_marked_exactly_when_the_replay_finds_a_mismatch(seed, players, data):
    record = next(iter(selfplay(1, seed, players=players)))
    verdict = replay(record)
    summary = {"won": dict(verdict["won"]), "beheaded": list(verdict["beheaded"])}
    assert hand_steps(record, summary)["disagreement"] is None
    seats = sorted(summary["won"])
    a, b = data.draw(st.sampled_from(seats)), data.draw(st.sampled_from(seats))
    changed = dict(summary["won"])
    changed[a], changed[b] = changed[b], changed[a]
    beheaded = data.draw(st.sampled_from([summary["beheaded"], [], [int(a)]]))
    wrong = {"won": changed, "beheaded": beheaded}
    result = hand_steps(record, wrong)
    claimed = {**record, "claimed": wrong}
    assert (result["disagreement"] is not None) == bool(replay(claimed)["mismatches"])
    found = result["disagreement"]
    if found and found["code"] == "won_extra":
        step = result["steps"][found["step"]]
        before = result["steps"][found["step"] - 1]
        seat = str(found["seat"])
        assert step["won"][seat] > found["claimed"] >= before["won"][seat]
