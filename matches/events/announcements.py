"""Announcements (赛场通知): the organiser sends a short message to every table phone,
the referees' pages and the projector of one event.

Delivered by the live push that is already there (`matches.push`, docs/live.md): on commit one
notice `{"kind": "announcement"}` goes to the event's staff channel (the organiser's pages), its
rounds channel (every referee's home and every table phone of the event) and its public channel
(the projector). A notice carries no text: each page fetches its announcements fragment, so a
withdrawn message is gone at the next fetch and nothing is sent to a page that is not the
event's. Each device hides a message once dismissed (`static/js/announcements.js`, by id in
the browser's storage); a reload shows it again until then. The rows are the log.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches import push
from matches.models import Announcement, Event

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


def send(event: Event, user, text: str) -> Announcement:
    """Record the announcement and tell the event's pages on commit. The caller has checked
    that `user` organises `event` (`permissions.can_manage_event`)."""
    if event.archived_at is not None:
        raise AnnouncementRefused(_("赛事已归档，不能发送通知"))
    announcement = Announcement.objects.create(event=event, text=clean_text(text), author=user)
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


def active(event_id: int) -> list[Announcement]:
    """What the event's screens show now, newest first."""
    return list(
        Announcement.objects.filter(event_id=event_id, withdrawn_at__isnull=True).order_by(
            "-created_at", "-id"
        )[:SHOWN]
    )


def log(event: Event) -> list[Announcement]:
    return list(
        Announcement.objects.filter(event=event)
        .select_related("author", "withdrawn_by")
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
