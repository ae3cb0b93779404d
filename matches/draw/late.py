"""After publishing: unpublish, late changes to a published round, withdrawals.

A late change re-seats only the tables it must and names them; a table with any reported deal
is never touched (its result stands, or the organiser awards a forfeit instead). Every action
is written to the round's audit log.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from matches import signals
from matches.draw.hand_swaps import describe_matches, reflag_team
from matches.draw.refusals import SeatingRefused
from matches.kernel.pairing import types as flags
from matches.models import (
    DealReport,
    Match,
    MatchSide,
    Registration,
    Round,
    RoundLog,
    Table,
    TableSeat,
    Union,
    UnionMember,
)
from matches.models.round import SIDE_A, SIDE_B
from matches.store import chain

if TYPE_CHECKING:
    from matches.kernel.engine_types import TableShape


def _has_reports(match: Match) -> bool:
    return DealReport.objects.filter(deal__match=match).exists()


def round_has_results(round_: Round) -> bool:
    """Any reported deal, forfeit or stopped match in the round (a bye's preset points aside)."""
    return (
        DealReport.objects.filter(deal__match__round=round_).exists()
        or round_.matches.exclude(forfeit="").exists()
        or round_.matches.filter(stopped_after__isnull=False).exists()
        or round_.matches.played().filter(completed_at__isnull=False).exists()
    )


@transaction.atomic
def unpublish_round(round_: Round, *, user=None) -> Round:
    """Back to draft while no result is in, e.g. to repair the draw before anyone plays."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.state != Round.State.PUBLISHED:
        raise SeatingRefused(_("只能撤回已公布且未结束的轮次"))
    if round_has_results(round_):
        raise SeatingRefused(_("本轮已有成绩，不能撤回公布"))
    round_.state = Round.State.DRAFT
    round_.published_at = None
    round_.save(update_fields=["state", "published_at"])
    chain.withdraw_byes(round_)
    RoundLog.objects.create(round=round_, action=RoundLog.Action.UNPUBLISH, user=user)
    signals.announce_round_change(round_, signals.UNPUBLISHED)
    return round_


def _members(union_ids) -> dict:
    members = defaultdict(list)
    for member in UnionMember.objects.filter(union_id__in=union_ids).order_by("order"):
        members[member.union_id].append(member.player_id)
    return members


def _seat(match: Match, union_id: int, side: str, players: list, shape: TableShape) -> None:
    MatchSide.objects.create(round_id=match.round_id, match=match, union_id=union_id, position=side)
    assert match.table is not None  # seated sides sit at a table
    for seat_number, player_id in zip(shape.seats_of(side), players):
        TableSeat.objects.create(
            table=match.table,
            round_id=match.round_id,
            seat=seat_number,
            side=side,
            player_id=player_id,
            union_id=union_id,
        )


def _published(round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.state != Round.State.PUBLISHED:
        raise SeatingRefused(_("临时变动只用于已公布、未结束的轮次；草稿请直接调整编排"))
    if not round_.event.is_team:
        raise SeatingRefused(_("个人赛请重新编排"))
    return round_


@transaction.atomic
def late_add(round_: Round, union: Union, *, user=None) -> dict:
    """A union arrives after the round was published. It takes on the round's bye (a new table
    for the two of them) or, when there is none, has the bye itself. Returns what changed."""
    round_ = _published(round_)
    if union.event_id != round_.event_id or union.round_id is not None:
        raise SeatingRefused(_("联邦不属于本赛事"))
    if round_.sides.filter(union=union).exists():
        raise SeatingRefused(_("该联邦已在本轮编排中"))
    members = _members([union.pk])
    shape = round_.event.adapter.table_shape(round_.event)
    if len(members[union.pk]) != shape.union_size:
        raise SeatingRefused(
            _("以下联邦的选手不是 %(n)s 名：") % {"n": shape.union_size} + union.name
        )
    registration = Registration.objects.filter(event=round_.event, union=union).first()
    if registration is None:
        raise SeatingRefused(_("该联邦尚未报名"))
    if registration.status == Registration.Status.WITHDRAWN:
        raise SeatingRefused(_("该联邦已退赛"))
    if registration.status != Registration.Status.CHECKED_IN:
        registration.check_in()
    if registration.joins_round > round_.number:
        registration.joins_round = round_.number
        registration.save(update_fields=["joins_round"])
    bye = round_.matches.with_sides().filter(table__isnull=True).first()
    if bye is not None and not _has_reports(bye):
        number = (round_.tables.aggregate(n=Max("number"))["n"] or 0) + 1
        table = Table.objects.create(round=round_, number=number)
        holder = bye.union_a_id
        MatchSide.objects.filter(match=bye).delete()
        bye.table = table
        bye.points_a = bye.score_a = bye.completed_at = None
        bye.details = {}
        bye.save(update_fields=["table", "points_a", "score_a", "completed_at", "details"])
        seated = _members([holder])
        _seat(bye, holder, SIDE_A, seated[holder], shape)
        _seat(bye, union.pk, SIDE_B, members[union.pk], shape)
        reflag_team(round_, [bye])
        change = {"tables": [number], "new_table": number, "opponent": holder}
        match = bye
    else:
        event = round_.event
        match = Match.objects.create(
            round=round_,
            flags=[flags.BYE],
            details={"late": True},
            points_a=event.points_bye,
            score_a=event.bye_score,
            completed_at=timezone.now(),
        )
        MatchSide.objects.create(round=round_, match=match, union=union, position=MatchSide.BYE)
        change = {"tables": [], "bye": True}
    RoundLog.objects.create(
        round=round_,
        action=RoundLog.Action.LATE_CHANGE,
        user=user,
        details={
            "change": "arrive",
            "union": union.pk,
            **change,
            "after": describe_matches([match]),
        },
    )
    chain.sync_byes(round_)  # a bye made or undone is in the result chain
    return change


@transaction.atomic
def late_withdraw(round_: Round, union: Union, *, user=None) -> dict:
    """A union leaves during a published round before playing: its opponent takes on the
    round's bye union when there is one (only that table changes), else has the bye. A table
    with a reported deal is left alone: award a forfeit there instead."""
    round_ = _published(round_)
    entry = round_.sides.select_related("match__table").filter(union=union).first()
    if entry is None:
        raise SeatingRefused(_("联邦不在本轮编排中"))
    match = entry.match
    if _has_reports(match) or match.forfeit:
        raise SeatingRefused(_("本桌已有成绩，成绩保留；请改判弃权"))
    registration = Registration.objects.filter(event=round_.event, union=union).first()
    if registration is not None:
        registration.withdraw(after_round=round_.number - 1)
    before = describe_matches([match])
    if match.is_bye:
        match.delete()  # the entry goes with it
        change = {"tables": [], "bye_removed": True}
    else:
        opponent = match.union_b_id if entry.position == SIDE_A else match.union_a_id
        assert match.table is not None  # not a bye
        table_number = match.table.number
        bye = round_.matches.with_sides().filter(table__isnull=True).exclude(pk=match.pk).first()
        TableSeat.objects.filter(table=match.table, union=union).delete()
        entry.delete()
        if bye is not None and not _has_reports(bye):
            holder = bye.union_a_id
            bye.delete()
            shape = round_.event.adapter.table_shape(round_.event)
            _seat(match, holder, entry.position, _members([holder])[holder], shape)
            reflag_team(round_, [match])
            change = {"tables": [table_number], "opponent": holder}
        else:
            # The opponent sits out: its table goes, the bye keeps the event's bye score.
            TableSeat.objects.filter(table=match.table).delete()
            MatchSide.objects.filter(match=match).delete()
            table = match.table
            event = round_.event
            match.delete()
            table.delete()
            bye_match = Match.objects.create(
                round=round_,
                flags=[flags.BYE],
                details={"late": True},
                points_a=event.points_bye,
                score_a=event.bye_score,
                completed_at=timezone.now(),
            )
            MatchSide.objects.create(
                round=round_, match=bye_match, union_id=opponent, position=MatchSide.BYE
            )
            change = {"tables": [table_number], "bye": opponent}
    RoundLog.objects.create(
        round=round_,
        action=RoundLog.Action.LATE_CHANGE,
        user=user,
        details={"change": "withdraw", "union": union.pk, **change, "before": before},
    )
    chain.sync_byes(round_)  # a bye made or undone is in the result chain
    return change


@transaction.atomic
def withdraw_union(event, union: Union, *, user=None) -> int:
    """A union withdraws between rounds: out of every later draw; its played matches stand.
    Returns the last round it played (0 before the first). A draft that holds it must be
    drawn again (the page says so)."""
    registration = Registration.objects.filter(event=event, union=union).first()
    if registration is None:
        raise SeatingRefused(_("该联邦尚未报名"))
    if registration.status == Registration.Status.WITHDRAWN:
        raise SeatingRefused(_("该联邦已退赛"))
    if event.rounds.filter(state=Round.State.PUBLISHED, sides__union=union).exists():
        raise SeatingRefused(_("该联邦在进行中的轮次里：请在该轮用临时变动让其退出"))
    last = event.rounds.filter(state=Round.State.CLOSED).aggregate(n=Max("number"))["n"] or 0
    registration.withdraw(after_round=last)
    round_ = event.rounds.filter(number=last).first()
    if round_ is not None:
        RoundLog.objects.create(
            round=round_,
            action=RoundLog.Action.WITHDRAW,
            user=user,
            details={"union": union.pk, "after_round": last, "at": timezone.now().isoformat()},
        )
    return last
