"""Entries from the players themselves: the organiser's registration settings for an event, the
public's entry requests (a union or a player asking to be entered), and the log of what happened
to each. An accepted request becomes the event's `Registration`; until then it is only a request.

What a registrant leaves is personal data: `contact` and `contact_key` never reach a public page
or the hall box's mirror (hall/publication.py leaves them out by name), are masked in logs and in
exports to anyone but an organiser, and are erased after the event (`erase_signup_contacts`).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: Short codes are read aloud at the desk or typed as a transfer's note: no 0/O, 1/I/L.
CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6


def new_request_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def names_key(names: list[str]) -> str:
    return "\n".join(sorted(n.strip() for n in names))[:600]


class PaymentWay(models.TextChoices):
    CASH = "cash", _("现场现金")
    WECHAT = "wechat", _("微信转账")
    ALIPAY = "alipay", _("支付宝转账")
    BANK = "bank", _("银行转账")
    OTHER = "other", _("其他")


def default_payment_ways():
    return [PaymentWay.CASH.value, PaymentWay.WECHAT.value]


class SignupSettings(models.Model):
    """How an event takes entries from the public, and its entry fee. One row per event; its
    row lock is what keeps concurrent registrations within the capacity (events/signup.py)."""

    class Ask(models.TextChoices):
        REQUIRED = "required", _("必填")
        OPTIONAL = "optional", _("选填")
        HIDDEN = "hidden", _("不问")

    class FeePer(models.TextChoices):
        ENTRY = "entry", _("每个报名（联邦或个人）")
        PLAYER = "player", _("每名选手")

    event = models.OneToOneField(
        "matches.Event", on_delete=models.CASCADE, primary_key=True, related_name="signup"
    )
    # Taking requests at all (the organiser's switch), and between these times when given.
    is_open = models.BooleanField(_("开放报名"), default=False)
    opens_at = models.DateTimeField(_("开始时间"), null=True, blank=True)
    closes_at = models.DateTimeField(_("截止时间"), null=True, blank=True)
    # Places: unions in a team event, players in an individual one (blank: no limit).
    capacity = models.PositiveIntegerField(_("名额"), null=True, blank=True)
    # Requests beyond the capacity wait here, in order (blank: no limit; 0: no waiting list).
    waitlist_limit = models.PositiveIntegerField(_("候补名额"), null=True, blank=True)
    review = models.BooleanField(_("须审核"), default=True)
    fee_fen = models.PositiveIntegerField(_("报名费（分）"), default=0)
    fee_per = models.CharField(
        _("报名费计法"), max_length=8, choices=FeePer.choices, default=FeePer.ENTRY
    )
    payment_ways = models.JSONField(_("收款方式"), default=default_payment_ways)
    ask_club = models.CharField(
        _("俱乐部"), max_length=8, choices=Ask.choices, default=Ask.OPTIONAL
    )
    ask_reach = models.CharField(
        _("联系方式"), max_length=8, choices=Ask.choices, default=Ask.REQUIRED
    )
    ask_member_number = models.CharField(
        _("会员号"), max_length=8, choices=Ask.choices, default=Ask.HIDDEN
    )
    note = models.TextField(_("报名须知"), blank=True)
    # Entries that owe part of their fee are left out of the draw (the dashboard names them).
    hold_unpaid = models.BooleanField(_("未缴费者不参加编排"), default=False)
    max_per_registrant = models.PositiveSmallIntegerField(_("每个联系方式最多报名数"), default=3)
    # Days after the event's end before the contacts are erased (erase_signup_contacts).
    retention_days = models.PositiveSmallIntegerField(_("联系方式保留天数"), default=30)
    personal_data_erased_at = models.DateTimeField(null=True, blank=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("报名设置")
        verbose_name_plural = _("报名设置")

    def __str__(self):
        return f"signup @ {self.event_id}"


class EntryRequest(models.Model):
    """A union or a player asking to be entered, from the public registration page."""

    class Status(models.TextChoices):
        PENDING = "pending", _("等待审核")
        ACCEPTED = "accepted", _("已接受")
        WAITLISTED = "waitlisted", _("候补")
        DECLINED = "declined", _("未接受")
        WITHDRAWN = "withdrawn", _("已撤回")

    #: The statuses that hold one of the event's places.
    HOLDING = (Status.PENDING, Status.ACCEPTED)

    event = models.ForeignKey(
        "matches.Event", on_delete=models.CASCADE, related_name="entry_requests"
    )
    code = models.CharField(_("报名码"), max_length=12, default=new_request_code)
    # The registrant's private page (/signup/<token>/); the mirror gets only the digest.
    token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    token_digest = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # The form's one-time key: a second submit of the same form finds this request.
    form_key = models.CharField(max_length=64)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    # An organiser (or the queue's rules) decided; a promotion from the waiting list then
    # needs no second review.
    reviewed = models.BooleanField(default=False)
    union_name = models.CharField(_("联邦名称"), max_length=120, blank=True, db_index=True)
    club_name = models.CharField(_("俱乐部"), max_length=120, blank=True)
    # [{"name": ..., "member_number": ...}, ...] in seat order; one for an individual entry.
    players = models.JSONField(_("选手"), default=list)
    captain = models.PositiveSmallIntegerField(_("队长"), default=1)
    # The players' names sorted, one a line: the same people entered twice are found by it.
    names_key = models.CharField(max_length=600, blank=True, db_index=True)
    contact = models.CharField(_("联系方式"), max_length=120, blank=True)
    # The contact with everything but its letters and digits taken out: "at most N per contact".
    contact_key = models.CharField(max_length=120, blank=True, db_index=True)
    reason = models.CharField(_("原因"), max_length=300, blank=True)
    waitlisted_at = models.DateTimeField(null=True, blank=True)
    promoted_at = models.DateTimeField(null=True, blank=True)
    registration = models.OneToOneField(
        "matches.Registration",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entry_request",
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["event_id", "created_at", "id"]
        verbose_name = _("报名申请")
        verbose_name_plural = _("报名申请")
        constraints = [
            models.UniqueConstraint(fields=["event", "code"], name="entry_request_code_unique"),
            models.UniqueConstraint(
                fields=["event", "form_key"], name="entry_request_form_key_unique"
            ),
            models.CheckConstraint(
                condition=Q(captain__gte=1) & Q(captain__lte=4), name="entry_request_captain_1_4"
            ),
        ]
        indexes = [models.Index(fields=["event", "status"], name="entry_request_event_status")]

    def __str__(self):
        return f"{self.code} @ {self.event_id}"

    def save(self, *args, **kwargs):
        from matches.models.digest import token_digest, with_digest

        fields = kwargs.get("update_fields")
        if fields is None or "token" in fields:
            self.token_digest = token_digest(self.token)
            kwargs["update_fields"] = with_digest(fields, "token", "token_digest")
        if fields is None:
            self.names_key = names_key(self.player_names)
        super().save(*args, **kwargs)

    @property
    def name(self) -> str:
        """The union's name, or the player's."""
        if self.union_name:
            return self.union_name
        return self.players[0]["name"] if self.players else ""

    @property
    def player_names(self) -> list[str]:
        return [p.get("name", "") for p in self.players]


class EntryLog(models.Model):
    """Every action on a request or an entry's fee: what, who (blank: the registrant or the
    system) and when. The note never holds a contact."""

    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="+")
    request = models.ForeignKey(
        EntryRequest, null=True, blank=True, on_delete=models.CASCADE, related_name="log"
    )
    registration = models.ForeignKey(
        "matches.Registration", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=24)
    note = models.CharField(max_length=300, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["event_id", "at", "id"]
