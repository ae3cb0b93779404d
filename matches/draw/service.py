"""The one place where draws become database rows: create, re-draw, swap by hand, publish, close.

The pairing itself is done by the pure engine in `matches.kernel.pairing`; `history` reads the event
into plain values; this module asks the engine and writes tables, matches, seats and an audit
record (`RoundLog`) in one transaction.

The draft edits (`control.py`) and the late changes (`late.py`) build on its public helpers:
`require_draft`, `swap_places` (two unions exchange their places), `reflag_team` (a changed
table's flags again), `describe_matches` and `explain_tables` (what the round log keeps and
the page shows).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Hashable

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from matches import signals
from matches.draw import entrants, history, stages
from matches.kernel import punctuation
from matches.kernel.draw_rows import (
    jsonable,
    seats_by_table,
    write_individual_tables,
    write_reflagged,
)
from matches.kernel.games.registry import adapter_for
from matches.kernel.pairing import knockout, robin
from matches.kernel.pairing import types as flags
from matches.kernel.pairing.individual import describe_table, draw_individual, measure_tables
from matches.kernel.pairing.swiss import annotate, measure, pair_swiss
from matches.kernel.pairing.types import Draw, Entrant, Pairing, SeatingError
from matches.models import (
    Match,
    MatchSide,
    Round,
    RoundLog,
    Stage,
    Table,
    TableSeat,
    Union,
    UnionMember,
)
from matches.models.round import SIDE_A, SIDE_B
from matches.store import chain

#: details of a match that describe its place, not its unions: a swap keeps them.
KEPT_AFTER_SWAP = ("group", "bracket", "seed_a", "seed_b")


class SeatingRefused(Exception):
    """The action is not allowed in the round's state or with these entrants."""


# --- drawing --------------------------------------------------------------------------------


def _new_seed() -> int:
    return random.SystemRandom().randrange(1, 2**62)


@transaction.atomic
def create_round(
    stage: Stage, *, user=None, seed: int | None = None, silent: bool = False
) -> Round:
    """Draw the next round of `stage` as a draft. Every earlier round must be closed."""
    event = stage.event
    if event.rounds.exclude(state=Round.State.CLOSED).exists():
        raise SeatingRefused(_("上一轮尚未结束，不能编排新一轮"))
    number = (event.rounds.aggregate(last=Max("number"))["last"] or 0) + 1
    stage_round = stage.rounds.count() + 1
    if stage.planned_rounds and stage_round > stage.planned_rounds:
        raise SeatingRefused(_("本阶段的轮次已全部编排"))
    if stages.needs_break(stage):
        raise SeatingRefused(stages.break_refusal())
    round_ = Round.objects.create(
        event=event,
        stage=stage,
        number=number,
        stage_round=stage_round,
        seed=_new_seed() if seed is None else seed,
        silent=silent,
    )
    _draw_into(round_)
    RoundLog.objects.create(
        round=round_,
        action=RoundLog.Action.DRAW,
        user=user,
        details={"seed": round_.seed, "quality": round_.quality},
    )
    return round_


@transaction.atomic
def redraw_round(round_: Round, *, user=None, seed: int | None = None) -> Round:
    """Throw away a draft draw (and any swaps) and draw again, from a new seed by default.
    Entries that arrived while the round was a draft and are checked in for it join it."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if not round_.is_draft:
        raise SeatingRefused(_("已公布的轮次不能重新编排"))
    admitted = entrants.admit_to_draft(round_)
    old_seed = round_.seed
    clear_round(round_)
    round_.seed = _new_seed() if seed is None else seed
    round_.save(update_fields=["seed"])
    _draw_into(round_)
    RoundLog.objects.create(
        round=round_,
        action=RoundLog.Action.REDRAW,
        user=user,
        details={
            "old_seed": old_seed,
            "seed": round_.seed,
            "quality": round_.quality,
            **({"admitted": admitted} if admitted else {}),
        },
    )
    return round_


def clear_round(round_: Round) -> None:
    """Delete a round's drawn rows (seats, sides, matches, tables, its unions), as a redraw, a
    deleted draft and a deleted event do; the round row itself stays."""
    TableSeat.objects.filter(round=round_).delete()
    MatchSide.objects.filter(round=round_).delete()
    Match.objects.filter(round=round_).delete()
    Table.objects.filter(round=round_).delete()
    Union.objects.filter(round=round_).delete()


def _draw_into(round_: Round) -> None:
    """The game's own seating when it has one (it gets the round's field and writes its rows
    through `matches.kernel.draw_rows`), else the shared draw of two unions a table."""
    adapter = adapter_for(round_.event)
    try:
        if adapter.seats_own_tables:
            adapter.draw_round(round_, entrants.active_registrations(round_.event, round_.number))
        else:
            draw_union_tables(round_)
    except SeatingError as error:
        raise SeatingRefused(seating_reason(error)) from error


def seating_reason(error: SeatingError) -> str:
    """Why a draw failed, in the organiser's language (the pairing code speaks English)."""
    if error.code == "too_few":
        return _("参赛方太少，无法编排：至少需要 %(n)s 个（联邦或选手）") % {"n": error.at_least}
    if error.code == "entered_twice":
        return _("同一参赛方被重复编排，请检查报名与签到")
    if error.code == "unpairable":
        return _("无法在避免重复对阵的条件下编排本轮，请调整签到或赛制后重试")
    return _("无法编排本轮：%(reason)s") % {"reason": error}


def draw_union_tables(round_: Round) -> None:
    """The draw of a game played by two unions a table (Gou Ji): registered unions paired by
    the stage's format, or an individual event's players drawn into unions."""
    event, stage = round_.event, round_.stage
    if not event.is_team:
        _draw_individual(round_)
    elif stage.format == Stage.Format.SWISS:
        entrants = history.entrants(event, round_.number)
        draw = pair_swiss(
            entrants.values(),
            round_number=round_.stage_round,
            seed=round_.seed,
            seeded=stage.seeded,
            avoid_clubs=event.avoids_clubs,
        )
        _write_team_draw(round_, draw.pairings, draw.quality)
    elif stage.format == Stage.Format.ROUND_ROBIN:
        _draw_round_robin(round_)
    else:
        _draw_knockout(round_)


def _seeded_union_ids(round_: Round) -> list[int]:
    """A stage's field in seed order: the previous stage's standings when there is one."""
    event, stage = round_.event, round_.stage
    active = [r.union_id for r in entrants.active_registrations(event, round_.number) if r.union_id]
    if stage.break_unions:
        # The break the organiser confirmed (`matches.standings.breaks`), in its seed order.
        return [u for u in stage.break_unions if u in set(active)]
    earlier = stage.rounds.exclude(pk=round_.pk).order_by("number")
    first_round_of_stage = earlier.values_list("number", flat=True).first() or round_.number
    if first_round_of_stage > 1:
        ranked = [u for u in history.standings(event, first_round_of_stage) if u in set(active)]
    else:
        ranked = active
    if stage.qualifiers:
        ranked = ranked[: stage.qualifiers]
    return ranked


def _draw_round_robin(round_: Round) -> None:
    seeded = _seeded_union_ids(round_)
    groups = robin.snake_groups(seeded, round_.stage.group_count)
    entrants = history.entrants(round_.event, round_.number)
    pairings = []
    for group_number, group in enumerate(groups, start=1):
        if len(group) < 2:
            continue
        if round_.stage_round > robin.rounds_in_group(len(group)):
            continue  # a smaller group has finished
        for pairing in robin.round_robin_round(group, round_.stage_round):
            described = annotate(entrants[pairing.a], entrants.get(pairing.b))
            described.details["group"] = group_number
            pairings.append(described)
    if not pairings:
        raise SeatingRefused(_("循环赛的轮次已全部打完"))
    pairings.sort(key=lambda p: p.is_bye)
    _write_team_draw(round_, pairings, {"method": "berger", "groups": len(groups)})


def _draw_knockout(round_: Round) -> None:
    """Knockout pairings carry knockout flags only (a bye, clubmates meeting, a hand swap):
    scores and seats, which the Swiss explains, decide nothing here."""
    entrants = history.entrants(round_.event, round_.number)
    clubs = {union: entrant.club for union, entrant in entrants.items()}
    if round_.stage_round == 1:
        pairings = knockout.first_round(_seeded_union_ids(round_), clubs)
    else:
        previous = round_.stage.rounds.get(stage_round=round_.stage_round - 1)
        winners = []
        for match in sorted(
            previous.matches.with_sides(), key=lambda m: m.details.get("bracket", 0)
        ):
            winners.append(_knockout_winner(match))
        pairings = knockout.next_round(winners, clubs)
    for slot, pairing in enumerate(pairings):
        pairing.details["bracket"] = slot
    _write_team_draw(round_, pairings, knockout.measure(pairings))


def _is_knockout(round_: Round) -> bool:
    return round_.event.is_team and round_.stage.format == Stage.Format.SINGLE_ELIMINATION


def _knockout_winner(match: Match) -> int:
    if match.is_bye:
        return match.union_a_id
    if not match.is_complete or match.points_a is None or match.points_b is None:
        raise SeatingRefused(_("淘汰赛上一轮仍有未录成绩的对局"))
    if match.points_a == match.points_b:
        raise SeatingRefused(_("淘汰赛对局打平，须先打加赛局分出胜负"))
    return match.union_a_id if match.points_a > match.points_b else match.union_b_id


def _write_team_draw(round_: Round, pairings: list, quality: dict) -> None:
    unions = Union.objects.in_bulk({u for p in pairings for u in (p.a, p.b) if u is not None})
    members = defaultdict(list)
    for member in UnionMember.objects.filter(union_id__in=unions).order_by("order"):
        members[member.union_id].append(member.player_id)
    shape = adapter_for(round_.event).table_shape(round_.event)
    short = sorted(unions[u].name for u in unions if len(members[u]) != shape.union_size)
    if short:
        raise SeatingRefused(
            _("以下联邦的选手不是 %(n)s 名：") % {"n": shape.union_size} + punctuation.listed(short)
        )
    played = [p for p in pairings if not p.is_bye]
    tables = Table.objects.bulk_create(
        [Table(round=round_, number=k) for k in range(1, len(played) + 1)]
    )
    byes = [p for p in pairings if p.is_bye]
    matches = Match.objects.bulk_create(
        [
            Match(round=round_, table=table, flags=p.flags, details=jsonable(p.details))
            for table, p in zip(tables, played)
        ]
        + [
            Match(
                round=round_,
                flags=p.flags,
                details=jsonable(p.details),
                points_a=round_.event.points_bye,
                score_a=round_.event.bye_score,
                completed_at=timezone.now(),
            )
            for p in byes
        ]
    )
    sides, seats = [], []
    for match, pairing in zip(matches, played + byes):
        if pairing.is_bye:
            sides.append(
                MatchSide(round=round_, match=match, union_id=pairing.a, position=MatchSide.BYE)
            )
            continue
        for union_id, side in ((pairing.a, SIDE_A), (pairing.b, SIDE_B)):
            sides.append(MatchSide(round=round_, match=match, union_id=union_id, position=side))
            for seat_number, player_id in zip(shape.seats_of(side), members[union_id]):
                seats.append(
                    TableSeat(
                        table=match.table,
                        round=round_,
                        seat=seat_number,
                        side=side,
                        player_id=player_id,
                        union_id=union_id,
                    )
                )
    MatchSide.objects.bulk_create(sides)
    TableSeat.objects.bulk_create(seats)
    round_.quality = quality
    round_.save(update_fields=["quality"])


def _draw_individual(round_: Round) -> None:
    players = history.players(round_.event, round_.number)
    shape = adapter_for(round_.event).table_shape(round_.event)
    draw = draw_individual(
        players.values(),
        sides=shape.sides,
        round_number=round_.stage_round,
        seed=round_.seed,
        avoid_clubs=round_.event.avoids_clubs,
    )
    write_individual_tables(round_, draw.tables)
    round_.quality = {**draw.quality, "sitting_out": draw.sitting_out}
    round_.save(update_fields=["quality"])


# --- hand swaps ---------------------------------------------------------------------------


def require_draft(round_: Round) -> None:
    if not round_.is_draft:
        raise SeatingRefused(_("只能在公布前调整编排"))


@transaction.atomic
def swap_unions(round_: Round, first: Union, second: Union, *, user=None) -> list[dict]:
    """Exchange the places of two unions in a draft team round (a bye's place included).

    Returns the explanation of the changed tables, so the organiser sees at once whether the
    swap made a rematch, a repeated bye or a seat imbalance."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    require_draft(round_)
    touched, before = swap_places(round_, first, second)
    require_valid_seats(round_, touched.values())
    reflag_team(round_, touched.values())
    RoundLog.objects.create(
        round=round_,
        action=RoundLog.Action.SWAP_UNIONS,
        user=user,
        details={
            "unions": [first.pk, second.pk],
            "before": before,
            "after": describe_matches(touched.values()),
        },
    )
    return explain_tables(round_, touched.values())


def swap_places(round_: Round, first: Union, second: Union) -> tuple[dict, list]:
    """Exchange two unions' places (matches, entries and seats); no flags, no audit.
    Returns the touched matches by id and their description before."""
    if not round_.event.is_team:
        raise SeatingRefused(_("个人赛请调换选手"))
    if first.pk == second.pk:
        raise SeatingRefused(_("请选择两个不同的联邦"))
    sides = {
        side.union_id: side
        for side in round_.sides.filter(union__isnull=False).select_related("match__table")
    }
    if first.pk not in sides or second.pk not in sides:
        raise SeatingRefused(_("联邦不在本轮编排中"))
    x, y = sides[first.pk], sides[second.pk]
    before = describe_matches(Match.objects.with_sides().filter(pk__in=[x.match_id, y.match_id]))
    # Rewrite both places: sides and seats, then check and flag again.
    touched = {x.match_id: x.match, y.match_id: y.match}
    MatchSide.objects.filter(pk__in=[x.pk, y.pk]).delete()
    TableSeat.objects.filter(round=round_, union_id__in=[first.pk, second.pk]).delete()
    members = defaultdict(list)
    for member in UnionMember.objects.filter(union_id__in=[first.pk, second.pk]).order_by("order"):
        members[member.union_id].append(member.player_id)
    shape = adapter_for(round_.event).table_shape(round_.event)
    for side, new_union in ((x, second.pk), (y, first.pk)):
        MatchSide.objects.create(
            round=round_, match=touched[side.match_id], union_id=new_union, position=side.position
        )
        if side.position != MatchSide.BYE:
            table = touched[side.match_id].table
            assert table is not None  # a side that is not a bye sits at a table
            seat_numbers = shape.seats_of(side.position)
            for seat_number, player_id in zip(seat_numbers, members[new_union]):
                TableSeat.objects.create(
                    table=table,
                    round=round_,
                    seat=seat_number,
                    side=side.position,
                    player_id=player_id,
                    union_id=new_union,
                )
    return touched, before


def reflag_team(round_: Round, matches) -> None:
    entrants = history.entrants(round_.event, round_.number)
    if _is_knockout(round_):
        _reflag_knockout(round_, matches, entrants)
        return
    for match in matches:
        a = entrants.get(match.union_a_id) or Entrant(id=match.union_a_id)
        b = (
            None
            if match.union_b_id is None
            else (entrants.get(match.union_b_id) or Entrant(id=match.union_b_id))
        )
        described = annotate(a, b)
        extra = {k: v for k, v in match.details.items() if k in KEPT_AFTER_SWAP}
        match.flags = described.flags + [flags.HAND_SWAP]
        match.details = {**jsonable(described.details), **extra}
        match.save(update_fields=["flags", "details"])
    round_.quality = {**round_.quality, **_team_quality(round_, entrants)}
    round_.save(update_fields=["quality"])


def _reflag_knockout(round_: Round, matches, entrants: dict) -> None:
    """After a hand edit of a knockout round: its own flags again, the real clubmate count."""
    clubs = {union: entrant.club for union, entrant in entrants.items()}
    for match in matches:
        match.flags = (
            [flags.BYE]
            if match.union_b_id is None
            else [flags.CLUB_CLASH]
            if knockout.same_club(match.union_a_id, match.union_b_id, clubs)
            else []
        ) + [flags.HAND_SWAP]
        match.details = {k: v for k, v in match.details.items() if k in KEPT_AFTER_SWAP}
        match.save(update_fields=["flags", "details"])
    pairings = [
        Pairing(a=m.union_a_id, b=m.union_b_id, flags=m.flags, details=m.details)
        for m in round_.matches.all()
    ]
    round_.quality = {
        **round_.quality,
        **knockout.measure(pairings),
        "hand_swaps": sum(1 for p in pairings if flags.HAND_SWAP in p.flags),
    }
    round_.save(update_fields=["quality"])


def _team_quality(round_: Round, entrants: dict) -> dict:
    draw = Draw(
        pairings=[
            Pairing(a=m.union_a_id, b=m.union_b_id, flags=m.flags, details=m.details)
            for m in round_.matches.with_sides()
        ]
    )
    placed = {u for p in draw.pairings for u in (p.a, p.b) if u is not None}
    entrants = {**{u: Entrant(id=u) for u in placed}, **entrants}
    for p in draw.pairings:
        p.details = {
            **p.details,
            "score_a": entrants[p.a].score,
            "score_b": entrants[p.b].score if p.b else None,
        }
    quality = measure(draw, entrants)
    quality["hand_swaps"] = sum(1 for p in draw.pairings if flags.HAND_SWAP in p.flags)
    return quality


@transaction.atomic
def swap_players(
    round_: Round, first_player_id: int, second_player_id: int, *, user=None
) -> list[dict]:
    """Exchange two players' seats in a draft round; returns the changed tables explained.

    In an individual event the players also change drawn unions, and a seated player may
    change places with one who sits out this round. In a team event only two players of one
    union may swap (the union's seating order); unions stay as registered.
    """
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    require_draft(round_)
    seats = {
        s.player_id: s
        for s in TableSeat.objects.filter(
            round=round_, player_id__in=[first_player_id, second_player_id]
        ).select_related("table")
    }
    sitting_out = set(round_.quality.get("sitting_out", []))
    if first_player_id != second_player_id and len(seats) == 1 and not round_.event.is_team:
        waiting = first_player_id if first_player_id not in seats else second_player_id
        if waiting in sitting_out:
            return _seat_instead(round_, next(iter(seats.values())), waiting, user)
    if first_player_id == second_player_id or len(seats) != 2:
        raise SeatingRefused(_("请选择本轮已入座的两名不同选手"))
    x, y = seats[first_player_id], seats[second_player_id]
    if round_.event.is_team and x.union_id != y.union_id:
        raise SeatingRefused(_("团体赛只能调换同一联邦内选手的座位"))
    before = {"first": [x.table.number, x.seat], "second": [y.table.number, y.seat]}
    # Delete both rows, then write them back exchanged: the seat and round constraints hold
    # at every step.
    TableSeat.objects.filter(pk__in=[x.pk, y.pk]).delete()
    for seat, player_id in ((x, y.player_id), (y, x.player_id)):
        TableSeat.objects.create(
            table=seat.table,
            round=round_,
            seat=seat.seat,
            side=seat.side,
            player_id=player_id,
            union_id=seat.union_id,
        )
    if not round_.event.is_team:
        _swap_drawn_places(round_, x.player_id, y.player_id)
        _reflag_individual(round_, {x.table_id, y.table_id})
    else:
        for match in Match.objects.filter(table_id=x.table_id):
            match.flags = list(dict.fromkeys(match.flags + [flags.HAND_SWAP]))
            match.save(update_fields=["flags"])
    RoundLog.objects.create(
        round=round_,
        action=RoundLog.Action.SWAP_PLAYERS,
        user=user,
        details={
            "players": [first_player_id, second_player_id],
            "before": before,
            "after": {"first": before["second"], "second": before["first"]},
        },
    )
    return explain_tables(round_, Match.objects.filter(table_id__in={x.table_id, y.table_id}))


def _swap_drawn_places(round_: Round, first: int, second: int) -> None:
    """Two players of an individual draw exchange what they hold besides their seats: their
    places in drawn unions (Gou Ji) or their own sides (a game whose sides are players)."""
    for model, fields in (
        (UnionMember, ("union_id", "order", "is_captain", "event_id")),
        (MatchSide, ("match_id", "position")),
    ):
        found = model.objects.filter(round=round_, player_id__in=[first, second])
        rows = {row.player_id: row for row in found}
        if len(rows) != 2:
            continue
        model.objects.filter(pk__in=[r.pk for r in rows.values()]).delete()
        for row, player_id in ((rows[first], second), (rows[second], first)):
            model.objects.create(
                round=round_, player_id=player_id, **{f: getattr(row, f) for f in fields}
            )


def _seat_instead(round_: Round, seat: TableSeat, waiting: int, user) -> list[dict]:
    """Individual events: the player who sat out takes `seat`; its player sits out instead."""
    leaving = seat.player_id
    TableSeat.objects.filter(pk=seat.pk).update(player_id=waiting)
    UnionMember.objects.filter(round=round_, player_id=leaving).update(player_id=waiting)
    MatchSide.objects.filter(round=round_, player_id=leaving).update(player_id=waiting)
    round_.quality = {
        **round_.quality,
        "sitting_out": [
            leaving if pid == waiting else pid for pid in round_.quality["sitting_out"]
        ],
    }
    round_.save(update_fields=["quality"])
    _reflag_individual(round_, {seat.table_id})
    RoundLog.objects.create(
        round=round_,
        action=RoundLog.Action.SWAP_PLAYERS,
        user=user,
        details={
            "players": [leaving, waiting],
            "before": {"seated": leaving},
            "after": {"seated": waiting, "sitting_out": leaving},
        },
    )
    return explain_tables(round_, Match.objects.filter(table_id=seat.table_id))


def _reflag_individual(round_: Round, table_ids: set) -> None:
    adapter = adapter_for(round_.event)
    if adapter.seats_own_tables:
        field = entrants.active_registrations(round_.event, round_.number)
        adapter.reflag_tables(round_, table_ids, field)
    else:
        reflag_drawn_unions(round_, table_ids)


def reflag_drawn_unions(round_: Round, table_ids: set) -> None:
    """Individual draw into unions: flags of the changed tables and the round's quality."""
    players = history.players(round_.event, round_.number)
    shape = adapter_for(round_.event).table_shape(round_.event)
    described = {}
    for table_id, seats in seats_by_table(round_).items():
        ids: list[Hashable] = [seats[k] for k in shape.seats]
        described[table_id] = describe_table(ids, players, shape.sides)
    write_reflagged(round_, table_ids, described, measure_tables(list(described.values())))


def describe_matches(matches) -> list:
    return [
        {"table": m.table.number if m.table_id else None, "a": m.union_a_id, "b": m.union_b_id}
        for m in matches
    ]


# --- publishing and closing ------------------------------------------------------------------


@transaction.atomic
def publish_round(round_: Round, *, user=None) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    require_draft(round_)
    problems = check_round(round_)
    if problems:
        raise SeatingRefused(punctuation.clauses(problems))
    round_.state = Round.State.PUBLISHED
    round_.published_at = timezone.now()
    round_.published_by = user if user is not None and user.is_authenticated else None
    round_.save(update_fields=["state", "published_at", "published_by"])
    chain.sync_byes(round_)  # a bye is a result: in the event's result chain
    RoundLog.objects.create(round=round_, action=RoundLog.Action.PUBLISH, user=round_.published_by)
    signals.announce_round_change(round_, signals.PUBLISHED)
    return round_


@transaction.atomic
def close_round(round_: Round, *, user=None) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.state != Round.State.PUBLISHED:
        raise SeatingRefused(_("只能结束已公布的轮次"))
    missing = unfinished_tables(round_)
    if missing:
        raise SeatingRefused(
            _("以下牌桌尚无最终成绩：%(tables)s")
            % {"tables": punctuation.listed(_("第 %(n)s 桌") % {"n": n} for n in missing)}
        )
    round_.state = Round.State.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["state", "closed_at"])
    RoundLog.objects.create(round=round_, action=RoundLog.Action.CLOSE, user=user)
    signals.announce_round_change(round_, signals.CLOSED)
    return round_


def unfinished_tables(round_: Round) -> list[int]:
    """Table numbers of the round's matches without a final result, in table order."""
    return list(
        round_.matches.unfinished()
        .order_by("table__number")
        .values_list("table__number", flat=True)
    )


def check_round(round_: Round) -> list[str]:
    """What the database cannot refuse by itself: every table full, and the game's own seat
    rules (`seat_problems`: Gou Ji's unions on alternate seats)."""
    problems = []
    adapter = adapter_for(round_.event)
    seats = defaultdict(list)
    for seat in TableSeat.objects.filter(round=round_):
        seats[seat.table_id].append(seat)
    for match in round_.matches.with_sides().select_related("table"):
        if match.is_bye:
            continue
        table_seats = seats[match.table_id]
        if not adapter.table_is_full(round_.event, sorted(s.seat for s in table_seats)):
            problems.append(_("第 %(n)s 桌座位不全") % {"n": match.table.number})
        problems += adapter.seat_problems(match, table_seats)
    return problems


def require_valid_seats(round_: Round, matches) -> None:
    """After a hand edit of a draft: refuse it when it breaks the game's seat rules."""
    adapter = adapter_for(round_.event)
    for match in matches:
        if match.table_id is None:
            continue
        seats = list(TableSeat.objects.filter(table_id=match.table_id))
        problems = adapter.seat_problems(Match.objects.with_sides().get(pk=match.pk), seats)
        if problems:
            raise SeatingRefused("; ".join(problems))


def explain_round(round_: Round) -> list[dict]:
    """Why the draw is what it is, table by table: for the organiser before publishing."""
    return explain_tables(round_, round_.matches.all())


def explain_tables(round_: Round, matches) -> list[dict]:
    names = dict(Union.objects.filter(sides__round=round_).values_list("id", "name"))
    ordered = (
        Match.objects.with_sides().filter(pk__in=[m.pk for m in matches]).select_related("table")
    )
    return [
        _explain_match(round_, match, names) for match in ordered.order_by("table__number", "id")
    ]


def _bye_reason(round_: Round, match: Match, by_hand: bool) -> str:
    """Why this union sits out: the format's rule, the draw's own reason, or the organiser."""
    if by_hand:
        return _("轮空：组织者指定")
    if match.details.get("late"):
        return _("轮空：迟到联邦补入本轮")
    by_formats: dict[str, str] = {
        Stage.Format.SINGLE_ELIMINATION: _("轮空：种子排位靠前"),
        Stage.Format.ROUND_ROBIN: _("轮空：循环赛本轮轮空"),
    }
    by_format = by_formats.get(round_.stage.format)
    if by_format:
        return by_format
    return {
        "random": _("轮空：首轮随机抽签抽中"),
        "last_seed": _("轮空：首轮种子排位最后"),
    }.get(match.details.get("bye_reason"), _("轮空：积分最低且尚未轮空"))


def _explain_match(round_: Round, match: Match, names: dict) -> dict:
    reasons = []
    d = match.details
    by_hand = flags.HAND_SWAP in match.flags
    if flags.BYE in match.flags:
        reasons.append(_bye_reason(round_, match, by_hand))
    if flags.BYE_REPEATED in match.flags:
        reasons.append(_("所有候选联邦都已轮空过，只能再次轮空"))
    if flags.PULLED_DOWN in match.flags:
        reasons.append(
            _("%(down)s（%(sd)s 分）下调，%(up)s 上调：同分组内无可配对手")
            % {
                "down": names.get(d.get("pulled_down")),
                "up": names.get(d.get("pulled_up")),
                "sd": max(d.get("score_a", 0), d.get("score_b") or 0),
            }
        )
    if flags.REMATCH_FORCED in match.flags:
        reasons.append(
            _("重复交手：由手动调整造成") if by_hand else _("重复交手：没有其他可行的配对")
        )
    if flags.SEAT_AGAINST_PREFERENCE in match.flags:
        reasons.append(_("座次失衡：双方都该坐同一侧"))
    if flags.CLUB_CLASH in match.flags:
        reasons.append(
            _("同俱乐部联邦相遇") if round_.event.is_team else _("同桌有同俱乐部选手：无法全部避开")
        )
    if d.get("moved_from"):
        reasons.append(
            _("为避开同俱乐部：对手由 %(std)s 号种子换为 %(seed)s 号种子")
            % {"std": d["moved_from"], "seed": d.get("seed_b")}
        )
    if flags.REPEAT_PARTNER in match.flags:
        reasons.append(_("有选手再次同邦"))
    if flags.REPEAT_OPPONENT in match.flags:
        reasons.append(_("有选手再次对阵"))
    if by_hand:
        reasons.append(_("组织者手动调整"))
    union_a, union_b = names.get(match.union_a_id), names.get(match.union_b_id)
    if not match.union_sides:
        # The sides are players: the table's players, in seat order.
        union_a = punctuation.listed(side.name for side in match.ordered_sides)
    return {
        "table": match.table.number if match.table else None,
        "match": match.pk,
        "union_a_id": match.union_a_id,
        "union_b_id": match.union_b_id,
        "union_a": union_a,
        "union_b": union_b,
        "flags": list(match.flags),
        "reasons": reasons,
    }
