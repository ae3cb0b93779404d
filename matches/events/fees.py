"""Entry fees (docs/registration.md, "Fees"): what each entry owes, payments and refunds with
who, when, the way and its reference, and the treasurer's totals. Money is integer fen.

Every entry of an event with a fee has an `EntryFee` row (made on acceptance, or for entries the
organiser typed in when the treasurer's page or the desk first looks); each payment or refund is
written with the row locked and moves its `outstanding_fen`, which the draw (`held_out_q`), the
check-in desk and the dashboard read.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils.translation import gettext as _

from matches.events.registration import union_size
from matches.models import (
    EntryFee,
    EntryLog,
    Event,
    FeePayment,
    PaymentWay,
    Registration,
    SignupSettings,
)

logger = logging.getLogger("matches.signup")

#: the most one payment may be: ¥100,000 (a typo of three zeros is refused, not booked)
MAX_FEN = 10_000_000


class FeeRefused(Exception):
    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def parse_yuan(text: str) -> int:
    """ "60", "60.5", "￥60.50" → fen; anything else (negative, three decimals, words) refused."""
    cleaned = (text or "").strip().lstrip("¥￥").replace(",", "").strip()
    try:
        amount = Decimal(cleaned)
    except InvalidOperation as error:
        raise FeeRefused(_("金额须为数字，如 60 或 60.50"), "amount") from error
    if not amount.is_finite() or amount < 0 or amount != amount.quantize(Decimal("0.01")):
        raise FeeRefused(_("金额须为数字，如 60 或 60.50"), "amount")
    fen = int((amount * 100).quantize(Decimal("1"), rounding=ROUND_HALF_UP))
    if fen > MAX_FEN:
        raise FeeRefused(_("金额过大"), "amount")
    return fen


def yuan(fen: int) -> str:
    """6000 → "60", 6050 → "60.50" (how the pages and exports write money)."""
    sign = "-" if fen < 0 else ""
    whole, cents = divmod(abs(fen), 100)
    return f"{sign}{whole}" if not cents else f"{sign}{whole}.{cents:02d}"


def settings_of(event: Event) -> SignupSettings:
    """The event's registration and fee settings; the defaults, unsaved, for an event whose
    organiser never opened them (a page that only reads them writes nothing)."""
    return SignupSettings.objects.filter(event=event).first() or SignupSettings(event=event)


def default_owed(event: Event, signup: SignupSettings, registration: Registration) -> int:
    if registration.status == Registration.Status.WITHDRAWN:
        return 0
    if signup.fee_per == SignupSettings.FeePer.PLAYER:
        return signup.fee_fen * union_size(event)
    return signup.fee_fen


def open_account(
    registration: Registration, signup: SignupSettings | None = None, new: bool = False
) -> EntryFee:
    """The entry's fee row (made unless there; `new`: the entry was made in this transaction,
    it has none yet)."""
    event = registration.event
    signup = signup or settings_of(event)
    owed = default_owed(event, signup, registration)
    if new:
        return EntryFee.objects.create(
            registration=registration, event=event, owed_fen=owed, outstanding_fen=owed
        )
    fee, _made = EntryFee.objects.get_or_create(
        registration=registration,
        defaults={"event": event, "owed_fen": owed, "outstanding_fen": owed},
    )
    return fee


def ensure_accounts(event: Event) -> int:
    """Fee rows for the entries that lack one (entries the organiser typed in or imported)."""
    signup = settings_of(event)
    missing = event.registrations.filter(fee__isnull=True)
    rows = []
    for registration in missing:
        owed = default_owed(event, signup, registration)
        rows.append(
            EntryFee(registration=registration, event=event, owed_fen=owed, outstanding_fen=owed)
        )
    EntryFee.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def _net_paid(registration_id: int) -> int:
    sums = FeePayment.objects.filter(registration_id=registration_id).aggregate(
        paid=Sum("amount_fen", filter=Q(kind=FeePayment.Kind.PAYMENT)),
        refunded=Sum("amount_fen", filter=Q(kind=FeePayment.Kind.REFUND)),
    )
    return (sums["paid"] or 0) - (sums["refunded"] or 0)


def _locked_account(registration: Registration) -> EntryFee:
    open_account(registration)
    return EntryFee.objects.select_for_update().get(registration=registration)


@transaction.atomic
def reprice(event: Event) -> int:
    """The event's fee changed: every entry's amount follows, less the ones set by hand."""
    signup = settings_of(event)
    ensure_accounts(event)
    changed = 0
    rows = EntryFee.objects.select_for_update().filter(event=event, set_by_hand=False)
    for fee in rows.select_related("registration"):
        owed = default_owed(event, signup, fee.registration)
        if owed != fee.owed_fen:
            fee.owed_fen = owed
            fee.outstanding_fen = owed - _net_paid(fee.registration_id)
            fee.save(update_fields=["owed_fen", "outstanding_fen"])
            changed += 1
    return changed


@transaction.atomic
def follow_status(registration: Registration) -> None:
    """A withdrawn entry owes nothing more (what it paid shows as to refund); reinstated, it
    owes again."""
    fee = _locked_account(registration)
    if fee.set_by_hand:
        return
    owed = default_owed(registration.event, settings_of(registration.event), registration)
    fee.owed_fen = owed
    fee.outstanding_fen = owed - _net_paid(registration.pk)
    fee.save(update_fields=["owed_fen", "outstanding_fen"])


@transaction.atomic
def set_owed(registration: Registration, owed_fen: int, by, note: str = "") -> EntryFee:
    """The organiser's own amount for one entry (a waiver: 0)."""
    fee = _locked_account(registration)
    before = fee.owed_fen
    fee.owed_fen, fee.set_by_hand = owed_fen, True
    fee.outstanding_fen = owed_fen - _net_paid(registration.pk)
    fee.save(update_fields=["owed_fen", "set_by_hand", "outstanding_fen"])
    EntryLog.objects.create(
        event=registration.event,
        registration=registration,
        action="fee_set",
        note=f"{yuan(before)} → {yuan(owed_fen)} {note}".strip()[:300],
        by=by,
    )
    return fee


@transaction.atomic
def record(
    registration: Registration,
    *,
    amount_fen: int,
    way: str,
    reference: str = "",
    by=None,
    refund: bool = False,
) -> FeePayment:
    """A payment (or a refund) of one entry: the amount, the way, the reference a transfer
    needs; a refund no more than what was paid."""
    event = registration.event
    signup = settings_of(event)
    if amount_fen <= 0:
        raise FeeRefused(_("金额须大于 0"), "amount")
    if way not in PaymentWay.values:
        raise FeeRefused(_("请选择收款方式"), "way")
    if not refund and way not in signup.payment_ways:
        raise FeeRefused(_("本赛事不收这种方式的款项"), "way")
    reference = (reference or "").strip()
    if way != PaymentWay.CASH and not reference:
        raise FeeRefused(_("转账请填写交易单号或备注"), "reference")
    fee = _locked_account(registration)
    paid = _net_paid(registration.pk)
    if refund and amount_fen > paid:
        raise FeeRefused(_("退款不能超过已缴的 %(paid)s 元") % {"paid": yuan(paid)}, "amount")
    kind = FeePayment.Kind.REFUND if refund else FeePayment.Kind.PAYMENT
    payment = FeePayment.objects.create(
        event=event,
        registration=registration,
        kind=kind,
        amount_fen=amount_fen,
        way=way,
        reference=reference[:120],
        by=by,
    )
    fee.outstanding_fen = fee.owed_fen - (paid - amount_fen if refund else paid + amount_fen)
    fee.save(update_fields=["outstanding_fen"])
    EntryLog.objects.create(
        event=event,
        registration=registration,
        action=kind,
        note=f"{yuan(amount_fen)} {way}",
        by=by,
    )
    logger.info("fee event=%s entry=%s %s %s %s", event.pk, registration.pk, kind, amount_fen, way)
    return payment


@dataclass
class Balance:
    owed: int = 0
    paid: int = 0
    refunded: int = 0
    payments: list[FeePayment] = field(default_factory=list)

    @property
    def outstanding(self) -> int:
        return self.owed - self.paid + self.refunded

    @property
    def unpaid(self) -> bool:
        return self.outstanding > 0


def balance(registration: Registration) -> Balance:
    fee = open_account(registration)
    payments = list(registration.payments.select_related("by").order_by("at", "id"))
    paid = sum(p.amount_fen for p in payments if p.kind == FeePayment.Kind.PAYMENT)
    refunded = sum(p.amount_fen for p in payments if p.kind == FeePayment.Kind.REFUND)
    return Balance(fee.owed_fen, paid, refunded, payments)


def outstanding_by_entry(event: Event, ids) -> dict[int, int]:
    """Per registration id, the amount still owed (above 0 only): the check-in list's column."""
    return dict(
        EntryFee.objects.filter(
            event=event, registration_id__in=list(ids), outstanding_fen__gt=0
        ).values_list("registration_id", "outstanding_fen")
    )


def unpaid(event: Event):
    """Entries not withdrawn that still owe, in seed order (the dashboard's "held out")."""
    return (
        event.registrations.exclude(status=Registration.Status.WITHDRAWN)
        .filter(fee__outstanding_fen__gt=0)
        .select_related("union", "player", "fee")
        .order_by("seed", "id")
    )


@dataclass
class Totals:
    owed: int
    paid: int
    refunded: int
    outstanding: int
    to_refund: int
    entries: int
    unpaid_entries: int
    by_way: list[dict]
    by_club: list[dict]


def totals(event: Event) -> Totals:
    ensure_accounts(event)
    fees = EntryFee.objects.filter(event=event)
    sums = fees.aggregate(
        owed=Sum("owed_fen"),
        outstanding=Sum("outstanding_fen", filter=Q(outstanding_fen__gt=0)),
        over=Sum("outstanding_fen", filter=Q(outstanding_fen__lt=0)),
        unpaid=Count("pk", filter=Q(outstanding_fen__gt=0)),
        entries=Count("pk"),
    )
    payments = FeePayment.objects.filter(event=event)
    by_way = list(
        payments.values("way")
        .annotate(
            paid=Sum("amount_fen", filter=Q(kind=FeePayment.Kind.PAYMENT)),
            refunded=Sum("amount_fen", filter=Q(kind=FeePayment.Kind.REFUND)),
        )
        .order_by("way")
    )
    labels = dict(PaymentWay.choices)
    ways: list[dict] = [
        {**row, "label": labels.get(row["way"], row["way"]), "refunded": row["refunded"] or 0}
        for row in by_way
    ]
    club = (
        "registration__union__club__name" if event.is_team else "registration__player__club__name"
    )
    by_club = list(
        fees.values(club)
        .annotate(
            owed=Sum("owed_fen"),
            outstanding=Sum("outstanding_fen", filter=Q(outstanding_fen__gt=0)),
            entries=Count("pk"),
        )
        .order_by(club)
    )
    club_paid = dict(
        payments.filter(kind=FeePayment.Kind.PAYMENT)
        .values(club)
        .annotate(s=Sum("amount_fen"))
        .values_list(club, "s")
    )
    club_refunded = dict(
        payments.filter(kind=FeePayment.Kind.REFUND)
        .values(club)
        .annotate(s=Sum("amount_fen"))
        .values_list(club, "s")
    )
    for row in by_club:
        name = row.pop(club)
        row["club"] = name or ""
        row["paid"] = club_paid.get(name) or 0
        row["refunded"] = club_refunded.get(name) or 0
        row["outstanding"] = row["outstanding"] or 0
    paid = sum(r["paid"] or 0 for r in ways)
    refunded = sum(r["refunded"] for r in ways)
    return Totals(
        owed=sums["owed"] or 0,
        paid=paid,
        refunded=refunded,
        outstanding=sums["outstanding"] or 0,
        to_refund=-(sums["over"] or 0),
        entries=sums["entries"] or 0,
        unpaid_entries=sums["unpaid"] or 0,
        by_way=ways,
        by_club=by_club,
    )
