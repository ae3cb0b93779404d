"""Entries: register unions or players, check them in, late entries and withdrawals.

An entry can be made at any time: a late entry plays from the next round not yet drawn (while a
round is a draft, the organiser may redraw it to take the entry in: `draw.service.redraw_round`).
A withdrawal plays no round after the last one drawn.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from matches.models import Event, Registration, Union, UnionMember
from matches.public import find_terms


class RegistrationRefused(Exception):
    pass


def union_size(event: Event) -> int:
    """Players a union of the event holds: half its game's table (three at six seats, four at
    eight); 1 in an individual event."""
    if not event.is_team:
        return 1
    return event.adapter.table_shape(event).union_size


def next_round_number(event: Event) -> int:
    return (event.rounds.aggregate(last=Max("number"))["last"] or 0) + 1


def _joins_round(event: Event) -> int:
    """The next round not yet drawn (a draft's redraw may take the entry in earlier)."""
    return next_round_number(event)


@transaction.atomic
def register_union(
    event: Event, name: str, players: list, *, captain=None, club=None, seed: int | None = None
) -> Registration:
    """A union of as many players as a side of the table holds (`union_size`), in seat order;
    the captain defaults to the first."""
    if not event.is_team:
        raise RegistrationRefused(_("个人赛按选手报名"))
    size = union_size(event)
    if len(players) != size or len({p.pk for p in players}) != size:
        raise RegistrationRefused(_("联邦须由 %(n)s 名不同选手组成") % {"n": size})
    captain = captain or players[0]
    if captain not in players:
        raise RegistrationRefused(_("队长须是联邦成员"))
    taken = UnionMember.objects.filter(
        event=event, round__isnull=True, player__in=players
    ).select_related("player", "union")
    if taken:
        member = taken[0]
        raise RegistrationRefused(
            _("%(player)s 已在联邦 %(union)s 中") % {"player": member.player, "union": member.union}
        )
    joins = _joins_round(event)
    try:
        with transaction.atomic():
            union = Union.objects.create(event=event, name=name, club=club)
            for order, player in enumerate(players, start=1):
                UnionMember.objects.create(
                    union=union, player=player, order=order, is_captain=player == captain
                )
            return Registration.objects.create(
                event=event, union=union, seed=seed, joins_round=joins
            )
    except IntegrityError as error:
        raise RegistrationRefused(_("联邦名称或种子序号已被占用")) from error


def register_new_union(
    event: Event, name: str, players: list, *, captain: int = 1, club=None, private_token=None
) -> Registration:
    """`register_union` for players just made (a registration from the public page): they can
    be in no union yet, so their members are written in one insert. No post_save receiver of
    a member has work for a union not yet entered (find's terms come with the entry's save).
    Call inside a transaction; a union of the same name is RegistrationRefused."""
    if not event.is_team:
        raise RegistrationRefused(_("个人赛按选手报名"))
    size = union_size(event)
    if len(players) != size or len({p.pk for p in players}) != size:
        raise RegistrationRefused(_("联邦须由 %(n)s 名不同选手组成") % {"n": size})
    joins = _joins_round(event)
    try:
        with transaction.atomic():
            union = Union.objects.create(event=event, name=name, club=club)
            UnionMember.objects.bulk_create(
                UnionMember(
                    union=union,
                    event_id=event.pk,
                    player=player,
                    order=order,
                    is_captain=order == captain,
                )
                for order, player in enumerate(players, start=1)
            )
            entry = Registration(
                event=event, union=union, joins_round=joins, private_token=private_token
            )
            entry.terms_written = True  # below, in one go (matches/receivers.py)
            entry.save(force_insert=True)
            find_terms.index_new_union(union, players)
            return entry
    except IntegrityError as error:
        raise RegistrationRefused(_("联邦名称或种子序号已被占用")) from error


@transaction.atomic
def register_player(
    event: Event, player, *, seed: int | None = None, private_token=None
) -> Registration:
    if event.is_team:
        raise RegistrationRefused(_("团体赛按联邦报名"))
    joins = _joins_round(event)
    try:
        with transaction.atomic():
            return Registration.objects.create(
                event=event,
                player=player,
                seed=seed,
                joins_round=joins,
                private_token=private_token,
            )
    except IntegrityError as error:
        raise RegistrationRefused(_("该选手已报名或种子序号已被占用")) from error


def check_in(registration: Registration) -> Registration:
    if registration.status == Registration.Status.WITHDRAWN:
        raise RegistrationRefused(_("已退赛，不能签到"))
    registration.check_in()
    return registration


def withdraw(registration: Registration) -> Registration:
    """Out from the next round on; results already played stay."""
    event = registration.event
    if event.rounds.filter(state="draft").exists():
        raise RegistrationRefused(_("草稿轮次中仍有该报名：请先重新编排或公布后再退赛"))
    registration.withdraw(after_round=next_round_number(event) - 1)
    return registration
