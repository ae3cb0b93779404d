"""Feature tables: a few tables of a round whose deals are recorded action by action and shown
to spectators behind a delay (docs/live-tables.md).

A `FeatureTable` marks a table; each deal played there is a `LiveDeal` (the hands at the start,
then its `LiveAction` rows in order). Every row keeps the moment it arrived (`at`): what a
spectator may see is decided from it and the table's delay alone (matches/public/live.py).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.validators import MaxValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

MAX_DELAY_MINUTES = 60
DEFAULT_DELAY_MINUTES = 10


class FeatureTable(models.Model):
    class Shows(models.TextChoices):
        HANDS = "hands", _("全部手牌")
        PLAYS = "plays", _("只显示出过的牌")

    table = models.OneToOneField(
        "matches.Table", on_delete=models.CASCADE, related_name="feature", verbose_name=_("牌桌")
    )
    delay_minutes = models.PositiveSmallIntegerField(
        _("延迟（分钟）"),
        default=DEFAULT_DELAY_MINUTES,
        validators=[MaxValueValidator(MAX_DELAY_MINUTES)],
    )
    shows = models.CharField(
        _("观众可见"), max_length=8, choices=Shows.choices, default=Shows.HANDS
    )
    # The operator's page and a digital table's API calls act through this referee link: the
    # link is the authorisation, like a table phone's.
    operator_link = models.OneToOneField(
        "matches.RefereeLink",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="feature",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table__round_id", "table__number"]
        verbose_name = _("直播桌")
        verbose_name_plural = _("直播桌")
        constraints = [
            models.CheckConstraint(
                condition=Q(delay_minutes__lte=MAX_DELAY_MINUTES), name="feature_delay_at_most_60"
            ),
        ]

    def __str__(self):
        return f"{self.table} (live)"

    @property
    def delay(self) -> timedelta:
        return timedelta(minutes=self.delay_minutes)


class LiveDeal(models.Model):
    feature = models.ForeignKey(FeatureTable, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("局号"))
    # The deal record's setup (deal-record.md): hands, leader, declarations, revolution.
    setup = models.JSONField(default=dict)
    started_at = models.DateTimeField()
    completed_at = models.DateTimeField(null=True, blank=True)
    # Plays without hands: the outcome summary (gouji-outcome/1) the deal ended with; its report
    # is this summary, not the play log.
    summary = models.JSONField(null=True, blank=True)
    # The deal's report, once its log went through the result service.
    report = models.ForeignKey(
        "matches.DealReport", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    report_error = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["feature_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["feature", "number"], name="live_deal_unique"),
        ]


class LiveAction(models.Model):
    deal = models.ForeignKey(LiveDeal, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField()  # 1, 2, 3 … in the order of play
    action = models.JSONField()  # one entry of the deal record's `actions`
    at = models.DateTimeField()

    class Meta:
        ordering = ["deal_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "seq"], name="live_action_unique"),
        ]


class LiveNote(models.Model):
    """A commentary line an operator or commentator writes; spectators read it behind the
    table's delay like a play (it may speak of one)."""

    MAX_LENGTH = 200

    feature = models.ForeignKey(FeatureTable, on_delete=models.CASCADE, related_name="notes")
    text = models.CharField(_("解说"), max_length=MAX_LENGTH)
    at = models.DateTimeField()

    class Meta:
        ordering = ["feature_id", "at", "id"]
