"""From final deal results to scores, tribute ledgers, match results and standings.

Everything here is a pure function of the final results (`DealReport.objects.final()`) and the
event's settings: each step recomputes its whole scope from them and writes the same rows every
time, so a step may run twice, late or out of order and the data ends up the same. The Celery
tasks in `matches.tasks` call these functions:

- `settle_match`: every deal of one match (its union scores by the event's rule set, the R40
  streak, the ledger it leaves), each deal's `tributes_owed` from the deal before it, the match
  result, and the extra deals of a tied knockout match;
- `update_standings`: the standings snapshots of a round and of every later round;
- `recompute_event`: all of it.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import Count, F, Q

from matches.kernel.games.registry import adapter_for
from matches.kernel.match_result import ensure_regular_deals, store_match_result
from matches.models import (
    Deal,
    DealReport,
    DealTally,
    Event,
    Match,
    MatchSide,
    Registration,
    Round,
    StandingsSnapshot,
)
from matches.models.round import SIDE_A, SIDE_B
from matches.signals import announce_standings_refreshed
from matches.standings.ranking import MatchRecord, rank_unions
from matches.store.statements import deals_with_finals, match_unless_locked

log = logging.getLogger(__name__)


# --- one match ----------------------------------------------------------------------------------


@transaction.atomic
def settle_match(match_id: int) -> Match | None:
    """Recompute every deal tally of a match, what each deal owes the next, and the result (by
    the match's game)."""
    # Lock the match row only (Match's default ordering joins the nullable table: no FOR UPDATE
    # on an outer join in PostgreSQL). FOR NO KEY UPDATE: a submission's foreign-key check on
    # the match (KEY SHARE) must not wait for this lock while this waits for its deal row
    # (a deadlock seen at festival scale).
    match = (
        Match.objects.select_for_update(no_key=True, of=("self",))
        .select_related("round__event", "round__stage")
        .filter(pk=match_id)
        .order_by("pk")
        .first()
    )
    if match is None or match.is_bye:
        return match
    if match.forfeit:
        # A forfeit's result is the event's, whatever deals exist (there are none normally).
        _store_result(match, forfeit_result(match.round.event, match.forfeit))
        return match
    ensure_regular_deals(match)
    adapter_for(match.round.event).settle_match(match)
    return match


def settle_new_result(deal: Deal, report: DealReport) -> Match | None:
    """Settle the deal whose `report` has just become final, in the transaction that
    made it final, as `settle_match` would (the same rows), without a task: its tally, what the
    next deal owes, the match's result. Only when that is a few rows: the match's earlier deals
    are settled already, each from its current final result, and no later deal is; the game
    settles deal by deal (its adapter's `settle_new_deal`); the match row and its deal rows are
    free (a settlement of the match in a worker holds the match, a new report or a correction
    its deal: never waited for, so no lock cycle with them; the rows then stay locked to the
    commit and only rows held are written). Returns the match (read afresh, its
    result as written) when settled; None when not: nothing is written and the caller queues
    the settlement task, the way every result went before (corrections always do)."""
    match, round_ = deal.match, deal.match.round
    adapter = adapter_for(round_.event)
    if not adapter.settles_deal_by_deal or deal.is_extra:
        return None
    locked = match_unless_locked(match.pk)
    if locked is None:
        return None
    if locked.forfeit or locked.stopped_after is not None or locked.table_id is None:
        return None
    locked._state.fields_cache["round"] = round_
    found = deals_with_finals(match.pk)  # every deal with its final report and its tally
    deals = [d for d, _r, _t in found]
    if [d.number for d in deals] != list(range(1, round_.event.deals_per_match + 1)):
        # A deal row missing, held by another writer (left out, not waited for: a new report
        # or a correction holds its deal and waits for the report this transaction holds), or
        # extra deals (a tied knockout match).
        return None
    reports = {d.pk: r for d, r, _t in found if r is not None}
    rows = {d.pk: t for d, _r, t in found if t is not None}
    deal = next(d for d in deals if d.pk == deal.pk)
    if reports.get(deal.pk) is None or reports[deal.pk].pk != report.pk:
        return None
    before = {d.pk for d in deals if d.number < deal.number}
    if set(rows) != before or set(reports) != before | {deal.pk}:
        return None  # an earlier deal unsettled or without a final result, a later one settled
    if any(rows[pk].report_id != reports[pk].pk for pk in before):
        return None  # a correction not settled yet
    if not adapter.settle_new_deal(locked, deals, reports, rows, deal):
        return None
    return locked


# --- forfeits and byes -------------------------------------------------------------------------


def forfeit_result(event: Event, forfeit: str) -> dict:
    """The result fields of a forfeited match: the union present wins with the event's forfeit
    score; a double no-show is a loss for both, with no score."""
    if forfeit == "both":
        return {
            "score_a": 0,
            "score_b": 0,
            "points_a": event.points_loss,
            "points_b": event.points_loss,
        }
    won, lost = (event.forfeit_score, 0), (event.points_win, event.points_loss)
    if forfeit == "A":
        return {"score_a": won[1], "score_b": won[0], "points_a": lost[1], "points_b": lost[0]}
    return {"score_a": won[0], "score_b": won[1], "points_a": lost[0], "points_b": lost[1]}


def _store_result(match: Match, values: dict) -> None:
    store_match_result(match, values, complete=True)


# --- standings ----------------------------------------------------------------------------------


def stale_matches(event: Event, from_round: int = 1) -> list[int]:
    """Matches (of round `from_round` on) whose tallies do not match the current final reports.

    A change to an earlier round asks for the standings from that round, so the later rounds
    are all that can be stale here; not scanning the others saves reading every result of a
    festival's finished rounds on each run."""
    final = dict(
        DealReport.objects.final()
        .filter(deal__match__round__event=event, deal__match__round__number__gte=from_round)
        .values_list("deal_id", "id")
    )
    tallied = dict(
        DealTally.objects.filter(
            match__round__event=event, match__round__number__gte=from_round
        ).values_list("deal_id", "report_id")
    )
    stale_deals = {d for d in set(final) | set(tallied) if final.get(d) != tallied.get(d)}
    return sorted(set(Deal.objects.filter(pk__in=stale_deals).values_list("match_id", flat=True)))


def _scoped_rounds(round_: Round, scope: str) -> list[Round]:
    rounds = Round.objects.filter(
        event=round_.event,
        number__lte=round_.number,
        state__in=[Round.State.PUBLISHED, Round.State.CLOSED],
    )
    if scope == StandingsSnapshot.Scope.STAGE:
        rounds = rounds.filter(stage=round_.stage)
    return list(rounds)


def union_rows(event: Event, rounds: list[Round], with_reasons: bool = False) -> list[dict]:
    """The union standings over `rounds`; `with_reasons` adds each row's `decided_by` (the
    tie-break that set it below the row above) and `compared` (the values compared)."""
    entrants = {
        union_id: (seed, name)
        for union_id, seed, name in Registration.objects.filter(
            event=event, union__isnull=False
        ).values_list("union_id", "seed", "union__name")
    }
    union_at = {
        (match_id, position): union_id
        for match_id, position, union_id in MatchSide.objects.filter(
            round__in=rounds, match__completed_at__isnull=False, union__isnull=False
        ).values_list("match_id", "position", "union_id")
    }
    matches = list(
        Match.objects.filter(round__in=rounds, completed_at__isnull=False).values_list(
            "pk",
            "round__number",
            "table_id",
            "points_a",
            "points_b",
            "score_a",
            "score_b",
            "forfeit",
        )
    )
    # Counted by the database, one row per match: a festival's round 9 has 60,000 tallies. The
    # deals a side won by its score, and those its game counts as its strings of three.
    strings_of_three = adapter_for(event).strings_of_three_filters()
    never = Q(pk__isnull=True)  # no deal
    string_a, string_b = strings_of_three if strings_of_three is not None else (never, never)
    strings, wins = {}, {}
    for match_id, strings_a, strings_b, wins_a, wins_b in (
        DealTally.objects.filter(match__round__in=rounds, match__completed_at__isnull=False)
        .order_by()
        .values("match_id")
        .annotate(
            strings_a=Count("id", filter=string_a),
            strings_b=Count("id", filter=string_b),
            wins_a=Count("id", filter=Q(score_a__gt=F("score_b"))),
            wins_b=Count("id", filter=Q(score_b__gt=F("score_a"))),
        )
        .values_list("match_id", "strings_a", "strings_b", "wins_a", "wins_b")
    ):
        strings[match_id] = {"A": strings_a, "B": strings_b}
        wins[match_id] = {"A": wins_a, "B": wins_b}
    records = []
    for pk, number, table_id, points_a, points_b, score_a, score_b, forfeit in matches:
        if table_id is None:
            records.append(
                MatchRecord(
                    round=number,
                    union_a=union_at[(pk, MatchSide.BYE)],
                    union_b=None,
                    points_a=points_a or 0,
                    score_a=score_a or 0,
                )
            )
            continue
        s, w = strings.get(pk, {"A": 0, "B": 0}), wins.get(pk, {"A": 0, "B": 0})
        records.append(
            MatchRecord(
                round=number,
                union_a=union_at[(pk, SIDE_A)],
                union_b=union_at[(pk, SIDE_B)],
                points_a=points_a or 0,
                points_b=points_b or 0,
                score_a=score_a or 0,
                score_b=score_b or 0,
                deal_wins_a=w["A"],
                deal_wins_b=w["B"],
                strings_a=s["A"],
                strings_b=s["B"],
                forfeit=forfeit,
            )
        )
    lines = rank_unions(entrants, records, list(event.tie_breaks or []))
    if with_reasons:
        return [
            {**line.as_dict(), "decided_by": line.decided_by, "compared": line.compared}
            for line in lines
        ]
    return [line.as_dict() for line in lines]


@transaction.atomic
def snapshot_round(round_: Round) -> None:
    """Write the standings as they stand after `round_` (union and player; event and stage)."""
    round_ = (
        Round.objects.select_for_update(no_key=True, of=("self",))
        .select_related("event", "stage")
        .order_by("pk")
        .get(pk=round_.pk)
    )
    event = round_.event
    if round_.state == Round.State.DRAFT:
        StandingsSnapshot.objects.filter(round=round_).delete()
        return
    adapter = adapter_for(event)
    unfinished = round_.matches.unfinished().count()
    tables = round_.matches.played().count()
    computed = {}  # one stage only: the stage's rounds are the event's, compute once
    for scope in StandingsSnapshot.Scope.values:
        rounds = _scoped_rounds(round_, scope)
        key = tuple(sorted(r.pk for r in rounds))
        if key not in computed:
            kinds = {StandingsSnapshot.Kind.PLAYERS: adapter.standings_rows(event, rounds, scope)}
            if event.is_team:
                kinds[StandingsSnapshot.Kind.UNIONS] = union_rows(event, rounds)
            computed[key] = kinds
        kinds = computed[key]
        for kind, rows in kinds.items():
            snapshot = StandingsSnapshot.objects.filter(
                round=round_, kind=kind, scope=scope
            ).first()
            if snapshot is None:
                StandingsSnapshot.objects.create(
                    event=event,
                    round=round_,
                    stage=round_.stage,
                    kind=kind,
                    scope=scope,
                    rows=rows,
                    unfinished=unfinished,
                    tables=tables,
                )
            elif (
                snapshot.rows != rows
                or snapshot.unfinished != unfinished
                or snapshot.tables != tables
            ):
                # A table becoming final moves `unfinished` even when no row changes: the save
                # moves the standings stamp (receivers: forget STANDINGS) and the files are
                # rewritten, so "N of M tables final" follows every result.
                snapshot.rows, snapshot.unfinished, snapshot.tables = rows, unfinished, tables
                snapshot.save(update_fields=["rows", "unfinished", "tables", "computed_at"])


def update_standings(event_id: int, from_round: int = 1) -> int:
    """Snapshots of round `from_round` and every later round; first bring stale matches up to date.

    Settling stale matches here makes the result independent of the order the tasks ran in.
    Returns how many rounds were written.
    """
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return 0
    for match_id in stale_matches(event, from_round):
        settle_match(match_id)
    rounds = list(event.rounds.filter(number__gte=from_round).order_by("number"))
    for round_ in rounds:
        snapshot_round(round_)
    announce_standings_refreshed(event_id, from_round)
    return len(rounds)


def recompute_event(event_id: int) -> None:
    """Everything from the final results alone: tallies, ledgers, match results, snapshots."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    for match_id in Match.objects.filter(round__event=event, table__isnull=False).values_list(
        "pk", flat=True
    ):
        settle_match(match_id)
    # Tallies of deals that no longer exist are removed with them (cascade); nothing else is kept.
    update_standings(event_id, 1)
