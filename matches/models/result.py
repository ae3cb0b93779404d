"""Deal results as reported by referees, their confirmations, and referees' private links.

A `DealReport` row is written once and never edited, except for its `state` pointer: a
correction is a new row, and the old final row becomes `superseded`. The database holds at most
one final report per deal (a partial unique index), so however many processes serve the site,
two final results for one deal cannot both be stored.

Only final reports feed anything (scores, tributes, match results, standings, the next draw):
read them through `DealReport.objects.final()` or `Deal.objects.with_final_result()`.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


def new_link_token() -> str:
    return secrets.token_urlsafe(24)


class DealReportQuerySet(models.QuerySet):
    def final(self):
        """The accepted result of each deal: the only rows anything may be computed from."""
        return self.filter(state=DealReport.State.FINAL)

    def open(self):
        """Reports still waiting for a decision (pending confirmation or disputed)."""
        return self.filter(state__in=[DealReport.State.PENDING, DealReport.State.DISPUTED])


class DealReport(models.Model):
    class Kind(models.TextChoices):
        REPORT = "report", _("报告")
        CORRECTION = "correction", _("更正")

    class State(models.TextChoices):
        PENDING = "pending", _("待确认")
        FINAL = "final", _("已确认")
        DISPUTED = "disputed", _("有争议")
        SUPERSEDED = "superseded", _("已被取代")
        REJECTED = "rejected", _("已驳回")

    class Via(models.TextChoices):
        REFEREE_LINK = "referee_link", _("裁判链接")
        SESSION = "session", _("登录账号")
        API_TOKEN = "api_token", _("API 令牌")
        SYSTEM = "system", _("系统")

    deal = models.ForeignKey("matches.Deal", on_delete=models.PROTECT, related_name="reports")
    kind = models.CharField(max_length=12, choices=Kind.choices, default=Kind.REPORT)
    state = models.CharField(max_length=12, choices=State.choices, default=State.PENDING)
    # gouji-outcome/1 as entered, with `rules` and `string_three_streak` filled in by the service.
    summary = models.JSONField(null=True, blank=True)
    play_log = models.JSONField(null=True, blank=True)  # gouji-deal/1 when a digital table sent one
    # settle's verdict (valid, errors, union_scores, tributes) and, with a play log, "replay".
    verdict = models.JSONField(default=dict)
    # Denormalised from verdict["union_scores"] so sums over final reports stay in SQL.
    score_a = models.IntegerField(null=True, blank=True)
    score_b = models.IntegerField(null=True, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="deal_reports",
    )
    via = models.CharField(max_length=16, choices=Via.choices, default=Via.SESSION)
    referee_link = models.ForeignKey(
        "matches.RefereeLink",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reports",
    )
    idempotency_key = models.CharField(max_length=100, blank=True)
    # sha256 of the request the key came with (kind, documents, reason): the same key with another
    # request is refused (422), never answered with this report. Empty on older rows.
    request_digest = models.CharField(max_length=64, blank=True, default="")
    reason = models.TextField(_("更正原因"), blank=True)
    # The final report a correction replaced (history reads as a chain).
    replaces = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_by"
    )
    created_at = models.DateTimeField(default=timezone.now)
    state_changed_at = models.DateTimeField(null=True, blank=True)

    objects = DealReportQuerySet.as_manager()

    # Never stored: set by matches.results (common.replay, confirm.confirm_report_by_id) on the
    # report it returns, read by the API.
    replayed: bool  # the request repeated an earlier one (same Idempotency-Key)
    known_confirmations: list[Confirmation]  # the confirmations just written

    class Meta:
        # Order by the foreign key's column, not the related model's own ordering: that one
        # made every `.first()` join the whole chain up to the event (a profile found it).
        ordering = ["deal_id", "created_at", "id"]
        verbose_name = _("牌局成绩")
        verbose_name_plural = _("牌局成绩")
        constraints = [
            models.UniqueConstraint(
                fields=["deal"], condition=Q(state="final"), name="one_final_report_per_deal"
            ),
            models.UniqueConstraint(
                fields=["deal", "idempotency_key"],
                condition=~Q(idempotency_key=""),
                name="deal_report_idempotency_key_unique",
            ),
        ]
        indexes = [models.Index(fields=["deal", "state"], name="deal_report_state_idx")]

    def __str__(self):
        return f"{self.deal} {self.kind} {self.state}"

    @property
    def is_final(self) -> bool:
        return self.state == self.State.FINAL


class RefereeLink(models.Model):
    """A private link (and QR code) that opens one table for whoever holds it."""

    table = models.ForeignKey(
        "matches.Table", on_delete=models.CASCADE, related_name="referee_links"
    )
    token = models.CharField(max_length=64, unique=True, default=new_link_token)
    label = models.CharField(_("说明"), max_length=120, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table_id", "created_at", "id"]
        verbose_name = _("裁判链接")
        verbose_name_plural = _("裁判链接")

    def __str__(self):
        return f"{self.table} #{self.pk}"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])


class Confirmation(models.Model):
    class Role(models.TextChoices):
        CAPTAIN = "captain", _("队长")
        REFEREE = "referee", _("裁判")
        ORGANISER = "organiser", _("组织者")
        PLAYER = "player", _("选手")

    class Reason(models.TextChoices):
        """What a disagreement is about (shown to the organiser and in the audit)."""

        SCORE = "score", _("比分")
        FINISH = "finish", _("出完顺序")
        BURN = "burn", _("烧牌")
        POINTS = "points", _("开点")
        TRIBUTE = "tribute", _("进贡")
        OTHER = "other", _("其他")

    report = models.ForeignKey(DealReport, on_delete=models.PROTECT, related_name="confirmations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    referee_link = models.ForeignKey(
        RefereeLink, null=True, blank=True, on_delete=models.SET_NULL, related_name="confirmations"
    )
    role = models.CharField(max_length=12, choices=Role.choices)
    # A captain's answer is for their union; `by_pin`: given with the captain's PIN on the
    # table's phone (the link holder's page), not from the captain's own account.
    union = models.ForeignKey(
        "matches.Union", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A player's answer (individual events), given with their own PIN on the table's phone.
    player = models.ForeignKey(
        "players.Player", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    by_pin = models.BooleanField(default=False)
    agrees = models.BooleanField()
    reason = models.CharField(_("异议原因"), max_length=12, choices=Reason.choices, blank=True)
    note = models.TextField(blank=True)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["report_id", "at", "id"]
        verbose_name = _("成绩确认")
        verbose_name_plural = _("成绩确认")


class PlayerAccount(models.Model):
    """Which sign-in account is which player, so a captain can confirm their own match."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_account"
    )
    player = models.OneToOneField(
        "players.Player", on_delete=models.CASCADE, related_name="account"
    )

    class Meta:
        verbose_name = _("选手账号")
        verbose_name_plural = _("选手账号")

    def __str__(self):
        return f"{self.user} → {self.player}"
