"""Per-event staff: assistants and referees, invited by a link or a one-time code (no e-mail)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: Codes are read aloud or typed on a phone: no 0/O, 1/I/L.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 8


def new_invitation_token() -> str:
    return secrets.token_urlsafe(24)


def new_invitation_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


class StaffRole(models.TextChoices):
    # May run rounds, check-in, entries and results; never the event's settings or staff.
    ASSISTANT = "assistant", _("助理")
    # Result entry for the tables they are given; no organiser page.
    REFEREE = "referee", _("裁判")


class EventStaff(models.Model):
    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="event_roles"
    )
    role = models.CharField(_("角色"), max_length=16, choices=StaffRole.choices)
    invitation = models.ForeignKey(
        "matches.StaffInvitation",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    added_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event_id", "role", "added_at", "id"]
        verbose_name = _("赛事工作人员")
        verbose_name_plural = _("赛事工作人员")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "user"],
                condition=Q(revoked_at__isnull=True),
                name="one_active_role_per_event_user",
            ),
        ]

    def __str__(self):
        return f"{self.user} · {self.get_role_display()} @ {self.event_id}"


class StaffInvitation(models.Model):
    """Whoever opens the link (or types the code) and signs in takes the role; once only."""

    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("角色"), max_length=16, choices=StaffRole.choices)
    token = models.CharField(max_length=64, unique=True, default=new_invitation_token)
    code = models.CharField(max_length=16, unique=True, default=new_invitation_code)
    note = models.CharField(_("备注"), max_length=120, blank=True)
    # Where an invited referee lands at sign-up: one zone of the hall and/or single
    # table numbers ("5, 17, 30-32", as the zones page takes them). Editable later: a referee
    # already signed up through the invitation follows the change (events/staff.py).
    zone = models.ForeignKey(
        "matches.RefereeZone",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="invitations",
        verbose_name=_("区域"),
    )
    tables = models.CharField(_("单独指派的桌号"), max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event_id", "-created_at", "-id"]
        verbose_name = _("工作人员邀请")
        verbose_name_plural = _("工作人员邀请")

    def __str__(self):
        return f"{self.get_role_display()} @ {self.event_id} ({self.code})"

    @property
    def is_open(self) -> bool:
        return self.used_at is None and self.revoked_at is None


class CheckInRound(models.Model):
    """The organiser's decision for one round: do check-ins made for earlier rounds count?"""

    event = models.ForeignKey(
        "matches.Event", on_delete=models.CASCADE, related_name="checkin_rounds"
    )
    number = models.PositiveSmallIntegerField(_("轮次"))
    carry_over = models.BooleanField(_("沿用上一轮签到"), default=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["event_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="checkin_round_once"),
        ]
