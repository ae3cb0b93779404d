"""What each side knows of the other.

- The mirror: when the hall last reported (the box's heartbeat row, `HallBeat`, replicated like
  every row) and whether that is too long ago (`HALLBOX_STALE_SECONDS`): then the public pages
  say "最后更新 14:05 · 赛场网络中断".
- The box: how far behind the mirror is, from PostgreSQL's own view of the subscription's
  replication slot (`pg_replication_slots`, `pg_stat_replication`), and the newest heartbeat
  the mirror holds: the time the mirror's banner shows, so both name one time for one cut.
- The mirror: whether its subscription's worker is running and when it last heard the box
  (`pg_stat_subscription`).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from hall.models import BeatMark, HallBeat
from hall.roles import is_box, is_mirror

PUBLICATION = "gouji_hall"
SUBSCRIPTION = "gouji_mirror"  # also the name of its replication slot on the box

_local = threading.local()
MARKS_KEPT_SECONDS = 3 * 24 * 3600  # a mirror gone longer than this: "since before"
_BEAT_CACHE_SECONDS = 1.0  # one query a second per process, not one per page


@dataclass(frozen=True)
class HallState:
    last_beat: datetime | None
    stale: bool

    @property
    def known(self) -> bool:
        return self.last_beat is not None


def last_beat(fresh: bool = False) -> datetime | None:
    now = time.monotonic()
    kept = getattr(_local, "beat", None)
    if not fresh and kept is not None and now - kept[0] < _BEAT_CACHE_SECONDS:
        return kept[1]
    value = HallBeat.objects.order_by("-beat_at").values_list("beat_at", flat=True).first()
    _local.beat = (now, value)
    return value


def hall_state(fresh: bool = False) -> HallState:
    """On a mirror: the hall's last report and whether it is stale. Elsewhere: never stale."""
    if not is_mirror():
        return HallState(None, False)
    beat = last_beat(fresh)
    if beat is None:
        return HallState(None, False)  # not set up yet: nothing to warn about
    age = (timezone.now() - beat).total_seconds()
    return HallState(beat, age > settings.HALLBOX_STALE_SECONDS)


def beat(name: str = "hall") -> datetime:
    """The box's heartbeat: one row, rewritten (`manage.py hallbox beat`), and its place in the
    WAL noted in the same transaction (`BeatMark`)."""
    now = timezone.now()
    with transaction.atomic():
        updated = HallBeat.objects.filter(pk=1).update(beat_at=now, name=name)
        if not updated:
            HallBeat.objects.update_or_create(pk=1, defaults={"beat_at": now, "name": name})
        if connection.vendor == "postgresql":
            _mark(now)
    return now


def _mark(at: datetime) -> None:
    """Note where the beat is in the WAL: taken inside its transaction, so below its commit
    record, which the mirror confirms once it holds the beat. Forget the marks the mirror no
    longer needs (older than the newest one it confirmed) and any older than
    MARKS_KEPT_SECONDS."""
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO hall_beatmark (beat_at, lsn) "
            "VALUES (%s, (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint)",
            [at],
        )
    held = _held_mark()
    old = BeatMark.objects.filter(beat_at__lt=at - timedelta(seconds=MARKS_KEPT_SECONDS))
    if held is not None:
        old = old | BeatMark.objects.filter(lsn__lt=held[1])
    old.delete()


def _held_mark() -> tuple[datetime, int] | None:
    """The newest heartbeat the mirror has confirmed (its time, its WAL position), or None."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT m.beat_at, m.lsn FROM hall_beatmark m, pg_replication_slots s
            WHERE s.slot_name = %s
              AND m.lsn <= (s.confirmed_flush_lsn - '0/0'::pg_lsn)::bigint
            ORDER BY m.lsn DESC LIMIT 1
            """,
            [SUBSCRIPTION],
        )
        row = cursor.fetchone()
    return (row[0], row[1]) if row else None


@dataclass(frozen=True)
class MirrorLag:
    set_up: bool  # a replication slot of the subscription exists on this box
    connected: bool = False
    behind_bytes: int | None = None
    replay_lag: float | None = None  # seconds, while connected
    # The newest heartbeat the mirror holds: its public pages show the box's data up to then
    # (while cut off, its banner says "最后更新" with this time).
    holds_until: datetime | None = None


def mirror_lag() -> MirrorLag:
    """The mirror's lag as the box sees it. PostgreSQL only; elsewhere "not set up"."""
    if not is_box() or connection.vendor != "postgresql":
        return MirrorLag(False)
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT s.active,
                   pg_wal_lsn_diff(pg_current_wal_lsn(), s.confirmed_flush_lsn)::bigint,
                   EXTRACT(EPOCH FROM r.replay_lag)::float
            FROM pg_replication_slots s
            LEFT JOIN pg_stat_replication r ON r.pid = s.active_pid
            WHERE s.slot_name = %s
            """,
            [SUBSCRIPTION],
        )
        row = cursor.fetchone()
    if row is None:
        return MirrorLag(False)
    active, behind, replay = row
    held = _held_mark()
    return MirrorLag(True, bool(active), behind, replay, held[0] if held else None)


@dataclass(frozen=True)
class Subscription:
    """The mirror's side of the link (`pg_stat_subscription`)."""

    set_up: bool  # the subscription exists on this mirror
    enabled: bool = False
    # Its apply worker runs and is connected to the box. False while the link is down: the
    # worker tries again every `wal_retrieve_retry_interval` (5 s) and exits when it fails.
    receiving: bool = False
    last_message: datetime | None = None  # when the box last sent anything (keepalives too)


def subscription() -> Subscription:
    if not is_mirror() or connection.vendor != "postgresql":
        return Subscription(False)
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT s.subenabled, st.pid IS NOT NULL, st.last_msg_receipt_time
            FROM pg_subscription s
            LEFT JOIN pg_stat_subscription st ON st.subid = s.oid AND st.relid IS NULL
            WHERE s.subname = %s
            """,
            [SUBSCRIPTION],
        )
        row = cursor.fetchone()
    if row is None:
        return Subscription(False)
    enabled, running, last = row
    return Subscription(True, bool(enabled), bool(running) and last is not None, last)
