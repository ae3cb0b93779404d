"""The organiser's hand edits of a draft round: two unions exchange their places
(`swap_unions`, `swap_places`), two players their seats (`swap_players`, a player who sat out
included), and the changed tables' flags and the round's quality again (`reflag_team`, an
individual draw's tables). The draft edits (`control.py`) and the late changes (`late.py`)
build on `swap_places`, `reflag_team`, `describe_matches` and `require_valid_seats`."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable

from django.db import transaction
from django.utils.translation import gettext as _

from matches.draw import entrants, history
from matches.draw.explanations import explain_tables
from matches.draw.refusals import SeatingRefused, require_draft
from matches.kernel.draw_rows import jsonable, seats_by_table, write_reflagged
from matches.kernel.games.registry import adapter_for
from matches.kernel.pairing import knockout
from matches.kernel.pairing import types as flags
from matches.kernel.pairing.individual import describe_table, measure_tables
from matches.kernel.pairing.swiss import annotate, measure
from matches.kernel.pairing.types import Draw, Entrant, Pairing
from matches.models import Match, MatchSide, Round, RoundLog, Stage, TableSeat, Union, UnionMember

#: details of a match that describe its place, not its unions: a swap keeps them.
KEPT_AFTER_SWAP = ("group", "bracket", "seed_a", "seed_b")


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


def _is_knockout(round_: Round) -> bool:
    return round_.event.is_team and round_.stage.format == Stage.Format.SINGLE_ELIMINATION


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
