from django.db import models
from django.utils.translation import gettext_lazy as _


class HallBeat(models.Model):
    """One row the box rewrites every `HALLBOX_BEAT_SECONDS` (`manage.py hallbox beat`). It
    reaches the mirror like every other row, so the mirror knows when the hall last reported:
    an old beat means the replication link (the hall's uplink) is down."""

    name = models.CharField(max_length=60, default="hall")
    beat_at = models.DateTimeField()

    class Meta:
        verbose_name = _("赛场心跳")
        verbose_name_plural = _("赛场心跳")

    def __str__(self):
        return f"{self.name} @ {self.beat_at:%H:%M:%S}"


class BeatMark(models.Model):
    """On the box only (never published): where in the box's WAL each heartbeat was written.
    The mirror confirms WAL positions, not times; the newest mark at or before its confirmed
    position is the newest heartbeat it holds, which is the time its banner shows. So the box's
    dashboard and the mirror name the same time for one cut (`status.mirror_lag`)."""

    beat_at = models.DateTimeField()
    lsn = models.BigIntegerField(db_index=True)  # pg_current_wal_lsn() after the beat, in bytes
