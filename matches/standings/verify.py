"""The check of every derived row against the results (`manage.py verify_results`, the
organiser's chain page through a task): each row the computations write is recomputed inside
transactions that are rolled back, and any stored row that differs is named. The chain itself
(`store/chain.py`) proves the results were not changed; this proves nothing was derived from
anything else.

The recompute runs match by match, each in a transaction of its own that is rolled back (a
match's rows are locked for one settlement, not for the whole check, and the check can say how
far it is), then once more for the standings, re-settling only the matches found to differ: the
rows it compares are those one full recompute would write.

Only a computation that is really under way excuses a row: a match whose tallies are behind its
final results is excused while a run of its settlement (or of the event's recompute) is
unfinished, and the standings from a round on while a standings run (or such a settlement) is.
An excused row is still reported, as pending: no UPDATE of a derived row makes the check pass.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from matches.models import (
    ComputationRun,
    Deal,
    DealTally,
    DerivedCheck,
    Event,
    Match,
    Round,
    StandingsSnapshot,
)
from matches.signals import request_derived_check
from matches.standings import service as standings
from matches.store import chain
from matches.store.chain import canonical, plain

KINDS = ("match", "tally", "deal", "standings")


def derived_rows(event_id: int, match_id: int | None = None) -> dict[str, dict[str, str]]:
    """Every row the computations write from the results, by a name that says which row:
    match results, deal tallies, what each deal owes the next, standings tables. `match_id`:
    that match's rows only (no standings)."""
    skip = {"id", "computed_at", "created_at", "updated_at", "completed_at"}

    def rows(queryset, name):
        return {
            name(row): canonical({k: plain(v) for k, v in row.items() if k not in skip})
            for row in queryset.values()
        }

    if match_id is not None:
        matches = Match.objects.filter(pk=match_id)
        tallies = DealTally.objects.filter(match_id=match_id)
        deals = Deal.objects.filter(match_id=match_id)
        snapshots = StandingsSnapshot.objects.none()
    else:
        matches = Match.objects.filter(round__event_id=event_id)
        tallies = DealTally.objects.filter(match__round__event_id=event_id)
        deals = Deal.objects.filter(match__round__event_id=event_id)
        snapshots = StandingsSnapshot.objects.filter(event_id=event_id)
    return {
        "match": rows(matches, lambda r: f"match #{r['id']}"),
        "tally": rows(tallies, lambda r: f"tally of deal #{r['deal_id']}"),
        # What a deal owes the next (its tributes), once computed.
        "deal": rows(deals.filter(tributes_owed__isnull=False), lambda r: f"deal #{r['id']}"),
        "standings": rows(
            snapshots,
            lambda r: f"standings of round #{r['round_id']} ({r['kind']}, {r['scope']})",
        ),
    }


class _Rollback(Exception):
    pass


def _rolled_back(compute: Callable[[], dict]) -> dict:
    """What `compute` reads after writing, with everything it wrote undone."""
    seen: dict = {}
    try:
        with transaction.atomic():
            seen = compute()
            raise _Rollback
    except _Rollback:
        pass
    return seen


def _differ(before: dict, after: dict) -> list[str]:
    """The names of the rows stored otherwise than a recompute writes them: changed, or
    missing (a deleted tally or standings table), or there when a recompute writes none. What
    a deal owes the next is compared only once stored: the application computes it with the
    deal's settlement, and an unplayed match's deals have none yet."""
    return [
        name
        for kind in KINDS
        for name in sorted(set(before[kind]) | (set() if kind == "deal" else set(after[kind])))
        if before[kind].get(name) != after[kind].get(name)
    ]


@dataclass
class Differences:
    """A check's answer: the rows that differ from a recompute (`rows`), and those of them
    excused because their computation is under way (`pending`: not in `rows`)."""

    rows: list[str] = field(default_factory=list)
    pending: list[str] = field(default_factory=list)
    matches: int = 0  # matches recomputed


def _unfinished(event: Event) -> tuple[set[int], int | None, bool]:
    """The computations under way: the matches whose settlement has an unfinished run, the
    first round a standings run still has to write (None: none), whether the event's whole
    recompute has one."""
    runs = ComputationRun.objects.filter(event=event, state__in=ComputationRun.PENDING)
    matches: set[int] = set()
    from_round = None
    whole = False
    for task, key, args in runs.values_list("task", "key", "args"):
        if key.startswith("match:") and key[6:].isdigit():
            matches.add(int(key[6:]))
        elif task == "update_standings":
            asked = args.get("from_round", 1) if isinstance(args, dict) else 1
            from_round = asked if from_round is None else min(from_round, asked)
        elif task == "recompute_event":
            whole = True
    return matches, from_round, whole


def _excused(event: Event, differing: list[str]) -> set[str]:
    """Of the differing rows, those a computation under way will write: the rows of a match
    behind its final results while its settlement (or the event's recompute) is unfinished,
    and the standings of the rounds such a settlement or an unfinished standings run writes."""
    matches, standings_from, whole = _unfinished(event)
    stale = set(standings.stale_matches(event))
    behind = stale if whole else stale & matches
    rounds = dict(Round.objects.filter(event=event).values_list("pk", "number"))
    number_of = dict(Match.objects.filter(pk__in=behind).values_list("pk", "round__number"))
    firsts = [n for n in number_of.values()] + ([standings_from] if standings_from else [])
    first = 1 if whole else (min(firsts) if firsts else None)
    excused = {f"match #{pk}" for pk in behind}
    for deal_id in Deal.objects.filter(match__in=behind).values_list("pk", flat=True):
        excused |= {f"deal #{deal_id}", f"tally of deal #{deal_id}"}
    if first is not None:
        for name in differing:
            if name.startswith("standings of round #"):
                round_id = int(name.split("#")[1].split(" ")[0])
                if rounds.get(round_id, 0) >= first:
                    excused.add(name)
    return excused & set(differing)


def differences(event: Event, progress: Callable[[int, int], None] | None = None) -> Differences:
    """Every derived row of the event recomputed from the results (nothing is kept) and the
    stored rows that differ, named; `progress(done, total)` after each match (the standings
    count as one step more)."""
    match_ids = list(
        Match.objects.filter(round__event=event, table__isnull=False)
        .order_by("round__number", "pk")
        .values_list("pk", flat=True)
    )
    total = len(match_ids) + 1
    settled_otherwise = []
    for done, match_id in enumerate(match_ids, start=1):
        before = derived_rows(event.pk, match_id)

        def settle(match_id=match_id):
            standings.settle_match(match_id)
            return derived_rows(event.pk, match_id)

        if _differ(before, _rolled_back(settle)):
            settled_otherwise.append(match_id)
        if progress is not None:
            progress(done, total)

    def everything():
        for match_id in settled_otherwise:
            standings.settle_match(match_id)
        standings.update_standings(event.pk, 1)
        return derived_rows(event.pk)

    before = derived_rows(event.pk)
    differing = _differ(before, _rolled_back(everything))
    if progress is not None:
        progress(total, total)
    excused = _excused(event, differing)
    return Differences(
        rows=[n for n in differing if n not in excused],
        pending=[n for n in differing if n in excused],
        matches=len(match_ids),
    )


# --- the organisers' check, run by a task (the chain page) -----------------------------------

#: A check queued or running this long is taken as lost (its worker died): asked again, it runs.
STUCK = timedelta(minutes=30)
#: Progress is written at most this often (seconds): a festival has thousands of matches.
PROGRESS_EVERY = 0.5


def request_check(event: Event, user) -> DerivedCheck:
    """Ask for the check of the event's derived rows (the task `check_derived` runs it). One at
    a time: while one is queued or running, asking again returns it."""
    with transaction.atomic():
        check, _ = DerivedCheck.objects.select_for_update().get_or_create(event=event)
        now = timezone.now()
        under_way = check.state in DerivedCheck.RUNNING_STATES
        if under_way and check.requested_at and now - check.requested_at < STUCK:
            return check
        check.state = DerivedCheck.State.QUEUED
        check.requested_by = user
        check.requested_at = now
        check.started_at = check.finished_at = None
        check.done, check.total = 0, 0
        check.save()
        request_derived_check(event.pk)
    return check


def run_check(event_id: int) -> None:
    """The check itself (in the task): the chain first (the derived rows are checked against a
    chain that holds), then every derived row, its progress written as it goes."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    check, _ = DerivedCheck.objects.get_or_create(event=event)
    rows = DerivedCheck.objects.filter(pk=check.pk)
    rows.update(state=DerivedCheck.State.RUNNING, started_at=timezone.now(), done=0, total=0)
    verdict = chain.verify(event)
    if not verdict.ok:
        rows.update(
            state=DerivedCheck.State.FAILED,
            finished_at=timezone.now(),
            digest=verdict.digest,
            rows=[],
            pending=[],
            error=verdict.problem[:2000],
        )
        return
    written = [0.0]

    def progress(done: int, total: int) -> None:
        if done == total or time.monotonic() - written[0] >= PROGRESS_EVERY:
            rows.update(done=done, total=total)
            written[0] = time.monotonic()

    found = differences(event, progress)
    rows.update(
        state=DerivedCheck.State.DONE,
        finished_at=timezone.now(),
        digest=verdict.digest,
        rows=found.rows,
        pending=found.pending,
        error="",
    )
