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

import dataclasses
import logging

from django.db import transaction
from django.db.models import Count, F, Q

from matches.models import (
    Deal,
    DealTally,
    Event,
    Match,
    Registration,
    Round,
    Stage,
    StandingsSnapshot,
    TableSeat,
    UnionMember,
)
from matches.games.errors import BadDocument, RuleViolation
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.settle import (
    OUTCOME_FORMAT,
    Outcome,
    parse_outcome,
    tribute_ledger,
    union_scores,
)
from matches.standings.ranking import MatchRecord, SeatRecord, rank_players, rank_unions

log = logging.getLogger(__name__)


def event_rules(event: Event) -> RuleSet:
    return RuleSet.from_json(event.rules)


def final_reports(deals) -> dict:
    """deal id → its final report, for the given deals."""
    from matches.models import DealReport

    return {r.deal_id: r for r in DealReport.objects.final().filter(deal__in=deals)}


# --- one deal -----------------------------------------------------------------------------------

def outcome_document(report) -> dict:
    """A report's outcome as a gouji-outcome/1 document.

    A referee's summary is used as it is. A digital table's play log has no summary of its own:
    the replay's verdict gives finish, points, burns and suffocations, the log itself the
    declarations and revolutions.
    """
    if report.summary:
        return dict(report.summary)
    verdict = report.verdict.get("replay", report.verdict) if report.verdict else {}
    log_doc = report.play_log or {}
    return {
        "format": OUTCOME_FORMAT,
        "finish": verdict.get("finish", []),
        "points": verdict.get("points", []),
        "declarations": log_doc.get("declarations", {}),
        "burns": verdict.get("burns", []),
        "suffocated": verdict.get("suffocated", []),
        "revolution": log_doc.get("revolution", []),
    }


def read_outcome(report) -> Outcome:
    doc = outcome_document(report)
    doc.pop("rules", None)  # the event's rule set judges, whatever the document says
    doc["string_three_streak"] = 0
    outcome, _rules = parse_outcome(doc)
    return outcome


def streak_before(strung_by_number: dict[int, str], number: int, union: str | None) -> int:
    """R40: how many deals in a row just before deal `number` `union` strung three."""
    if not union:
        return 0
    streak, k = 0, number - 1
    while k >= 1 and strung_by_number.get(k) == union:
        streak += 1
        k -= 1
    return streak


def ledger_of(report, outcome: Outcome, rules: RuleSet) -> list[dict]:
    """The tributes a deal leaves for the next one.

    From a play log, the replay's ledger stands (only the replay knows which points came after
    the head rival finished, D12), with R40's amnesty applied here: the replay cannot know the
    streak. From a summary, the engine settles the outcome with the streak counted here.
    """
    replay = (report.verdict or {}).get("replay") if report.play_log else None
    if replay and isinstance(replay.get("tributes"), list):
        strung = outcome.string_three_union
        if strung and rules.string_three_amnesty and outcome.string_three_streak >= 2:
            return []
        return replay["tributes"] if rules.tributes else []
    return tribute_ledger(outcome, rules)


# --- one match ----------------------------------------------------------------------------------

def ensure_regular_deals(match: Match) -> None:
    """Deal rows 1..deals_per_match exist, so the next deal can carry its tributes."""
    have = set(match.deals.values_list("number", flat=True))
    missing = [Deal(match=match, number=k) for k in range(1, match.round.event.deals_per_match + 1)
               if k not in have]
    if missing:
        Deal.objects.bulk_create(missing, ignore_conflicts=True)


@transaction.atomic
def settle_match(match_id: int) -> Match | None:
    """Recompute every deal tally of a match, the tributes each deal owes, and the result."""
    # Lock the match row only (Match's default ordering joins the nullable table: no FOR UPDATE
    # on an outer join in PostgreSQL). FOR NO KEY UPDATE: a submission's foreign-key check on
    # the match (KEY SHARE) must not wait for this lock while this waits for its deal row
    # (a deadlock seen at festival scale).
    match = (Match.objects.select_for_update(no_key=True, of=("self",))
             .select_related("round__event", "round__stage").filter(pk=match_id).order_by("pk").first())
    if match is None or match.is_bye:
        return match
    event = match.round.event
    if event.game == Event.Game.GIOG:
        from matches.games.giog import standings as giog_standings

        return giog_standings.settle_match(match)
    if event.game != Event.Game.GOUJI:
        return match
    rules = event_rules(event)
    ensure_regular_deals(match)
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
        if report is None:
            if deal.pk in tallies:
                tallies[deal.pk].delete()
            previous_ledger = None  # unknown until this deal is final
            continue
        try:
            outcome = read_outcome(report)
        except (BadDocument, RuleViolation) as error:
            # A final report the engine cannot read is a data error, not a reason to stop the
            # whole match: it counts as missing and the log says why.
            log.error("deal %s: final report %s unreadable: %s", deal.pk, report.pk, error)
            if deal.pk in tallies:
                tallies[deal.pk].delete()
            previous_ledger = None
            continue
        union = outcome.string_three_union
        streak = streak_before(strung, deal.number, union)
        outcome = dataclasses.replace(outcome, string_three_streak=streak)
        scores = union_scores(outcome, rules)
        ledger = ledger_of(report, outcome, rules)
        strung[deal.number] = union or ""
        values = {
            "match": match, "report_id": report.pk, "score_a": scores["A"], "score_b": scores["B"],
            "finish": list(outcome.finish), "points": sorted(outcome.points),
            "burners": [burner for burner, _b, result in outcome.burns
                        if result in ("success", "counter")],
            "strung": union or "", "streak": streak, "tributes": ledger,
        }
        tally = tallies.get(deal.pk)
        if tally is None:
            DealTally.objects.create(deal=deal, **values)
        elif any(getattr(tally, k) != v for k, v in values.items() if k != "match"):
            for k, v in values.items():
                setattr(tally, k, v)
            tally.save()
        previous_ledger = ledger
    _write_match_result(match, deals, rules)
    return match


def _write_match_result(match: Match, deals: list[Deal], rules: RuleSet) -> None:
    event, stage = match.round.event, match.round.stage
    tallies = {t.deal_id: t for t in DealTally.objects.filter(match=match)}
    regular = [d for d in deals if not d.is_extra and d.number <= event.deals_per_match]
    extras = sorted((d for d in deals if d.is_extra), key=lambda d: d.number)
    result = None
    if all(d.pk in tallies for d in regular):
        total_a = sum(tallies[d.pk].score_a for d in regular)
        total_b = sum(tallies[d.pk].score_b for d in regular)
        knockout = stage.format == Stage.Format.SINGLE_ELIMINATION
        used = 0
        if knockout and total_a == total_b:
            # Extra deals in blocks of `tie_break_deals` (one at a time when blank) until a
            # block ends with one union ahead; the match total includes them.
            block = event.tie_break_deals or 1
            while total_a == total_b:
                chunk = extras[used:used + block]
                if len(chunk) < block:
                    _create_extra_deals(match, deals, block - len(chunk))
                    break
                if not all(d.pk in tallies for d in chunk):
                    break
                total_a += sum(tallies[d.pk].score_a for d in chunk)
                total_b += sum(tallies[d.pk].score_b for d in chunk)
                used += block
            else:
                result = (total_a, total_b)
        else:
            result = (total_a, total_b)
        if result is not None:
            # A correction may have decided the match earlier: unplayed extra deals go.
            unplayed = [d.pk for d in extras[used:] if d.pk not in tallies]
            Deal.objects.filter(pk__in=unplayed, reports__isnull=True).delete()
    if result is None:
        values = {"score_a": None, "score_b": None, "points_a": None, "points_b": None}
    else:
        a, b = result
        if a > b:
            points = (event.points_win, event.points_loss)
        elif a < b:
            points = (event.points_loss, event.points_win)
        else:
            points = (event.points_draw, event.points_draw)
        values = {"score_a": a, "score_b": b, "points_a": points[0], "points_b": points[1]}
    if any(getattr(match, k) != v for k, v in values.items()):
        Match.objects.filter(pk=match.pk).update(**values)
        for k, v in values.items():
            setattr(match, k, v)


def _create_extra_deals(match: Match, deals: list[Deal], count: int) -> None:
    last = max((d.number for d in deals), default=0)
    ledger = None
    last_deal = max(deals, key=lambda d: d.number) if deals else None
    if last_deal is not None:
        tally = DealTally.objects.filter(deal=last_deal).first()
        ledger = tally.tributes if tally else None
    for k in range(1, count + 1):
        Deal.objects.get_or_create(match=match, number=last + k,
                                   defaults={"is_extra": True,
                                             "tributes_owed": ledger if k == 1 else None})


# --- standings ----------------------------------------------------------------------------------

def stale_matches(event: Event, from_round: int = 1) -> list[int]:
    """Matches (of round `from_round` on) whose tallies do not match the current final reports.

    A change to an earlier round asks for the standings from that round, so the later rounds
    are all that can be stale here; not scanning the others saves reading every result of a
    festival's finished rounds on each run."""
    from matches.models import DealReport

    final = dict(DealReport.objects.final().filter(
        deal__match__round__event=event, deal__match__round__number__gte=from_round)
        .values_list("deal_id", "id"))
    tallied = dict(DealTally.objects.filter(
        match__round__event=event, match__round__number__gte=from_round)
        .values_list("deal_id", "report_id"))
    stale_deals = {d for d in set(final) | set(tallied) if final.get(d) != tallied.get(d)}
    return sorted(set(Deal.objects.filter(pk__in=stale_deals).values_list("match_id", flat=True)))


def _scoped_rounds(round_: Round, scope: str) -> list[Round]:
    rounds = Round.objects.filter(event=round_.event, number__lte=round_.number,
                                  state__in=[Round.State.PUBLISHED, Round.State.CLOSED])
    if scope == StandingsSnapshot.Scope.STAGE:
        rounds = rounds.filter(stage=round_.stage)
    return list(rounds)


def union_rows(event: Event, rounds: list[Round]) -> list[dict]:
    entrants = {
        union_id: (seed, name)
        for union_id, seed, name in Registration.objects.filter(event=event, union__isnull=False)
        .values_list("union_id", "seed", "union__name")
    }
    matches = list(Match.objects.filter(round__in=rounds, points_a__isnull=False).values_list(
        "pk", "round__number", "union_a_id", "union_b_id", "points_a", "points_b", "score_a",
        "score_b"))
    # Counted by the database, one row per match: a festival's round 9 has 60,000 tallies.
    strings, wins = {}, {}
    for match_id, strings_a, strings_b, wins_a, wins_b in (
            DealTally.objects.filter(match__round__in=rounds, match__points_a__isnull=False)
            .order_by().values("match_id").annotate(
                strings_a=Count("id", filter=Q(strung="A")),
                strings_b=Count("id", filter=Q(strung="B")),
                wins_a=Count("id", filter=Q(score_a__gt=F("score_b"))),
                wins_b=Count("id", filter=Q(score_b__gt=F("score_a"))))
            .values_list("match_id", "strings_a", "strings_b", "wins_a", "wins_b")):
        strings[match_id] = {"A": strings_a, "B": strings_b}
        wins[match_id] = {"A": wins_a, "B": wins_b}
    records = []
    for pk, number, union_a, union_b, points_a, points_b, score_a, score_b in matches:
        if union_b is None:
            records.append(MatchRecord(round=number, union_a=union_a, union_b=None, points_a=points_a))
            continue
        s, w = strings.get(pk, {"A": 0, "B": 0}), wins.get(pk, {"A": 0, "B": 0})
        records.append(MatchRecord(
            round=number, union_a=union_a, union_b=union_b, points_a=points_a,
            points_b=points_b or 0, score_a=score_a or 0, score_b=score_b or 0,
            deal_wins_a=w["A"], deal_wins_b=w["B"], strings_a=s["A"], strings_b=s["B"],
        ))
    return [line.as_dict() for line in rank_unions(entrants, records, list(event.tie_breaks or []))]


def player_rows(event: Event, rounds: list[Round], rules: RuleSet, carried: list[dict] = ()) -> list[dict]:
    """The player standings over `rounds`, added to `carried` (the rows of the rounds before
    them, see `rank_players`)."""
    # Plain values, not model instances: this runs after every result on every player.
    seats = {}
    players = {}
    if event.is_team:
        for player_id, name, union in UnionMember.objects.filter(
                event=event, round__isnull=True).values_list("player_id", "player__name", "union__name"):
            players[player_id] = (name, union)
    else:
        for player_id, name in Registration.objects.filter(
                event=event, player__isnull=False).values_list("player_id", "player__name"):
            players[player_id] = (name, "")
    for table_id, seat, player_id, name, union in TableSeat.objects.filter(round__in=rounds).values_list(
            "table_id", "seat", "player_id", "player__name", "union__name"):
        seats[(table_id, seat)] = player_id
        players.setdefault(player_id, (name, union if event.is_team else ""))
    records = []
    for table_id, finish, points, burners in DealTally.objects.filter(
            match__round__in=rounds).values_list("match__table_id", "finish", "points", "burners"):
        for place, seat_number in enumerate(finish):
            player_id = seats.get((table_id, seat_number))
            if player_id is None:
                continue
            records.append(SeatRecord(
                player=player_id, table=table_id, place=place,
                place_points=rules.place_points[place], opened_point=seat_number in points,
                burns=burners.count(seat_number),
            ))
    return [line.as_dict() for line in rank_players(players, records, carried)]


@transaction.atomic
def snapshot_round(round_: Round) -> None:
    """Write the standings as they stand after `round_` (union and player; event and stage)."""
    round_ = (Round.objects.select_for_update(no_key=True, of=("self",)).select_related("event", "stage")
              .order_by("pk").get(pk=round_.pk))
    event = round_.event
    if round_.state == Round.State.DRAFT or event.game not in (Event.Game.GOUJI, Event.Game.GIOG):
        StandingsSnapshot.objects.filter(round=round_).delete()
        return
    if event.is_giog:
        from matches.games.giog.standings import player_rows as giog_rows

        rows_for = (lambda rounds, scope: giog_rows(event, rounds))
    else:
        rules = event_rules(event)

        def rows_for(rounds, scope):
            # The rows after the scope's previous round, plus this round: the same numbers as
            # reading every round again (update_standings writes rounds in order, and a change
            # to an earlier round rewrites every later one), for one round's reading.
            previous = (StandingsSnapshot.objects.filter(
                round=rounds[-2], kind=StandingsSnapshot.Kind.PLAYERS, scope=scope)
                .values_list("rows", flat=True).first() if len(rounds) > 1 else None)
            if previous is None:
                return player_rows(event, rounds, rules)
            return player_rows(event, rounds[-1:], rules, carried=previous)
    unfinished = round_.matches.filter(union_b__isnull=False, points_a__isnull=True).count()
    computed = {}  # one stage only: the stage's rounds are the event's, compute once
    for scope in StandingsSnapshot.Scope.values:
        rounds = _scoped_rounds(round_, scope)
        key = tuple(sorted(r.pk for r in rounds))
        if key not in computed:
            kinds = {StandingsSnapshot.Kind.PLAYERS: rows_for(rounds, scope)}
            if event.is_team:
                kinds[StandingsSnapshot.Kind.UNIONS] = union_rows(event, rounds)
            computed[key] = kinds
        kinds = computed[key]
        for kind, rows in kinds.items():
            snapshot = StandingsSnapshot.objects.filter(round=round_, kind=kind, scope=scope).first()
            if snapshot is None:
                StandingsSnapshot.objects.create(event=event, round=round_, stage=round_.stage,
                                                 kind=kind, scope=scope, rows=rows,
                                                 unfinished=unfinished)
            elif snapshot.rows != rows or snapshot.unfinished != unfinished:
                snapshot.rows, snapshot.unfinished = rows, unfinished
                snapshot.save(update_fields=["rows", "unfinished", "computed_at"])


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
    return len(rounds)


def recompute_event(event_id: int) -> None:
    """Everything from the final results alone: tallies, ledgers, match results, snapshots."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return
    for match_id in Match.objects.filter(round__event=event, union_b__isnull=False).values_list("pk", flat=True):
        settle_match(match_id)
    # Tallies of deals that no longer exist are removed with them (cascade); nothing else is kept.
    update_standings(event_id, 1)
