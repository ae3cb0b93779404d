"""Draw control on a draft round: the organiser's edits before publishing (an individual
event's: `move_player` here and `hand_swaps.swap_players`).

Every edit is built from one primitive, exchanging two unions' places (`hand_swaps.swap_places`), plus
exchanging the sides of one table. After each edit the changed tables are flagged again by the
engine's own `annotate` (rematch, same club, seat balance, score-group moves) and the edit is
written to the round's audit log (`RoundLog`, action "edit"); the function returns the changed
tables explained, as the organiser's page shows them.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from matches.draw import explanations, hand_swaps, refusals
from matches.draw.refusals import SeatingRefused
from matches.models import Match, MatchSide, Round, RoundLog, TableSeat, Union


def _locked_draft(round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    refusals.require_draft(round_)
    if not round_.event.is_team:
        raise SeatingRefused(_("个人赛请调换选手"))
    return round_


def _entry(round_: Round, union: Union) -> MatchSide:
    entry = round_.sides.select_related("match__table").filter(union=union).first()
    if entry is None:
        raise SeatingRefused(_("联邦不在本轮编排中"))
    return entry


def _match_at(round_: Round, table_number: int) -> Match:
    match = (
        round_.matches.with_sides()
        .select_related("table")
        .filter(table__number=table_number)
        .first()
    )
    if match is None:
        raise SeatingRefused(_("本轮没有第 %(n)s 桌") % {"n": table_number})
    return match


def _occupant(match: Match, side: str) -> Union:
    return Union.objects.get(pk=match.union_a_id if side == MatchSide.Side.A else match.union_b_id)


def _finish(round_: Round, kind: str, touched: dict, before: list, user, extra: dict) -> list[dict]:
    matches = Match.objects.with_sides().filter(pk__in=list(touched)).select_related("table")
    hand_swaps.require_valid_seats(round_, matches)
    hand_swaps.reflag_team(round_, matches)
    RoundLog.objects.create(
        round=round_,
        action=RoundLog.Action.EDIT,
        user=user,
        details={
            "edit": kind,
            **extra,
            "before": before,
            "after": hand_swaps.describe_matches(matches),
        },
    )
    return explanations.explain_tables(round_, matches)


@transaction.atomic
def move_union(round_: Round, union: Union, table_number: int, side: str, *, user=None):
    """Put `union` at table `table_number` on `side` (A or B: the seats the game's table gives
    it, 1-3-5 or 1-4 in Gou Ji); the union sitting there takes `union`'s old place (its table,
    or the bye)."""
    round_ = _locked_draft(round_)
    if side not in (MatchSide.Side.A, MatchSide.Side.B):
        raise SeatingRefused(_("请选择 A 方或 B 方"))
    target = _occupant(_match_at(round_, table_number), side)
    if target.pk == union.pk:
        raise SeatingRefused(_("该联邦已在此位置"))
    touched, before = hand_swaps.swap_places(round_, union, target)
    return _finish(
        round_,
        "move",
        touched,
        before,
        user,
        {"union": union.pk, "table": table_number, "side": side, "displaced": target.pk},
    )


@transaction.atomic
def swap_sides(round_: Round, table_number: int, *, user=None):
    """The two unions of a table change sides (side A's seats ↔ side B's)."""
    round_ = _locked_draft(round_)
    match = _match_at(round_, table_number)
    first, second = _occupant(match, "A"), _occupant(match, "B")
    touched, before = hand_swaps.swap_places(round_, first, second)
    return _finish(round_, "swap_sides", touched, before, user, {"table": table_number})


@transaction.atomic
def pair_by_hand(round_: Round, table_number: int, union_a: Union, union_b: Union, *, user=None):
    """Seat `union_a` (side A's seats) against `union_b` (side B's) at table `table_number`; the
    two unions that sat there take the places `union_a` and `union_b` left."""
    round_ = _locked_draft(round_)
    if union_a.pk == union_b.pk:
        raise SeatingRefused(_("请选择两个不同的联邦"))
    _entry(round_, union_a), _entry(round_, union_b)
    touched, before = {}, []
    for union, side in ((union_a, "A"), (union_b, "B")):
        match = _match_at(round_, table_number)
        target = _occupant(match, side)
        if target.pk != union.pk:
            changed, was = hand_swaps.swap_places(round_, union, target)
            touched.update(changed)
            before += [b for b in was if b not in before]
    if not touched:
        raise SeatingRefused(_("这两个联邦已在此桌"))
    return _finish(
        round_,
        "pair",
        touched,
        before,
        user,
        {"table": table_number, "unions": [union_a.pk, union_b.pk]},
    )


@transaction.atomic
def give_bye(round_: Round, union: Union, *, user=None):
    """Move the round's bye to `union`: the union that had it takes `union`'s seat."""
    round_ = _locked_draft(round_)
    holder = round_.sides.filter(position=MatchSide.BYE).select_related("union").first()
    if holder is None or holder.union is None:
        raise SeatingRefused(_("本轮没有轮空"))
    if holder.union_id == union.pk:
        raise SeatingRefused(_("该联邦已轮空"))
    _entry(round_, union)
    touched, before = hand_swaps.swap_places(round_, holder.union, union)
    return _finish(
        round_, "bye", touched, before, user, {"union": union.pk, "from": holder.union_id}
    )


@transaction.atomic
def move_player(round_: Round, player_id: int, table_number: int, seat: int, *, user=None):
    """Individual events: put a player in `seat` of table `table_number`; the player sitting
    there takes the mover's place (their seat, or sitting out). One exchange of two players,
    checked, re-flagged and logged as `hand_swaps.swap_players` does."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    refusals.require_draft(round_)
    if round_.event.is_team:
        raise SeatingRefused(_("团体赛请移动联邦"))
    occupant = TableSeat.objects.filter(round=round_, table__number=table_number, seat=seat).first()
    if occupant is None:
        raise SeatingRefused(_("本轮没有第 %(n)s 桌第 %(s)s 座") % {"n": table_number, "s": seat})
    if occupant.player_id == player_id:
        raise SeatingRefused(_("该选手已在此座位"))
    return hand_swaps.swap_players(round_, player_id, occupant.player_id, user=user)
