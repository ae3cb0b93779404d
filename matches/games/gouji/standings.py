"""Gou Ji settlement and player standings (the Gou Ji half of `matches.standings.service`).

A deal's tally: the two unions' scores by the event's rule set, the R40 streak from the deals
before it, and the tribute ledger it leaves for the next deal (R35-R43); a player's standing:
place points, points opened and burns over their deals.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Sequence

from django.utils.translation import gettext as _

from matches.games.gouji.engine import sequence
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.settle import Outcome, parse_outcome, tribute_ledger, union_scores
from matches.games.gouji.engine.verdict import (
    GoujiDealVerdict,
    GoujiTally,
    ReplayVerdict,
    Tribute,
    ledger_to_json,
)
from matches.games.gouji.ranking import SeatRecord, rank_players
from matches.kernel.engine_errors import BadDocument, RuleViolation
from matches.kernel.engine_types import Tally, places_from_json
from matches.kernel.match_result import final_reports, write_match_result
from matches.kernel.tallies import tally_values, write_tallies
from matches.models import (
    Deal,
    DealTally,
    Match,
    Registration,
    StandingsSnapshot,
    TableSeat,
    UnionMember,
)

log = logging.getLogger(__name__)


def event_rules(event) -> RuleSet:
    return event.game_rules.rules


def read_outcome(report, rules: RuleSet) -> Outcome:
    """A final report's outcome, read under the event's rule set (its seats: six or eight). A
    play log's report stores the summary its replay gave."""
    doc = dict(report.summary or {})
    if not doc:
        stored = report.verdict or {}
        replay = (
            GoujiDealVerdict.from_json(stored).replay
            if "replay" in stored
            else ReplayVerdict.from_json(stored)
        )
        doc = sequence.outcome_from_replay(report.play_log or {}, replay or ReplayVerdict(False))
    doc["rules"] = rules.to_json()  # the event's rule set judges, whatever the document says
    doc["string_three_streak"] = 0
    outcome, _rules = parse_outcome(doc)
    return outcome


def ledger_of(report, outcome: Outcome, rules: RuleSet) -> tuple[Tribute, ...]:
    """The tributes a deal leaves for the next one: from a play log the replay's ledger (only
    the replay knows D12's late points), from a summary the engine's settlement."""
    stored = (report.verdict or {}).get("replay") if report.play_log else None
    if isinstance(stored, dict) and isinstance(stored.get("tributes"), list):
        return sequence.ledger_after_replay(
            ReplayVerdict.from_json(stored),
            rules,
            outcome.string_three_union,
            outcome.string_three_streak,
        )
    return tribute_ledger(outcome, rules)


def tally_deal(
    report, before: Tally[GoujiTally] | None, rules: RuleSet
) -> Tally[GoujiTally] | None:
    """A final report's tally by the event's rule set: the union scores, the R40 streak (from
    the tally of the deal just before, `before`), the ledger it leaves; None when the report
    cannot be read."""
    outcome = _readable_outcome(report, rules)
    if outcome is None:
        return None
    union = outcome.string_three_union
    streak = 0
    if union and before is not None and before.detail.strung == union:
        streak = before.detail.streak + 1  # R40: the deals in a row just before this one
    outcome = dataclasses.replace(outcome, string_three_streak=streak)
    scores = union_scores(outcome, rules)
    return Tally(
        places=tuple((seat,) for seat in outcome.finish),
        score_a=scores.a,
        score_b=scores.b,
        detail=GoujiTally(
            points=tuple(sorted(outcome.points)),
            burners=tuple(
                burner for burner, _b, result in outcome.burns if result in ("success", "counter")
            ),
            strung=union or None,
            streak=streak,
            tributes=ledger_of(report, outcome, rules),
        ),
    )


def read_tally(row) -> Tally[GoujiTally]:
    """A stored `DealTally` with its Gou Ji document."""
    return Tally(
        places=places_from_json(row.places),
        detail=GoujiTally.from_json(row.detail),
        score_a=row.score_a,
        score_b=row.score_b,
    )


def settle_match(match: Match) -> None:
    """Every deal's tally, the tributes each deal owes from the one before, the match result."""
    rules = event_rules(match.round.event)
    deals = list(match.deals.order_by("number"))
    tallies = write_tallies(match, deals, lambda report, before: tally_deal(report, before, rules))
    _after_tallies(match, deals, tallies)


def settle_new_deal(match: Match, deals: list[Deal], reports: dict, rows: dict, deal: Deal) -> bool:
    """The deal just final settled by itself, in the confirmation's transaction: its
    tally from the stored tally of the deal before it (the adapter's `settle_new_deal` says
    when this is called), then what `settle_match` writes after the tallies, from the same
    numbers. False when its report cannot be read (the whole settlement logs why)."""
    rules = event_rules(match.round.event)
    by_number = {d.number: d for d in deals}
    tallies = {deal_id: read_tally(row) for deal_id, row in rows.items()}
    previous = by_number.get(deal.number - 1)
    report = reports[deal.pk]
    tally = tally_deal(report, tallies[previous.pk] if previous is not None else None, rules)
    if tally is None:
        return False
    # `bulk_create`: no post_save, whose receivers (the public version stamps, the live pages)
    # the final report's own save has just run for the same event and match.
    row = DealTally(deal=deal, match=match, **tally_values(report, tally))
    DealTally.objects.bulk_create([row])
    tallies[deal.pk] = tally
    _after_tallies(match, deals, tallies, reports, {**rows, deal.pk: row})
    return True


def _after_tallies(match: Match, deals: list[Deal], tallies: dict, reports=None, rows=None) -> None:
    """What each deal owes from the one before, the R40 recheck flags and the match result,
    from the deals' tallies (deal id -> tally; the deals without one have no final result).
    `reports` (deal id -> final report) and `rows` (deal id -> `DealTally`): when the caller
    has them, not read again."""
    owed_after = {
        deal_id: ledger_to_json(tally.detail.tributes) for deal_id, tally in tallies.items()
    }
    previous: list | None = []  # the first deal at a fresh table owes nothing
    for deal in deals:
        if deal.tributes_owed != previous:
            Deal.objects.filter(pk=deal.pk).update(tributes_owed=previous)
            deal.tributes_owed = previous
        previous = owed_after.get(deal.pk)  # None: unknown until this deal is final
    _flag_streaks_to_recheck(deals, tallies, reports)
    write_match_result(match, deals, owed_after, tallied=rows)


def _flag_streaks_to_recheck(deals, tallies, reports=None) -> None:
    """A deal reported while the deal before awaited its captains was checked with
    the R40 streak the final deals gave then; when the settled streak differs, the organiser
    rechecks it (results.recheck_deal), as after a correction of an earlier deal. `reports`:
    deal id -> final report, when the caller has them."""
    if reports is None:
        reports = final_reports(deals)
    for deal in deals:
        tally, report = tallies.get(deal.pk), reports.get(deal.pk)
        if tally is None or report is None or deal.needs_recheck:
            continue
        checked_with = (report.summary or {}).get("string_three_streak", tally.detail.streak)
        if checked_with != tally.detail.streak:
            Deal.objects.filter(pk=deal.pk).update(needs_recheck=True)
            deal.needs_recheck = True


def _readable_outcome(report, rules: RuleSet) -> Outcome | None:
    try:
        return read_outcome(report, rules)
    except (BadDocument, RuleViolation) as error:
        # A final report the engine cannot read is a data error, not a reason to stop the
        # whole match: it counts as missing and the log says why.
        log.error("deal %s: final report %s unreadable: %s", report.deal_id, report.pk, error)
        return None


def player_rows(event, rounds: list, carried: Sequence[dict] = ()) -> list[dict]:
    """The player standings over `rounds`, added to `carried` (the rows of the rounds before
    them, see `rank_players`)."""
    rules = event_rules(event)
    # Plain values, not model instances: this runs after every result on every player.
    seats = {}
    players = {}
    if event.is_team:
        for player_id, name, union in UnionMember.objects.filter(
            event=event, round__isnull=True
        ).values_list("player_id", "player__name", "union__name"):
            players[player_id] = (name, union)
    else:
        for player_id, name in Registration.objects.filter(
            event=event, player__isnull=False
        ).values_list("player_id", "player__name"):
            players[player_id] = (name, "")
    for table_id, seat, player_id, name, union in TableSeat.objects.filter(
        round__in=rounds
    ).values_list("table_id", "seat", "player_id", "player__name", "union__name"):
        seats[(table_id, seat)] = player_id
        players.setdefault(player_id, (name, union if event.is_team else ""))
    records = []
    # The two fields of the deals' `GoujiTally` documents the standings add (`points`,
    # `burners`), picked out by the database: this runs after every result, over every deal of
    # a round (a festival's has 7,000), and reading the whole documents (their ledgers too)
    # made it twice as slow.
    for table_id, places, points, burners in DealTally.objects.filter(
        match__round__in=rounds
    ).values_list("match__table_id", "places", "detail__points", "detail__burners"):
        points, burners = points or [], burners or []
        for place, (seat_number,) in enumerate(places):
            seated = seats.get((table_id, seat_number))
            if seated is None:
                continue
            records.append(
                SeatRecord(
                    player=seated,
                    table=table_id,
                    place=place,
                    place_points=rules.place_points[place],
                    opened_point=seat_number in points,
                    burns=burners.count(seat_number),
                )
            )
    return [line.as_dict() for line in rank_players(players, records, carried)]


def standings_rows(event, rounds: list, scope: str) -> list[dict]:
    """The player rows after the last of `rounds`: the scope's previous snapshot plus the last
    round, the same numbers as reading every round again (update_standings writes rounds in
    order, and a change to an earlier round rewrites every later one)."""
    previous = (
        StandingsSnapshot.objects.filter(
            round=rounds[-2], kind=StandingsSnapshot.Kind.PLAYERS, scope=scope
        )
        .values_list("rows", flat=True)
        .first()
        if len(rounds) > 1
        else None
    )
    if previous is None:
        return player_rows(event, rounds)
    return player_rows(event, rounds[-1:], carried=previous)


def results_table(event, matches, tallies: dict) -> tuple[list[str], list[list]]:
    """One line per deal with a final result, then the match total, round by round."""
    header = [
        _("轮次"),
        _("桌号"),
        _("局"),
        _("联邦A"),
        _("联邦B"),
        _("A 得分"),
        _("B 得分"),
        _("名次（座位）"),
        _("开点（座位）"),
        _("场分 A"),
        _("场分 B"),
    ]
    rows = []
    for match in matches:
        table = match.table.number if match.table_id else ""
        b_name = match.union_b.name if match.union_b_id else _("轮空")
        for row in sorted(tallies.get(match.pk, []), key=lambda t: t.deal.number):
            t = read_tally(row)
            rows.append(
                [
                    match.round.number,
                    table,
                    row.deal.number,
                    match.union_a.name,
                    b_name,
                    t.score_a,
                    t.score_b,
                    " ".join(map(str, t.seats)),
                    " ".join(map(str, t.detail.points)),
                    "",
                    "",
                ]
            )
        rows.append(
            [
                match.round.number,
                table,
                _("合计"),
                match.union_a.name,
                b_name,
                match.score_a,
                match.score_b,
                "",
                "",
                match.points_a,
                match.points_b,
            ]
        )
    return header, rows
