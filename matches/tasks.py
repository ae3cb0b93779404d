"""Celery tasks. Each takes ids (never objects), is idempotent and safe to re-run.

The computation tasks (scores, tributes, match results, standings) call
`matches.standings.service`, which recomputes its whole scope from the final deal results, so
a task that runs twice, late, or before another one leaves the same data behind. Each run is
recorded in a `ComputationRun` row (queued, running, retrying, done, failed) for the organiser's
dashboard; a failing run is retried with a growing delay, then marked failed.
"""

from __future__ import annotations

import logging
import os

from celery import shared_task
from django.conf import settings
from django.db import models, transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone

from matches.models import (
    ComputationRun,
    Deal,
    DealReport,
    DealTally,
    Event,
    Match,
    SheetPhoto,
    StackSheet,
    WorkerProbe,
)
from matches.sheets import service as sheets
from matches.sheets import stack as sheet_stack
from matches.standings import service as standings
from matches.standings import verify
from matches.store import statements

log = logging.getLogger(__name__)

MAX_RETRIES = 3


@shared_task
def probe_worker(token: str) -> int:
    """Record that a worker ran this task; re-running with the same token changes nothing."""
    probe, _ = WorkerProbe.objects.get_or_create(token=token, defaults={"worker_pid": os.getpid()})
    return probe.worker_pid


# --- bookkeeping --------------------------------------------------------------------------------


def _run_row(event_id: int, task: str, key: str):
    row, _ = ComputationRun.objects.get_or_create(event_id=event_id, task=task, key=key)
    return row


def enqueue(
    task, owner: int, key: str, kwargs: dict, countdown: float = 0, urgent: bool = False
) -> None:
    """Mark the computation queued and send the task once the current transaction commits.

    A standings run still waiting in the queue absorbs a new request (it starts from the lower
    round), so a burst of results does not queue a burst of identical recomputations. An
    `urgent` request is sent even so: the waiting run may be one delayed by `countdown`.
    """

    event_id = owner  # the event whose dashboard shows this computation
    name = task.name.rsplit(".", 1)[-1]
    if task is settle_deal and _fold_settlement(task, event_id, name, key, kwargs):
        return
    runs = ComputationRun.objects.select_for_update().filter(event_id=event_id, task=name, key=key)
    with transaction.atomic():
        row = runs.first()  # one query in the usual case: the row exists after the first run
        if row is None:
            if not Event.objects.filter(pk=event_id).exists():
                return
            _run_row(event_id, name, key)  # get_or_create: safe against a concurrent creator
            row = runs.get()
        if row.state == ComputationRun.State.QUEUED and "from_round" in kwargs and row.args:
            from_round = min(row.args.get("from_round", 1), kwargs["from_round"])
            if from_round != row.args.get("from_round"):
                row.args = {**row.args, "from_round": from_round}
                row.save(update_fields=["args"])
            if not urgent:
                return
        row.state = ComputationRun.State.QUEUED
        row.args = kwargs
        row.attempts = 0  # attempts of this run, shown when it fails
        row.queued_at = timezone.now()
        row.save(update_fields=["state", "args", "attempts", "queued_at"])

    def send():
        try:
            task.apply_async(kwargs=kwargs, countdown=countdown or None)
        except Exception:
            # Eager mode raises the task's final failure here; the run row already says
            # "failed", and the result that triggered it is committed and must stay so.
            log.exception("computation %s(%s) failed", name, kwargs)

    transaction.on_commit(send)


def _fold_settlement(task, event_id: int, name: str, key: str, kwargs: dict) -> bool:
    """A match's settlement, asked for by a new final result (`settle_deal`), in one query where
    it can: mark the match's run queued and send the task; or, when a run of the match is
    already queued and has not started, nothing at all: that run settles the whole match from
    its final results, this one included (it is committed: this runs on commit). When results
    come faster than the workers settle them, a match is then settled once for several deals.
    False: no run row yet (the caller's path creates it)."""
    runs = ComputationRun.objects.filter(event_id=event_id, task=name, key=key)
    queued = runs.exclude(state=ComputationRun.State.QUEUED).update(
        state=ComputationRun.State.QUEUED, args=kwargs, attempts=0, queued_at=timezone.now()
    )
    if not queued:
        # Queued and not claimed yet (`settle_deal` claims its run before reading results):
        # fold into it. Claimed meanwhile, or no row: the caller queues a run as usual.
        return runs.filter(state=ComputationRun.State.QUEUED).exists()

    def send():
        try:
            task.apply_async(kwargs=kwargs)
        except Exception:
            log.exception("computation %s(%s) failed", name, kwargs)
            # Never leave a run marked queued that no task will take up: later results would
            # fold into it.
            runs.filter(state=ComputationRun.State.QUEUED).update(
                state=ComputationRun.State.FAILED, finished_at=timezone.now()
            )

    transaction.on_commit(send)
    return True


def run_tracked(task, event_id: int, key: str, compute, retry_kwargs: dict | None = None) -> None:
    """Run `compute()` and record it; retry a failure up to MAX_RETRIES times, then mark it failed.

    A worker retries through the broker with a growing delay; in eager mode (the embedded
    default) the retries run at once, in-process.
    """

    name = task.name.rsplit(".", 1)[-1]
    # The run's row, by its natural key: marking it running is one query when it exists (it
    # does after the first run), a settlement's bookkeeping being most of its cost.
    row = ComputationRun.objects.filter(event_id=event_id, task=name, key=key)
    retries = task.request.retries or 0
    while True:
        started = timezone.now()
        if not row.update(
            state=ComputationRun.State.RUNNING,
            started_at=started,
            attempts=models.F("attempts") + 1,
        ):
            if not Event.objects.filter(pk=event_id).exists():
                return  # deleted since the task was queued: nothing to compute or record
            _run_row(event_id, name, key)
            continue
        try:
            compute()
        except Exception as exc:
            final = retries >= MAX_RETRIES
            row.update(
                state=ComputationRun.State.FAILED if final else ComputationRun.State.RETRYING,
                error=f"{type(exc).__name__}: {exc}"[:2000],
                finished_at=timezone.now(),
            )
            if final:
                raise
            if task.request.is_eager:
                retries += 1
                continue
            raise task.retry(exc=exc, countdown=2**retries, kwargs=retry_kwargs)
        finished = timezone.now()
        row.update(
            state=ComputationRun.State.DONE,
            error="",
            finished_at=finished,
            succeeded_at=finished,
            seconds=(finished - started).total_seconds(),
        )
        return


# --- computations -------------------------------------------------------------------------------


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def settle_deal(self, deal_id: int) -> None:
    """A deal's final result appeared or changed: settle its match, then the standings."""
    deal = Deal.objects.select_related("match__round").filter(pk=deal_id).first()
    if deal is None:
        return
    runs = ComputationRun.objects.filter(
        event_id=deal.match.round.event_id, task="settle_deal", key=f"match:{deal.match_id}"
    )
    # Claim the queued run before reading any result: a result committed from now on finds the
    # run started and queues one of its own instead of folding into this one (`enqueue`).
    claimed = runs.filter(state=ComputationRun.State.QUEUED).update(
        state=ComputationRun.State.RUNNING
    )
    if _tallied(deal.match_id):
        if claimed:
            runs.filter(state=ComputationRun.State.RUNNING).update(
                state=ComputationRun.State.DONE, finished_at=timezone.now()
            )
        return
    _settle_match_now(self, deal.match_id, deal.match)


def _tallied(match_id: int) -> bool:
    """Whether every final result of the match is counted by its deal's tally: another
    settlement of the match, or a standings run settling what the queue had not reached yet,
    did it. When results come faster than the workers settle them, the queue behind then
    drains at a few queries a task instead of a whole settlement each."""
    counted = DealTally.objects.filter(deal_id=OuterRef("deal_id"), report_id=OuterRef("pk"))
    return (
        not DealReport.objects.final()
        .filter(deal__match_id=match_id)
        .exclude(Exists(counted))
        .exists()
    )


def _settle_match_now(task, match_id: int, match=None) -> None:
    if match is None:
        match = Match.objects.select_related("round").filter(pk=match_id).first()
    if match is None:
        return
    event_id, round_number = match.round.event_id, match.round.number
    run_tracked(task, event_id, f"match:{match_id}", lambda: standings.settle_match(match_id))
    queue_standings_after_settlement(event_id, match.round_id, round_number)


def queue_standings_after_settlement(
    event_id: int, round_id: int, round_number: int, match_completed: bool | None = None
) -> None:
    """The standings after a match was settled (here, or in the request that made its deal
    final). While a round's results stream in, the standings are recomputed at most
    about every `standings_interval` seconds (a run per result would keep a worker busy for
    nothing); the result that completes the round's last match asks for them at once, so the
    final standings of a round do not wait. `match_completed` False: the match is still being
    played, so nothing the standings show has changed."""
    if match_completed is False:
        # The standings count completed matches only (matches/standings/service.py: their
        # rows and the tables still playing): a deal that leaves its match unfinished changes
        # nothing they show, and a run for it would rewrite the same snapshot.
        return
    round_done = not statements.round_unfinished(round_id)
    kwargs = {"event_id": event_id, "from_round": round_number}
    if not round_done and _standings_queued(event_id, round_number):
        return
    enqueue(
        update_standings,
        event_id,
        "standings",
        kwargs,
        countdown=0 if round_done else standings_interval(event_id),
        urgent=round_done,
    )


def _standings_queued(event_id: int, from_round: int) -> bool:
    """Whether a standings run from this round or an earlier one is queued and not started:
    it will read this result (committed before this look), so a request that is not urgent
    adds nothing. One plain read instead of `enqueue`'s locked one; when the run is claimed
    meanwhile, it claims before reading results and sees this one too."""
    row = statements.standings_run(event_id)  # compiled once: every confirmation asks
    if row is None or row[0] != ComputationRun.State.QUEUED or not isinstance(row[1], dict):
        return False
    return row[1].get("from_round", from_round + 1) <= from_round


def standings_interval(event_id: int) -> float:
    """Seconds between standings runs while a round is live: STANDINGS_MIN_INTERVAL, or longer
    when one run takes long. At a festival a run takes seconds; spacing runs by
    STANDINGS_DUTY_FACTOR times the last run's duration keeps the mid-round standings to a
    fixed share of a worker, leaving the rest to the settlements referees wait for."""

    # `seconds`, not started_at/finished_at: while a run is going, started_at is already the
    # new run's and finished_at still the old one's.
    last = (
        ComputationRun.objects.filter(event_id=event_id, task="update_standings", key="standings")
        .values_list("seconds", flat=True)
        .first()
    )
    return max(settings.STANDINGS_MIN_INTERVAL, settings.STANDINGS_DUTY_FACTOR * (last or 0))


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def settle_match(self, match_id: int) -> None:
    """Deal tallies, tributes owed, the match result (and extra deals) of one match."""
    _settle_match_now(self, match_id)


def _claim(event_id: int, from_round: int) -> int:
    """Take over a queued standings request: under the row lock, so a request that `enqueue`
    folds into it (a lower round) is either seen here or queued anew, never lost."""

    with transaction.atomic():
        row = (
            ComputationRun.objects.select_for_update()
            .filter(event_id=event_id, task="update_standings", key="standings")
            .first()
        )
        if row is None:
            return from_round
        if row.state == ComputationRun.State.QUEUED and isinstance(row.args, dict):
            from_round = min(from_round, row.args.get("from_round", from_round))
        row.state = ComputationRun.State.RUNNING
        row.save(update_fields=["state"])
    return from_round


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def update_standings(self, event_id: int, from_round: int = 1) -> None:
    """The standings snapshots of round `from_round` and every later round."""
    from_round = _claim(event_id, from_round)
    run_tracked(
        self,
        event_id,
        "standings",
        lambda: standings.update_standings(event_id, from_round),
        retry_kwargs={"event_id": event_id, "from_round": from_round},
    )


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def recompute_event(self, event_id: int) -> None:
    """Everything of an event from its final results alone; gives the incremental numbers."""
    run_tracked(self, event_id, "event", lambda: standings.recompute_event(event_id))


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def check_derived(self, event_id: int) -> None:
    """The organisers' check of the derived rows against a recompute (the chain page): match
    by match, its progress and answer on the event's `DerivedCheck` row. It writes nothing
    else; run again, it checks again from the start."""
    run_tracked(self, event_id, "derived", lambda: verify.run_check(event_id))


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def read_sheet_photo(self, photo_id: int) -> None:
    """Read a photographed score sheet into its rows (idempotent: a photo read stays read)."""
    photo = SheetPhoto.objects.filter(pk=photo_id).values("match__round__event_id").first()
    if photo is None:
        return
    event_id = photo["match__round__event_id"]
    run_tracked(
        self,
        event_id,
        f"sheet-photo:{photo_id}",
        lambda: sheets.read_photo(photo_id),
        {"photo_id": photo_id},
    )


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def read_stack_sheet(self, sheet_id: int) -> None:
    """Read a sheet of the desk's stack and give it to its match (idempotent: read stays read)."""
    sheet = StackSheet.objects.filter(pk=sheet_id).values("round__event_id").first()
    if sheet is None:
        return
    run_tracked(
        self,
        sheet["round__event_id"],
        f"stack-sheet:{sheet_id}",
        lambda: sheet_stack.read(sheet_id),
        {"sheet_id": sheet_id},
    )
