"""Check-in per round: who is here for the round being drawn (a draft until it is published)
or, when none is, for the next round to be drawn.

A check-in is made for one round (Registration.checked_in_round). For each round the organiser
decides whether check-ins made for earlier rounds still count (CheckInRound.carry_over, default
yes); the draw reads who is here from the same rows (`matches/draw/entrants.py`: `fresh_from`,
`present_q`) and ignores older check-ins.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.draw.entrants import in_seed_order, present_q
from matches.models import CheckInRound, Event, Registration

#: How many absent entries the check-in warning names (then a count of the others).
ABSENT_NAMES = 30


class CheckInRefused(Exception):
    pass


def next_round(event: Event) -> int:
    """The round check-in is for: the draft being drawn, else the next one to be drawn. (A
    union checked in while its round is a draft is then named on the draft as missing.)"""
    latest = event.rounds.order_by("-number").first()
    if latest is None:
        return 1
    return latest.number if latest.is_draft else latest.number + 1


def carries_over(event: Event, round_number: int) -> bool:
    decision = CheckInRound.objects.filter(event=event, number=round_number).first()
    return decision.carry_over if decision else True


def set_carry_over(event: Event, round_number: int, carry_over: bool, *, user=None) -> None:
    if round_number <= 1:
        raise CheckInRefused(_("第 1 轮没有上一轮的签到可沿用"))
    if event.rounds.filter(number__gte=round_number).exclude(state="draft").exists():
        raise CheckInRefused(_("第 %(n)s 轮已编排，不能再改签到方式") % {"n": round_number})
    CheckInRound.objects.update_or_create(
        event=event,
        number=round_number,
        defaults={"carry_over": carry_over, "decided_by": user, "decided_at": timezone.now()},
    )


def expected_q(round_number: int) -> Q:
    """Registrations that would play `round_number` if checked in (not withdrawn, joined)."""
    return Q(joins_round__lte=round_number) & (
        ~Q(status=Registration.Status.WITHDRAWN) | Q(withdrawn_after__gte=round_number)
    )


def listed_q(event: Event, round_number: int) -> Q:
    """Registrations the check-in for `round_number` lists: those expected in it and, while the
    round is a draft, those that arrived since (a redraw takes them in)."""
    if event.rounds.filter(number=round_number, state="draft").exists():
        return expected_q(round_number) | (
            Q(joins_round=round_number + 1) & ~Q(status=Registration.Status.WITHDRAWN)
        )
    return expected_q(round_number)


def summary(event: Event, round_number: int | None = None) -> dict:
    """What the draw of the next round will see: how many are expected and how many are here."""
    number = round_number or next_round(event)
    expected = event.registrations.filter(listed_q(event, number))
    total = expected.count()
    absent = expected.exclude(present_q(event, number))
    missing = absent.count() if event.check_in_required else 0
    return {
        "round": number,
        "total": total,
        "present": total - missing,
        "missing": missing,
        # The first names (a festival's thousands are a count); the pages show these.
        "absent": [str(r.entrant) for r in in_seed_order(absent)[:ABSENT_NAMES]] if missing else [],
        "required": event.check_in_required,
    }


def _writable(registration: Registration) -> None:
    if registration.status == Registration.Status.WITHDRAWN:
        raise CheckInRefused(_("已退赛，不能签到"))


def check_in(registration: Registration, round_number: int | None = None) -> Registration:
    _writable(registration)
    registration.check_in(round_number or next_round(registration.event))
    return registration


def undo(registration: Registration) -> Registration:
    _writable(registration)
    registration.status, registration.checked_in_at = Registration.Status.REGISTERED, None
    registration.checked_in_round = None
    registration.save(update_fields=["status", "checked_in_at", "checked_in_round"])
    return registration


@transaction.atomic
def check_in_many(event: Event, registrations, round_number: int | None = None) -> list[int]:
    """Check in every given registration that is not yet here; returns the ids changed (for
    undo)."""
    number = round_number or next_round(event)
    pending = (
        registrations.filter(listed_q(event, number))
        .exclude(present_q(event, number))
        .exclude(status=Registration.Status.WITHDRAWN)
    )
    ids = list(pending.values_list("pk", flat=True))
    Registration.objects.filter(pk__in=ids).update(
        status=Registration.Status.CHECKED_IN, checked_in_at=timezone.now(), checked_in_round=number
    )
    return ids


@transaction.atomic
def undo_many(event: Event, ids: list[int]) -> int:
    return event.registrations.filter(pk__in=ids, status=Registration.Status.CHECKED_IN).update(
        status=Registration.Status.REGISTERED, checked_in_at=None, checked_in_round=None
    )


def private_token(registration: Registration) -> str:
    """The entry's private link token, made on first use."""
    if not registration.private_token:
        registration.private_token = secrets.token_urlsafe(18)
        registration.save(update_fields=["private_token"])
    return registration.private_token


def self_check_in(registration: Registration) -> Registration:
    if not registration.event.self_check_in:
        raise CheckInRefused(_("本赛事不开放自助签到，请到签到台签到"))
    return check_in(registration)
