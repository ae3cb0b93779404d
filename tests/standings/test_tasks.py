"""The Celery tasks: the signal queues them, they are idempotent, order-free, and recompute_event
gives exactly the incremental numbers. (Eager here; tests/test_celery_integration.py runs them in a
real worker.)"""

from __future__ import annotations

import random

import pytest

from matches import tasks
from matches.games.gouji import standings as gouji_standings
from matches.models import ComputationRun, Deal, DealTally, Match, StandingsSnapshot
from matches.signals import deal_result_changed
from matches.standings import service as standings


def random_finish(rng):
    seats = [1, 2, 3, 4, 5, 6]
    rng.shuffle(seats)
    return seats


def play_event(build, rng, *, rounds=2, unions=6, deals=3):
    """A Swiss event of `rounds` rounds with random results, through the results service
    (which sends `deal_result_changed` on commit for each final result)."""
    b = build(unions=unions, deals=deals)
    order = list(range(unions))
    for _ in range(rounds):
        rng.shuffle(order)
        round_ = b.round([(order[k], order[k + 1]) for k in range(0, unions, 2)])
        for match in round_.matches.all():
            for number in range(1, deals + 1):
                finish = random_finish(rng)
                b.final(match, number, finish, points=finish[: rng.randint(0, 3)])
    return b


def derived_state(event):
    """Everything the computations write, in a comparable form."""
    return {
        "tallies": sorted(
            (
                t.deal_id,
                t.report_id,
                t.score_a,
                t.score_b,
                repr(t.places),
                repr(sorted(t.detail.items())),
            )
            for t in DealTally.objects.filter(match__round__event=event)
        ),
        "owed": sorted(
            Deal.objects.filter(match__round__event=event).values_list("id", "tributes_owed")
        ),
        "matches": sorted(
            Match.objects.filter(round__event=event).values_list(
                "id", "score_a", "score_b", "points_a", "points_b"
            )
        ),
        "snapshots": sorted(
            (s.round_id, s.kind, s.scope, repr(s.rows), s.unfinished)
            for s in StandingsSnapshot.objects.filter(event=event)
        ),
    }


def wipe(event):
    """Forget what the computations wrote (tallies, match scores, ledgers, snapshots), as if they
    had never run; the results themselves stay."""
    DealTally.objects.filter(match__round__event=event).delete()
    StandingsSnapshot.objects.filter(event=event).delete()
    Match.objects.filter(round__event=event, table__isnull=False).update(
        score_a=None, score_b=None, points_a=None, points_b=None, completed_at=None
    )
    Deal.objects.filter(match__round__event=event).update(tributes_owed=None)


def test_the_signal_queues_the_settlement_and_the_standings(
    build, django_capture_on_commit_callbacks
):
    rng = random.Random(7)
    with django_capture_on_commit_callbacks(execute=True):
        b = play_event(build, rng, rounds=1, unions=4, deals=2)
    event = b.event
    assert not Match.objects.filter(round__event=event, points_a__isnull=True).exists()
    assert StandingsSnapshot.objects.filter(event=event, kind="unions").count() == 2
    runs = {(r.task, r.key): r for r in ComputationRun.objects.filter(event=event)}
    assert runs[("update_standings", "standings")].state == "done"
    assert runs[("update_standings", "standings")].succeeded_at
    # Publishing the round queued a standings run first (round_changed). Issue 28: each
    # confirmation settled its deal in its own transaction, so no settlement task ran for a
    # match; the standings followed each result.
    assert all(r.state == "done" for r in runs.values())
    assert not {k for _t, k in runs if k.startswith("match:")}
    assert DealTally.objects.filter(match__round__event=event).count() == 2 * 2  # matches, deals


def test_recompute_event_gives_exactly_the_incremental_numbers(
    build, django_capture_on_commit_callbacks
):
    rng = random.Random(11)
    with django_capture_on_commit_callbacks(execute=True):
        b = play_event(build, rng)
    incremental = derived_state(b.event)
    assert incremental["snapshots"] and incremental["tallies"]
    wipe(b.event)
    assert derived_state(b.event) != incremental
    tasks.recompute_event.delay(event_id=b.event.pk)
    assert derived_state(b.event) == incremental


def test_running_every_task_twice_and_in_reverse_order_changes_nothing(build):
    rng = random.Random(3)
    b = play_event(build, rng)
    standings.recompute_event(b.event.pk)
    expected = derived_state(b.event)
    wipe(b.event)
    # Standings first (they settle what is stale themselves), then every match backwards, twice.
    tasks.update_standings.delay(event_id=b.event.pk, from_round=2)
    tasks.update_standings.delay(event_id=b.event.pk, from_round=1)
    match_ids = list(Match.objects.filter(round__event=b.event).values_list("pk", flat=True))
    for match_id in reversed(match_ids * 2):
        tasks.settle_match.delay(match_id=match_id)
    assert derived_state(b.event) == expected
    tasks.recompute_event.delay(event_id=b.event.pk)
    assert derived_state(b.event) == expected


def test_a_failing_computation_is_retried_then_shown_as_failed(
    build, monkeypatch, django_capture_on_commit_callbacks
):
    b = build(unions=2, deals=1)
    match = b.match(b.round([(0, 1)]), 1)
    report = b.final(match, 1, [1, 2, 3, 4, 5, 6])
    # Issue 28: the confirmation settled the deal; its tally lost, the task has work to do.
    DealTally.objects.filter(match=match).delete()
    calls = []

    def broken(match_id):
        calls.append(match_id)
        raise RuntimeError("database went away")

    monkeypatch.setattr(standings, "settle_match", broken)
    with django_capture_on_commit_callbacks(execute=True):
        deal_result_changed.send(sender=None, deal_id=report.deal_id)  # must not raise
    run = ComputationRun.objects.get(event=b.event, task="settle_deal", key=f"match:{match.pk}")
    assert run.state == "failed" and "database went away" in run.error
    assert len(calls) == tasks.MAX_RETRIES + 1 and run.attempts == tasks.MAX_RETRIES + 1
    monkeypatch.undo()
    with django_capture_on_commit_callbacks(execute=True):
        deal_result_changed.send(sender=None, deal_id=report.deal_id)
    run.refresh_from_db()
    assert run.state == "done" and run.error == "" and run.attempts == 1


def test_a_queued_standings_run_absorbs_further_requests(build):
    b = build(unions=2, deals=1)
    b.round([(0, 1)])
    # Outside on_commit capture nothing is sent: the row stays queued and absorbs the next one.
    with pytest.MonkeyPatch.context() as mp:
        sent = []
        mp.setattr(tasks.update_standings, "apply_async", lambda **kw: sent.append(kw))
        from django.db import transaction

        with transaction.atomic():
            tasks.enqueue(
                tasks.update_standings,
                b.event.pk,
                "standings",
                {"event_id": b.event.pk, "from_round": 3},
            )
            tasks.enqueue(
                tasks.update_standings,
                b.event.pk,
                "standings",
                {"event_id": b.event.pk, "from_round": 1},
            )
    row = ComputationRun.objects.get(event=b.event, task="update_standings")
    assert row.state == "queued" and row.args["from_round"] == 1
    # The message that arrives still says round 3; the run takes over the folded request.
    assert not StandingsSnapshot.objects.filter(event=b.event).exists()
    tasks.update_standings.apply(kwargs={"event_id": b.event.pk, "from_round": 3})
    assert StandingsSnapshot.objects.filter(event=b.event, round__number=1).exists()
    row.refresh_from_db()
    assert row.state == "done"


def test_tasks_for_a_missing_event_or_match_do_nothing(db):
    # A task may arrive after its event or match is gone (a re-draw, a test database flushed).
    # (`get` without Celery's join guard: the guard is one flag for the whole process, raised
    # while any thread runs an eager task, such as a live server's thread of an earlier test.)
    tasks.settle_match.apply(kwargs={"match_id": 999_999}).get(disable_sync_subtasks=False)
    tasks.settle_deal.apply(kwargs={"deal_id": 999_999}).get(disable_sync_subtasks=False)
    tasks.update_standings.apply(kwargs={"event_id": 999_999, "from_round": 1}).get(
        disable_sync_subtasks=False
    )
    tasks.recompute_event.apply(kwargs={"event_id": 999_999}).get(disable_sync_subtasks=False)
    assert not ComputationRun.objects.exists()


def test_mid_round_standings_are_spaced_by_the_last_runs_duration(build, settings):
    """A festival's standings run takes seconds: runs are spaced by STANDINGS_DUTY_FACTOR times
    the last run's duration when that is longer than STANDINGS_MIN_INTERVAL."""
    settings.STANDINGS_MIN_INTERVAL = 5
    settings.STANDINGS_DUTY_FACTOR = 3
    event = build(unions=2, deals=1).event
    assert tasks.standings_interval(event.pk) == 5  # no run yet
    run = ComputationRun.objects.create(
        event=event,
        task="update_standings",
        key="standings",
        state=ComputationRun.State.DONE,
        seconds=4,
    )
    assert tasks.standings_interval(event.pk) == pytest.approx(12)
    ComputationRun.objects.filter(pk=run.pk).update(seconds=1)
    assert tasks.standings_interval(event.pk) == 5  # a quick run: the minimum holds


def test_player_standings_carried_from_the_previous_round_equal_reading_every_round(build):
    """snapshot_round adds each round to the previous round's rows; the result is what reading
    every round's tallies from scratch gives."""
    b = play_event(build, random.Random(11), rounds=3, unions=6, deals=2)
    standings.recompute_event(b.event.pk)
    last = b.event.rounds.order_by("number").last()
    snapshot = StandingsSnapshot.objects.get(round=last, kind="players", scope="event")
    rounds = list(b.event.rounds.order_by("number"))
    from_scratch = gouji_standings.player_rows(b.event, rounds)
    assert snapshot.rows == from_scratch
    assert (
        sum(row["deals"] for row in from_scratch) == 6 * 3 * 3 * 2
    )  # seats x matches x rounds x deals


def test_a_run_records_how_long_it_took(build):
    b = play_event(build, random.Random(5), rounds=1, unions=2, deals=1)
    tasks.update_standings.delay(event_id=b.event.pk)
    run = ComputationRun.objects.get(event=b.event, task="update_standings")
    assert run.state == ComputationRun.State.DONE
    assert run.seconds is not None and 0 <= run.seconds < 60
    assert run.seconds == pytest.approx((run.finished_at - run.started_at).total_seconds())


def test_settling_a_deal_already_counted_is_two_queries(build, django_assert_max_num_queries):
    """At a festival the queue of settlements can fall behind; a standings run then settles the
    matches it finds stale, and the tasks still queued for them must cost next to nothing."""
    b = play_event(build, random.Random(7), rounds=1, unions=2, deals=2)
    standings.recompute_event(b.event.pk)
    deal = Deal.objects.filter(match__round__event=b.event).order_by("number").last()
    with django_assert_max_num_queries(3):  # the deal, its final report, its tally
        tasks.settle_deal.delay(deal_id=deal.pk)
    # A deal whose final report is not counted yet is settled again.
    report = deal.reports.final().get()
    DealTally.objects.filter(deal=deal).delete()  # the computed tally lost, the result kept
    tasks.settle_deal.delay(deal_id=deal.pk)
    assert DealTally.objects.get(deal=deal).report_id == report.pk


def test_results_of_a_match_fold_into_its_queued_settlement(
    build, monkeypatch, django_capture_on_commit_callbacks
):
    """Issue 19: while a match's settlement waits in the queue, further final results of the
    match send no task of their own (the queued run settles the whole match); once a worker
    has claimed the run, the next result queues a new one. Nothing is lost either way."""
    b = play_event(build, random.Random(11), rounds=1, unions=2, deals=3)
    match = Match.objects.filter(round__event=b.event, table__isnull=False).get()
    deals = list(Deal.objects.filter(match=match).order_by("number"))
    sent = []
    monkeypatch.setattr(
        tasks.settle_deal, "apply_async", lambda kwargs=None, **options: sent.append(kwargs)
    )
    ComputationRun.objects.filter(task="settle_deal").delete()
    key = f"match:{match.pk}"

    def result(deal):
        with django_capture_on_commit_callbacks(execute=True):
            tasks.enqueue(tasks.settle_deal, b.event.pk, key, {"deal_id": deal.pk})

    result(deals[0])  # no run row yet: the usual path creates it and sends
    result(deals[1])  # queued and not started: folded
    result(deals[2])
    assert sent == [{"deal_id": deals[0].pk}]
    run = ComputationRun.objects.get(task="settle_deal", key=key)
    assert run.state == ComputationRun.State.QUEUED
    # The worker takes the run up (claims it before reading results) and settles the match
    # with every final result, the folded ones too.
    DealTally.objects.filter(match=match).delete()
    tasks.settle_deal.run(deal_id=deals[0].pk)
    assert set(DealTally.objects.filter(match=match).values_list("deal_id", flat=True)) == {
        d.pk for d in deals
    }
    run.refresh_from_db()
    assert run.state == ComputationRun.State.DONE
    # A run no longer queued: the next result sends a task again.
    result(deals[2])
    assert sent[-1] == {"deal_id": deals[2].pk} and len(sent) == 2
    # A queued run already claimed by a worker (started): a result sends its own task.
    ComputationRun.objects.filter(pk=run.pk).update(state=ComputationRun.State.RUNNING)
    result(deals[1])
    assert len(sent) == 3


def test_a_queued_settlement_whose_match_is_settled_ends_done(build, monkeypatch):
    """A task whose match a standings run settled already marks its run done, so that later
    results are not folded into a run no worker will start."""
    b = play_event(build, random.Random(12), rounds=1, unions=2, deals=2)
    standings.recompute_event(b.event.pk)
    match = Match.objects.filter(round__event=b.event, table__isnull=False).get()
    deal = Deal.objects.filter(match=match).first()
    ComputationRun.objects.filter(task="settle_deal", key=f"match:{match.pk}").update(
        state=ComputationRun.State.QUEUED
    )
    tasks.settle_deal.run(deal_id=deal.pk)
    assert not ComputationRun.objects.filter(
        task="settle_deal", key=f"match:{match.pk}", state=ComputationRun.State.QUEUED
    ).exists()
