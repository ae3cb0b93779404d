"""Announcements (赛场通知): the organiser sends a short message to every table phone,
the referees' pages and the projector of one event.

Delivered by the live push that is already there (`matches.push`, docs/live.md): on commit one
notice `{"kind": "announcement"}` goes to the event's staff channel (the organiser's pages), its
rounds channel (every referee's home and every table phone of the event) and its public channel
(the projector). A notice carries no text: each page fetches its announcements fragment, so a
withdrawn message is gone at the next fetch and nothing is sent to a page that is not the
event's. Each device hides a message once dismissed (`static/js/announcements.js`, by id in
the browser's storage); a reload shows it again until then. The rows are the log.

Each message ends as the organiser says when sending it (`ending`): with the round being played
(gone once that round is closed or a later round is published), at a time of the day, or when
withdrawn. The screens drop an ended one at their next fetch (the projector's, every page
cycle; the phones', on a live notice or every minute).
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from matches import push
from matches.models import Announcement, Event, Round

#: The newest active announcements a page shows (older ones stay in the organiser's log).
SHOWN = 5


class AnnouncementRefused(Exception):
    """Said to the organiser in words, at the form."""


def clean_text(text: str) -> str:
    """The message as sent: trimmed, one line per line; refused when empty or too long."""
    cleaned = "\n".join(line.strip() for line in (text or "").strip().splitlines()).strip()
    if not cleaned:
        raise AnnouncementRefused(_("请填写通知内容"))
    if len(cleaned) > Announcement.MAX_LENGTH:
        raise AnnouncementRefused(
            _("通知最多 %(most)d 字，现在是 %(n)d 字")
            % {"most": Announcement.MAX_LENGTH, "n": len(cleaned)}
        )
    return cleaned


#: How a message ends, as the send form offers it.
ENDS_WITH_ROUND, ENDS_AT_TIME, ENDS_WHEN_WITHDRAWN = "round", "time", "withdrawn"


def round_in_play(event: Event) -> int | None:
    """The number of the round being played (the newest published one), if any."""
    return (
        Round.objects.filter(event=event, state=Round.State.PUBLISHED)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


def _ending(event: Event, ending: str, until: str) -> dict:
    """The row's ending fields from the form's choice: the round in play, a time later today
    (HH:MM, the event's local time), or none."""
    if ending == ENDS_WITH_ROUND:
        number = round_in_play(event)
        if number is None:
            raise AnnouncementRefused(_("现在没有进行中的轮次：请选撤下时间，或一直显示"))
        return {"ends_with_round": number}
    if ending == ENDS_AT_TIME:
        try:
            clock = datetime.time.fromisoformat((until or "").strip())
        except ValueError:
            raise AnnouncementRefused(_("请填写撤下时间，如 10:30")) from None
        now = timezone.localtime()
        at = now.replace(hour=clock.hour, minute=clock.minute, second=0, microsecond=0)
        if at <= now:
            raise AnnouncementRefused(
                _("撤下时间 %(at)s 已过：请填今天稍后的时间") % {"at": clock.strftime("%H:%M")}
            )
        return {"expires_at": at}
    if ending == ENDS_WHEN_WITHDRAWN:
        return {}
    raise AnnouncementRefused(_("请选择通知何时撤下"))


def send(
    event: Event, user, text: str, ending: str = ENDS_WHEN_WITHDRAWN, until: str = ""
) -> Announcement:
    """Record the announcement and tell the event's pages on commit. The caller has checked
    that `user` organises `event` (`permissions.can_manage_event`). `ending`: how it ends
    (`ENDS_WITH_ROUND`, `ENDS_AT_TIME` at `until`, HH:MM, or `ENDS_WHEN_WITHDRAWN`)."""
    if event.archived_at is not None:
        raise AnnouncementRefused(_("赛事已归档，不能发送通知"))
    cleaned = clean_text(text)
    announcement = Announcement.objects.create(
        event=event, text=cleaned, author=user, **_ending(event, ending, until)
    )
    _tell(event.pk)
    return announcement


def withdraw(announcement: Announcement, user) -> bool:
    """Take the announcement off every screen; False when it was withdrawn already."""
    updated = Announcement.objects.filter(pk=announcement.pk, withdrawn_at__isnull=True).update(
        withdrawn_at=timezone.now(), withdrawn_by=user
    )
    announcement.refresh_from_db()
    if updated:
        _tell(announcement.event_id)
    return bool(updated)


def _round_over() -> Exists:
    """Whether an announcement's round has ended: it is closed, or a later round of the event
    is published or closed (one subquery: the pages' query counts stay)."""
    return Exists(
        Round.objects.filter(event_id=OuterRef("event_id"))
        .exclude(state=Round.State.DRAFT)
        .filter(
            Q(number__gt=OuterRef("ends_with_round"))
            | Q(number=OuterRef("ends_with_round"), state=Round.State.CLOSED)
        )
    )


def _showing(now: datetime.datetime) -> Q:
    return (
        Q(withdrawn_at__isnull=True)
        & (Q(expires_at__isnull=True) | Q(expires_at__gt=now))
        & (Q(ends_with_round__isnull=True) | Q(round_over=False))
    )


def active(event_id: int) -> list[Announcement]:
    """What the event's screens show now, newest first: not withdrawn, not ended."""
    return list(
        Announcement.objects.filter(event_id=event_id)
        .annotate(round_over=_round_over())
        .filter(_showing(timezone.now()))
        .order_by("-created_at", "-id")[:SHOWN]
    )


def log(event: Event) -> list:
    """Every message sent, newest first; `ended`: its round or its time is over."""
    over = (Q(ends_with_round__isnull=False) & Q(round_over=True)) | Q(
        expires_at__lte=timezone.now()
    )
    return list(
        Announcement.objects.filter(event=event)
        .select_related("author", "withdrawn_by")
        .annotate(round_over=_round_over())
        .annotate(ended=ExpressionWrapper(over, output_field=BooleanField()))
        .order_by("-created_at", "-id")[:100]
    )


def _tell(event_id: int) -> None:
    notice = push.notice("announcement")
    channels = (
        push.staff_event(event_id),
        push.staff_rounds(event_id),
        push.public_event(event_id),
    )
    transaction.on_commit(lambda: push.hub.publish_many([(c, notice) for c in channels]))
