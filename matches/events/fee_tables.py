"""The treasurer's exports as tables (CSV/XLSX through `exports`, whose cells never become
formulas): every entry's balance, and every payment and refund. The registrant's contact is
whole only for the event's organisers (`whole_contacts`), masked for anyone else."""

from __future__ import annotations

from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.events import fees, privacy
from matches.models import EntryFee, Event, FeePayment


def entries_table(event: Event, whole_contacts: bool) -> tuple[list[str], list[list]]:
    fees.ensure_accounts(event)
    header = [
        _("联邦") if event.is_team else _("选手"),
        _("俱乐部"),
        _("报名码"),
        _("联系方式"),
        _("应缴（元）"),
        _("已缴（元）"),
        _("已退（元）"),
        _("未缴（元）"),
    ]
    sums: dict[int, dict] = {
        row["registration_id"]: dict(row)
        for row in FeePayment.objects.filter(event=event)
        .values("registration_id")
        .annotate(
            paid=Sum("amount_fen", filter=Q(kind=FeePayment.Kind.PAYMENT)),
            refunded=Sum("amount_fen", filter=Q(kind=FeePayment.Kind.REFUND)),
        )
    }
    found = EntryFee.objects.filter(event=event).select_related(
        "registration__union__club", "registration__player__club", "registration__entry_request"
    )
    rows = []
    for fee in found.order_by("registration__seed", "registration_id"):
        entry = fee.registration
        asked = getattr(entry, "entry_request", None)
        contact = "" if asked is None else asked.contact
        club = entry.union.club if entry.union else entry.player.club  # type: ignore[union-attr]
        paid = sums.get(entry.pk, {})
        rows.append(
            [
                str(entry.entrant),
                str(club or ""),
                asked.code if asked else "",
                contact if whole_contacts else privacy.mask(contact),
                fees.yuan(fee.owed_fen),
                fees.yuan(paid.get("paid") or 0),
                fees.yuan(paid.get("refunded") or 0),
                fees.yuan(max(0, fee.outstanding_fen)),
            ]
        )
    return header, rows


def payments_table(event: Event) -> tuple[list[str], list[list]]:
    header = [
        _("时间"),
        _("联邦或选手"),
        _("类别"),
        _("金额（元）"),
        _("方式"),
        _("交易单号或备注"),
        _("经手人"),
    ]
    rows = []
    for p in (
        FeePayment.objects.filter(event=event)
        .select_related("registration__union", "registration__player", "by")
        .order_by("at", "id")
    ):
        rows.append(
            [
                timezone.localtime(p.at).strftime("%Y-%m-%d %H:%M"),
                str(p.registration.entrant),
                p.get_kind_display(),
                fees.yuan(p.amount_fen),
                p.get_way_display(),
                p.reference,
                p.by.get_username() if p.by else "",
            ]
        )
    return header, rows
