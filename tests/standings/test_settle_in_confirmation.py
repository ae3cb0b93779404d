"""Issue 28: a confirmation that makes a deal final settles it in its own transaction (its
tally, the next deal's tributes, the match's result), instead of a Celery task per deal; the
settlement task stays the recovery path. Whatever path a deal took, a full recompute writes the
same rows."""

from __future__ import annotations

import random

import pytest
from django.db import connection, transaction

from matches.games.gouji.adapter import GoujiAdapter
from matches.models import ComputationRun, Deal, DealTally
from matches.standings import service as standings
from matches.store.statements import match_unless_locked
from tests.standings.test_tasks import derived_state, random_finish, wipe

pytestmark = pytest.mark.django_db


def settle_runs(event) -> set[str]:
    return set(
        ComputationRun.objects.filter(event=event, task="settle_deal").values_list("key", flat=True)
    )


def test_the_confirmation_writes_the_tally_the_next_tributes_and_the_match_result(build):
    b = build(unions=2, deals=3)
    match = b.match(b.round([(0, 1)]), 1)
    # In the test's transaction nothing is committed: a task queued on commit never runs, so
    # whatever is settled here was settled by the confirmation itself.
    b.final(match, 1, [6, 5, 4, 3, 2, 1], points=[6, 5])
    assert DealTally.objects.filter(match=match).count() == 1
    assert Deal.objects.get(match=match, number=2).tributes_owed  # what deal 1 left
    assert Deal.objects.get(match=match, number=3).tributes_owed is None  # unknown yet
    b.final(match, 2, [1, 2, 3, 4, 5, 6])
    match.refresh_from_db()
    assert match.completed_at is None and match.points_a is None
    b.final(match, 3, [2, 1, 4, 3, 6, 5])
    match.refresh_from_db()
    assert match.completed_at is not None and match.points_a is not None
    assert DealTally.objects.filter(match=match).count() == 3
    assert not settle_runs(b.event)
    standings.update_standings(b.event.pk, 1)  # the standings task, left out here
    incremental = derived_state(b.event)
    wipe(b.event)
    standings.recompute_event(b.event.pk)
    assert derived_state(b.event) == incremental


def test_a_festival_of_confirmed_results_equals_its_full_recompute(
    build, django_capture_on_commit_callbacks
):
    rng = random.Random(28)
    b = build(unions=8, deals=4)
    with django_capture_on_commit_callbacks(execute=True):
        for _round in range(2):
            order = list(range(8))
            rng.shuffle(order)
            round_ = b.round([(order[k], order[k + 1]) for k in range(0, 8, 2)])
            for match in round_.matches.all():
                for number in range(1, 5):
                    finish = random_finish(rng)
                    b.final(match, number, finish, points=finish[: rng.randint(0, 3)])
    assert not settle_runs(b.event)  # every deal settled by its confirmation
    incremental = derived_state(b.event)
    wipe(b.event)
    standings.recompute_event(b.event.pk)
    assert derived_state(b.event) == incremental


def test_a_deal_whose_earlier_deal_is_unsettled_is_left_to_the_task(
    build, django_capture_on_commit_callbacks
):
    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    b.final(match, 1, [6, 5, 4, 3, 2, 1], points=[6])
    DealTally.objects.filter(match=match).delete()  # deal 1's settlement lost
    with django_capture_on_commit_callbacks(execute=True):
        b.final(match, 2, [1, 2, 3, 4, 5, 6])
    # Not settled in the request (deal 1 has no tally): the task settled the whole match.
    assert settle_runs(b.event) == {f"match:{match.pk}"}
    assert DealTally.objects.filter(match=match).count() == 2
    settled = derived_state(b.event)
    wipe(b.event)
    standings.recompute_event(b.event.pk)
    assert derived_state(b.event) == settled


def test_a_failing_settlement_keeps_the_result_and_queues_the_task(
    build, monkeypatch, django_capture_on_commit_callbacks, caplog
):
    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)

    def broken(self, *args):
        DealTally.objects.create(deal=args[-1], match=match, report_id=0)  # rolled back
        raise RuntimeError("settlement bug")

    monkeypatch.setattr(GoujiAdapter, "settle_new_deal", broken)
    with django_capture_on_commit_callbacks(execute=True):
        report = b.final(match, 1, [6, 5, 4, 3, 2, 1])
    assert report.state == "final" and "settlement bug" in caplog.text
    # The half-written settlement was rolled back with its savepoint; the task settled the deal.
    assert settle_runs(b.event) == {f"match:{match.pk}"}
    assert list(DealTally.objects.filter(match=match).values_list("report_id", flat=True)) == [
        report.pk
    ]


@pytest.mark.django_db(transaction=True)
def test_a_match_held_by_a_worker_is_not_waited_for(build):
    """The confirmation never waits for the match row (a worker's settlement holds it while it
    may wait for a deal's row): held, the deal is left to the task."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL only")
    import psycopg

    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    b.final(match, 1, [6, 5, 4, 3, 2, 1])
    deal = Deal.objects.select_related("match__round__event").get(match=match, number=1)
    report = deal.reports.final().get()
    DealTally.objects.filter(match=match).delete()
    s = connection.settings_dict
    with psycopg.connect(
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        user=s["USER"],
        password=s["PASSWORD"] or None,
        dbname=s["NAME"],
    ) as other:
        other.execute("SELECT id FROM matches_match WHERE id = %s FOR UPDATE", [match.pk])
        with transaction.atomic():
            assert match_unless_locked(match.pk) is None
            assert standings.settle_new_result(deal, report) is None  # at once, nothing written
        assert not DealTally.objects.filter(match=match).exists()
        other.rollback()
    with transaction.atomic():
        assert match_unless_locked(match.pk) == match
        assert standings.settle_new_result(deal, report) is not None
    assert DealTally.objects.get(match=match).report_id == report.pk


def test_only_a_deal_that_completes_its_match_asks_for_the_standings(
    build, monkeypatch, django_assert_num_queries
):
    """The standings count completed matches only: a confirmed deal that leaves its match
    unfinished asks for no standings run (not even a query); the one that completes it does,
    spaced by STANDINGS_MIN_INTERVAL while other matches still play."""
    from matches import tasks

    b = build(unions=4, deals=3)
    round_ = b.round([(0, 1), (2, 3)])
    ComputationRun.objects.filter(event=b.event, task="update_standings").update(
        state=ComputationRun.State.DONE
    )
    asked = []
    monkeypatch.setattr(tasks, "enqueue", lambda task, *args, **kwargs: asked.append(kwargs))
    with django_assert_num_queries(0):
        tasks.queue_standings_after_settlement(
            b.event.pk, round_.pk, round_.number, match_completed=False
        )
    assert asked == []
    tasks.queue_standings_after_settlement(
        b.event.pk, round_.pk, round_.number, match_completed=True
    )
    assert len(asked) == 1 and not asked[0]["urgent"]
    assert asked[0]["countdown"] == tasks.standings_interval(b.event.pk) > 0
