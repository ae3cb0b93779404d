"""What each side knows of the other.

- The mirror: when the hall last reported (the box's heartbeat row, `HallBeat`, replicated like
  every row) and whether that is too long ago (`HALLBOX_STALE_SECONDS`): then the public pages
  say "最后更新 14:05 · 赛场网络中断".
- The box: how far behind the mirror is, from PostgreSQL's own view of the subscription's
  replication slot (`pg_replication_slots`, `pg_stat_replication`).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from hall.models import HallBeat
from hall.roles import is_box, is_mirror

PUBLICATION = "gouji_hall"
SUBSCRIPTION = "gouji_mirror"  # also the name of its replication slot on the box

_local = threading.local()
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
    """The box's heartbeat: one row, rewritten (`manage.py hallbox beat`)."""
    now = timezone.now()
    updated = HallBeat.objects.filter(pk=1).update(beat_at=now, name=name)
    if not updated:
        HallBeat.objects.update_or_create(pk=1, defaults={"beat_at": now, "name": name})
    return now


@dataclass(frozen=True)
class MirrorLag:
    set_up: bool  # a replication slot of the subscription exists on this box
    connected: bool = False
    behind_bytes: int | None = None
    replay_lag: float | None = None  # seconds, while connected
    last_seen: datetime | None = None  # when the mirror was last seen connected


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
    key = "hallbox:mirror-seen"
    if active:
        seen = timezone.now()
        cache.set(key, seen, None)
    else:
        seen = cache.get(key)
    return MirrorLag(True, bool(active), behind, replay, seen)
