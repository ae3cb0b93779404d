"""The hall's clock: a round's timer, started, paused, resumed and extended by the
organiser on the round page, shown on the projector and the table phones.

The server keeps the deadline (or, paused, the seconds left); pages count down in the browser
from the seconds left when they were served (`static/js/clock.js`), so a phone's wrong clock
does not matter. Every action is written to the round's log like the other round actions.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.draw.refusals import SeatingRefused
from matches.models import Round, RoundClock, RoundLog

#: Longest round and longest single extension the form accepts, in minutes.
MAX_MINUTES = 600
MAX_EXTEND = 120


def _minutes(value, most: int) -> int:
    try:
        minutes = int(str(value).strip())
    except (TypeError, ValueError):
        raise SeatingRefused(_("请填写分钟数"))
    if not 1 <= minutes <= most:
        raise SeatingRefused(_("分钟数须在 1 到 %(n)s 之间") % {"n": most})
    return minutes


def _locked(round_: Round) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.state != Round.State.PUBLISHED:
        raise SeatingRefused(_("只有已公布的轮次可以计时"))
    return round_


def _log(round_: Round, action: str, user, **details) -> None:
    RoundLog.objects.create(
        round=round_,
        action=action,
        user=user if user is not None and user.is_authenticated else None,
        details=details,
    )


def clock_of(round_: Round) -> RoundClock | None:
    return RoundClock.objects.filter(round=round_).first()


@transaction.atomic
def start(round_: Round, minutes, *, user=None) -> RoundClock:
    """Start (or start again) the round's clock for `minutes` from now."""
    round_ = _locked(round_)
    minutes = _minutes(minutes, MAX_MINUTES)
    now = timezone.now()
    clock, _created = RoundClock.objects.update_or_create(
        round=round_,
        defaults={
            "minutes": minutes,
            "started_at": now,
            "deadline": now + timedelta(minutes=minutes),
            "paused_left": None,
        },
    )
    _log(round_, RoundLog.Action.CLOCK_START, user, minutes=minutes)
    return clock


def _clock(round_: Round) -> RoundClock:
    clock = RoundClock.objects.select_for_update().filter(round=round_).first()
    if clock is None:
        raise SeatingRefused(_("本轮还没有开始计时"))
    return clock


@transaction.atomic
def pause(round_: Round, *, user=None) -> RoundClock:
    round_ = _locked(round_)
    clock = _clock(round_)
    if clock.paused:
        raise SeatingRefused(_("计时已经暂停"))
    left = clock.seconds_left()
    clock.deadline, clock.paused_left = None, left
    clock.save(update_fields=["deadline", "paused_left"])
    _log(round_, RoundLog.Action.CLOCK_PAUSE, user, seconds_left=left)
    return clock


@transaction.atomic
def resume(round_: Round, *, user=None) -> RoundClock:
    round_ = _locked(round_)
    clock = _clock(round_)
    if not clock.paused:
        raise SeatingRefused(_("计时没有暂停"))
    left = clock.paused_left or 0
    clock.deadline, clock.paused_left = timezone.now() + timedelta(seconds=left), None
    clock.save(update_fields=["deadline", "paused_left"])
    _log(round_, RoundLog.Action.CLOCK_RESUME, user, seconds_left=left)
    return clock


@transaction.atomic
def extend(round_: Round, minutes, *, user=None) -> RoundClock:
    """Add minutes to the time left (running or paused; after zero, from now)."""
    round_ = _locked(round_)
    clock = _clock(round_)
    minutes = _minutes(minutes, MAX_EXTEND)
    if clock.deadline is None:  # paused
        clock.paused_left = (clock.paused_left or 0) + minutes * 60
    else:
        clock.deadline = max(clock.deadline, timezone.now()) + timedelta(minutes=minutes)
    clock.minutes += minutes
    clock.save(update_fields=["deadline", "paused_left", "minutes"])
    _log(round_, RoundLog.Action.CLOCK_EXTEND, user, minutes=minutes)
    return clock


def state(clock: RoundClock | None, now=None) -> dict:
    """What the pages and the JSON show: off, running, paused or over, and the seconds left."""
    if clock is None:
        return {"state": "off", "seconds_left": None, "minutes": None}
    left = clock.seconds_left(now)
    status = "paused" if clock.paused else ("over" if left == 0 else "running")
    return {"state": status, "seconds_left": left, "minutes": clock.minutes}
