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

from matches.games.errors import BadDocument, RuleViolation
from matches.games.gouji.engine import sequence
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.settle import Outcome, parse_outcome, tribute_ledger, union_scores
from matches.games.gouji.engine.verdict import (
    GoujiDealVerdict,
    ReplayVerdict,
    Tribute,
    ledger_to_json,
)
from matches.games.gouji.ranking import SeatRecord, rank_players
from matches.kernel.match_result import final_reports, write_match_result
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


def read_outcome(report) -> Outcome:
    """A final report's outcome. A play log's report stores the summary its replay gave."""
    doc = dict(report.summary or {})
    if not doc:
        stored = report.verdict or {}
        replay = (
            GoujiDealVerdict.from_json(stored).replay
            if "replay" in stored
            else ReplayVerdict.from_json(stored)
        )
        doc = sequence.outcome_from_replay(report.play_log or {}, replay or ReplayVerdict(False))
    doc.pop("rules", None)  # the event's rule set judges, whatever the document says
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


def settle_match(match: Match) -> None:
    """Every deal's tally, the tributes each deal owes from the one before, the match result."""
    rules = event_rules(match.round.event)
    deals = list(match.deals.order_by("number"))
    reports = final_reports(deals)
    tallies = {t.deal_id: t for t in DealTally.objects.filter(match=match)}
    strung: dict[int, str] = {}
    previous_ledger: list | None = []  # the first deal at a fresh table owes nothing
    for deal in deals:
        owed = previous_ledger
        if deal.tributes_owed != owed:
            Deal.objects.filter(pk=deal.pk).update(tributes_owed=owed)
            deal.tributes_owed = owed
        report = reports.get(deal.pk)
        outcome = _readable_outcome(deal, report)
        if outcome is None or report is None:
            if deal.pk in tallies:
                tallies[deal.pk].delete()
            previous_ledger = None  # unknown until this deal is final
            continue
        union = outcome.string_three_union
        streak = sequence.streak_before(strung, deal.number, union)
        checked_with = (report.summary or {}).get("string_three_streak", streak)
        if checked_with != streak and not deal.needs_recheck:
            # Reported while the deal before awaited its captains (issue 28), the report was
            # settled with the streak (R40) the final deals gave then: the organiser rechecks
            # it (results.recheck_deal), as after a correction of an earlier deal.
            Deal.objects.filter(pk=deal.pk).update(needs_recheck=True)
            deal.needs_recheck = True
        outcome = dataclasses.replace(outcome, string_three_streak=streak)
        scores = union_scores(outcome, rules)
        ledger = ledger_to_json(ledger_of(report, outcome, rules))
        strung[deal.number] = union or ""
        values = {
            "match": match,
            "report_id": report.pk,
            "score_a": scores.a,
            "score_b": scores.b,
            "finish": list(outcome.finish),
            "points": sorted(outcome.points),
            "burners": [
                burner for burner, _b, result in outcome.burns if result in ("success", "counter")
            ],
            "strung": union or "",
            "streak": streak,
            "tributes": ledger,
        }
        tally = tallies.get(deal.pk)
        if tally is None:
            DealTally.objects.create(deal=deal, **values)
        elif any(getattr(tally, k) != v for k, v in values.items() if k != "match"):
            for k, v in values.items():
                setattr(tally, k, v)
            tally.save()
        previous_ledger = ledger
    write_match_result(match, deals)


def _readable_outcome(deal, report) -> Outcome | None:
    if report is None:
        return None
    try:
        return read_outcome(report)
    except (BadDocument, RuleViolation) as error:
        # A final report the engine cannot read is a data error, not a reason to stop the
        # whole match: it counts as missing and the log says why.
        log.error("deal %s: final report %s unreadable: %s", deal.pk, report.pk, error)
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
    for table_id, finish, points, burners in DealTally.objects.filter(
        match__round__in=rounds
    ).values_list("match__table_id", "finish", "points", "burners"):
        for place, seat_number in enumerate(finish):
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
        for t in sorted(tallies.get(match.pk, []), key=lambda t: t.deal.number):
            rows.append(
                [
                    match.round.number,
                    table,
                    t.deal.number,
                    match.union_a.name,
                    b_name,
                    t.score_a,
                    t.score_b,
                    " ".join(map(str, t.finish)),
                    " ".join(map(str, t.points)),
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
