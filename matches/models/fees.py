"""Entry fees: what each entry owes and every payment and refund, in fen (integers, never
floats). A payment row is never changed or deleted: a refund is a row of its own, a mistaken
payment is put right by a refund. `EntryFee.outstanding_fen` is kept with every row written
(events/fees.py, under the fee row's lock), so that the draw, the check-in desk and the dashboard
read who is unpaid from one column.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from matches.models.signup import PaymentWay, SignupSettings


class EntryFee(models.Model):
    registration = models.OneToOneField(
        "matches.Registration", on_delete=models.CASCADE, primary_key=True, related_name="fee"
    )
    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="+")
    owed_fen = models.PositiveIntegerField(_("应缴（分）"), default=0)
    # The organiser set this entry's amount by hand (a waiver, a discount): a change of the
    # event's fee leaves it alone.
    set_by_hand = models.BooleanField(default=False)
    # owed − paid + refunded; above 0: unpaid (or part paid); below 0: paid too much.
    outstanding_fen = models.IntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["event", "outstanding_fen"], name="entry_fee_outstanding")]


class FeePayment(models.Model):
    class Kind(models.TextChoices):
        PAYMENT = "payment", _("收款")
        REFUND = "refund", _("退款")

    event = models.ForeignKey("matches.Event", on_delete=models.CASCADE, related_name="+")
    registration = models.ForeignKey(
        "matches.Registration", on_delete=models.CASCADE, related_name="payments"
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.PAYMENT)
    amount_fen = models.PositiveIntegerField(_("金额（分）"))
    way = models.CharField(_("方式"), max_length=8, choices=PaymentWay.choices)
    reference = models.CharField(_("交易单号或备注"), max_length=120, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["event_id", "at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount_fen__gt=0), name="fee_payment_positive")
        ]

    def save(self, *args, **kwargs):
        if self.pk is not None:
            raise ValueError("a payment is never changed: record a refund instead")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValueError("a payment is never deleted: record a refund instead")


def held_out_q(event) -> Q:
    """The registrations the draw leaves out for an unpaid fee (nothing unless the organiser
    holds unpaid entries out). An entry without its fee row yet owes the event's fee."""
    signup = SignupSettings.objects.filter(event=event).first()
    if signup is None or not signup.hold_unpaid:
        return Q(pk__in=[])
    unpaid = Exists(EntryFee.objects.filter(registration=OuterRef("pk"), outstanding_fen__gt=0))
    if signup.fee_fen > 0:
        return Q(unpaid) | ~Q(Exists(EntryFee.objects.filter(registration=OuterRef("pk"))))
    return Q(unpaid)
