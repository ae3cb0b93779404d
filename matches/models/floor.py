"""The hall's floor: referee zones, single-table assignments and calls for a referee.

Tables are physical places: table 17 is the same spot in the hall every round, so zones and
single assignments are table *numbers* of the event, not rows of one round's `Table`. A
referee's tables in a round are that round's tables whose numbers fall in their zones or single
assignments (`permissions.referee_tables`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class RefereeZone(models.Model):
    """A range of table numbers (区 A = tables 1-120) and the referees who look after it.
    Zones of one event never overlap (checked by `events.zones`): a table lies in one zone."""

    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="zones")
    name = models.CharField(_("区域名称"), max_length=40)
    first_table = models.PositiveIntegerField(_("起始桌号"))
    last_table = models.PositiveIntegerField(_("结束桌号"))
    referees = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="referee_zones"
    )

    class Meta:
        ordering = ["event_id", "first_table", "id"]
        verbose_name = _("裁判区域")
        verbose_name_plural = _("裁判区域")
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="zone_name_unique_in_event"),
            models.CheckConstraint(
                condition=Q(first_table__gte=1) & Q(last_table__gte=F("first_table")),
                name="zone_range_valid",
            ),
        ]

    def __str__(self):
        return f"{self.name} ({self.first_table}-{self.last_table})"

    @property
    def label(self) -> str:
        """The zone as the zones box takes it (东区 1-120), and as invitations show it."""
        return f"{self.name} {self.first_table}-{self.last_table}"

    def holds(self, number: int) -> bool:
        return self.first_table <= number <= self.last_table


class RefereeTable(models.Model):
    """One referee given one table number of the event (outside or on top of the zones)."""

    event = models.ForeignKey(
        "matches.Event", on_delete=models.CASCADE, related_name="referee_tables"
    )
    referee = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="single_tables"
    )
    number = models.PositiveIntegerField(_("桌号"))

    class Meta:
        ordering = ["event_id", "number", "referee_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "referee", "number"], name="single_table_once_per_referee"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="single_table_positive"),
        ]


class RefereeCall(models.Model):
    """A table called its referee (呼叫裁判) from its phone; open until acknowledged. The
    database holds at most one open call per table, so a second press never stacks."""

    table = models.ForeignKey("matches.Table", on_delete=models.CASCADE, related_name="calls")
    called_at = models.DateTimeField(default=timezone.now)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["called_at", "id"]
        verbose_name = _("呼叫裁判")
        verbose_name_plural = _("呼叫裁判")
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(acknowledged_at__isnull=True),
                name="one_open_call_per_table",
            ),
        ]

    @property
    def is_open(self) -> bool:
        return self.acknowledged_at is None


class RoundClock(models.Model):
    """The hall's clock for one round: the organiser starts it with a duration,
    pauses, resumes and extends it (`matches.draw.clock`). Running, it holds the `deadline`;
    paused, the seconds that were left. Pages show the time left, counted down in the browser
    from the seconds the server says remain (`static/js/clock.js`)."""

    round = models.OneToOneField("matches.Round", on_delete=models.CASCADE, related_name="clock")
    minutes = models.PositiveIntegerField(_("时长（分钟）"))
    started_at = models.DateTimeField(default=timezone.now)
    deadline = models.DateTimeField(null=True, blank=True)
    paused_left = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        verbose_name = _("本轮计时")
        verbose_name_plural = _("本轮计时")
        constraints = [
            # Running (a deadline) or paused (seconds left), never both nor neither.
            models.CheckConstraint(
                condition=Q(deadline__isnull=True, paused_left__isnull=False)
                | Q(deadline__isnull=False, paused_left__isnull=True),
                name="clock_running_or_paused",
            ),
        ]

    @property
    def paused(self) -> bool:
        return self.deadline is None

    def seconds_left(self, now=None) -> int:
        if self.deadline is None:
            return int(self.paused_left or 0)
        now = now or timezone.now()
        return max(0, int((self.deadline - now).total_seconds() + 0.999))


class Announcement(models.Model):
    """A short message from the event's organiser to every table phone, the referees' pages and
    the projector (`matches.events.announcements`). Pushed on the live streams, shown
    until each device dismisses it (in the browser) or the organiser withdraws it. The rows are
    the log: who sent what when, who withdrew it when."""

    MAX_LENGTH = 200

    event = models.ForeignKey(
        "matches.Event", on_delete=models.CASCADE, related_name="announcements"
    )
    text = models.CharField(_("通知内容"), max_length=MAX_LENGTH)
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # How long it shows, set when sent: through round N (gone once round N is closed or a later
    # round is published), until a time, or (both blank) until withdrawn. Old news does not
    # stay on top of the next round.
    ends_with_round = models.PositiveSmallIntegerField(_("显示到第几轮结束"), null=True, blank=True)
    expires_at = models.DateTimeField(_("撤下时间"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("赛场通知")
        verbose_name_plural = _("赛场通知")
        indexes = [models.Index(fields=["event", "withdrawn_at"], name="announcement_active")]

    def __str__(self):
        return self.text

    @property
    def is_active(self) -> bool:
        return self.withdrawn_at is None
