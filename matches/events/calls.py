"""Call the referee (呼叫裁判): a table's phone calls its referees; the call shows on
their home list and on the organiser's queue until a referee or an organiser acknowledges it.

A second press while a call is open returns that call (the database holds one open call per
table). After an acknowledgement the table may call again only once `CALL_GAP_SECONDS` have
passed since its last call: a child pressing the button cannot flood the referees' lists.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.events import notify
from matches.models import RefereeCall, Round, Table

CALL_GAP_SECONDS = 60


class CallRefused(Exception):
    def __init__(self, message: str, wait: int = 0):
        super().__init__(message)
        self.wait = wait


#: How long the table's phone says its call was answered (then only the button is left).
ANSWERED_SHOWN_SECONDS = 300


def open_call(table: Table) -> RefereeCall | None:
    return RefereeCall.objects.filter(table=table).filter(acknowledged_at__isnull=True).first()


def answered_call(table: Table, *, now=None) -> RefereeCall | None:
    """The table's last call, if a referee answered it in the last few minutes."""
    since = (now or timezone.now()) - timedelta(seconds=ANSWERED_SHOWN_SECONDS)
    return (
        RefereeCall.objects.filter(table=table, acknowledged_at__gte=since)
        .select_related("acknowledged_by")
        .order_by("-acknowledged_at")
        .first()
    )


def call_referee(table: Table, *, now=None) -> tuple[RefereeCall, bool]:
    """The table's open call (created now, or the one already open) and whether it is new."""
    now = now or timezone.now()
    if table.round.state != Round.State.PUBLISHED:
        raise CallRefused(_("本轮不在进行中，不能呼叫裁判"))
    existing = open_call(table)
    if existing is not None:
        return existing, False
    last = RefereeCall.objects.filter(table=table).order_by("-called_at").first()
    if last is not None and now - last.called_at < timedelta(seconds=CALL_GAP_SECONDS):
        wait = CALL_GAP_SECONDS - int((now - last.called_at).total_seconds())
        raise CallRefused(_("刚刚呼叫过，请 %(s)d 秒后再呼叫") % {"s": wait}, wait=wait)
    try:
        with transaction.atomic():
            call = RefereeCall.objects.create(table=table, called_at=now)
            _tell_staff(table)
            return call, True
    except IntegrityError:  # two presses at once: the other one made the call
        made = open_call(table)
        if made is None:  # acknowledged in between: a new press is needed
            raise
        return made, False


def acknowledge(call: RefereeCall, user) -> bool:
    """Mark the call answered by `user`; False when someone answered it already."""
    with transaction.atomic():
        updated = RefereeCall.objects.filter(pk=call.pk, acknowledged_at__isnull=True).update(
            acknowledged_at=timezone.now(), acknowledged_by=user
        )
        call.refresh_from_db()
        if updated:
            _tell_staff(call.table)
    return bool(updated)


def _tell_staff(table: Table) -> None:
    """The table's referees' lists and the organiser's queue show calls: they hear of it now
    (live push) rather than at their next poll."""
    match_id = getattr(getattr(table, "match", None), "pk", None)
    notify.changed(table.round.event_id, match_id)


def open_calls(tables) -> dict[int, RefereeCall]:
    """table id -> its open call, for these tables (a queryset or a list of ids)."""
    return {
        call.table_id: call
        for call in RefereeCall.objects.filter(table__in=tables, acknowledged_at__isnull=True)
    }


def open_calls_of_round(round_: Round) -> list[RefereeCall]:
    return list(
        RefereeCall.objects.filter(table__round=round_, acknowledged_at__isnull=True)
        .select_related("table")
        .order_by("called_at")
    )
