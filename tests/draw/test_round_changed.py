"""A round's change reaches the standings through `round_changed` (matches/signals.py), from a
view and from a management command alike: the draw service sends it after commit when a round is
published, closed or unpublished, the forfeit service when a result changes without a deal; the
receiver (matches/receivers.py) queues the standings from that round."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from matches import signals
from matches.draw import late
from matches.models import ComputationRun, StandingsSnapshot
from matches.results import forfeits


def union_rows(round_):
    snapshot = StandingsSnapshot.objects.filter(round=round_, kind="unions", scope="event").first()
    return None if snapshot is None else {row["union"]: row for row in snapshot.rows}


@pytest.fixture
def sent(monkeypatch):
    """The `round_changed` signals sent, as (number, action)."""
    seen = []

    def record(sender, number, action, **kwargs):
        seen.append((number, action))

    signals.round_changed.connect(record, dispatch_uid="test.round_changed")
    yield seen
    signals.round_changed.disconnect(dispatch_uid="test.round_changed")


def test_closing_a_round_by_management_command_refreshes_the_standings(
    build, django_capture_on_commit_callbacks, sent
):
    b = build(unions=4, deals=2)
    round_ = b.draw()
    b.report_all().settle()  # final results, settled; in a test transaction nothing commits
    assert union_rows(round_) is None

    with django_capture_on_commit_callbacks(execute=True):
        call_command("close_round", round_.pk)

    assert sent == [(1, "closed")]
    rows = union_rows(round_)
    assert rows is not None and len(rows) == 4
    assert sum(row["match_points"] for row in rows.values()) > 0
    run = ComputationRun.objects.get(event=b.event, task="update_standings")
    assert run.state == ComputationRun.State.DONE and run.args["from_round"] == 1


def test_publishing_a_round_by_management_command_refreshes_the_standings(
    build, django_capture_on_commit_callbacks, sent
):
    b = build(unions=4, deals=2).play_rounds(1)
    second = b.draw(publish=False)
    assert union_rows(second) is None

    with django_capture_on_commit_callbacks(execute=True):
        call_command("publish_round", second.pk)

    assert sent == [(2, "published")]
    rows = union_rows(second)
    assert rows is not None and len(rows) == 4
    # Round 2 has no result yet: its standings carry round 1's (two matches of two unions).
    points = sorted(row["match_points"] for row in rows.values())
    assert sum(points) > 0 and points[0] < points[-1]


def test_nothing_is_sent_for_a_round_change_that_is_rolled_back(build, sent):
    b = build(unions=4, deals=2)
    round_ = b.draw(publish=False)
    b.publish(round_)  # inside the test's transaction: never committed
    assert sent == []


def test_unpublishing_and_a_forfeit_send_the_signal(
    build, django_capture_on_commit_callbacks, sent
):
    b = build(unions=4, deals=2)
    round_ = b.draw(publish=False)
    with django_capture_on_commit_callbacks(execute=True):
        b.publish(round_)
        late.unpublish_round(round_)
        b.publish(round_)
        forfeits.award_forfeit(b.first_match(round_), "A")
        forfeits.clear_forfeit(b.first_match(round_))
    assert sent == [
        (1, "published"),
        (1, "unpublished"),
        (1, "published"),
        (1, "results"),
        (1, "results"),
    ]
    assert ComputationRun.objects.get(event=b.event, task="update_standings").state == "done"
