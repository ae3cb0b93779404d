"""The treasurer's pages (docs/registration.md, "Fees"): totals (paid, owed, refunded, by club
and by way), every entry's balance, one entry's payments with the forms to take a payment, a
refund or set its amount, and the CSV/XLSX exports. The check-in desk and the scan desk post
their payments here too and are sent back (`next`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from matches.events import fee_tables, fees, privacy
from matches.events.signup_forms import OwedForm, PaymentForm
from matches.models import EntryFee, FeePayment, PaymentWay, Registration
from matches.permissions import can_manage_event
from matches.views.organiser.access import running_event
from matches.views.sheets import private_table_download

PAGE_SIZE = 50


@login_required
@require_GET
def treasurer(request, event_id: int):
    event = running_event(request, event_id)
    totals = fees.totals(event)
    query = request.GET.get("q", "").strip()
    only = request.GET.get("only", "")
    rows = EntryFee.objects.filter(event=event).select_related(
        "registration__union__club", "registration__player__club", "registration__entry_request"
    )
    if query:
        rows = rows.filter(
            Q(registration__union__name__icontains=query)
            | Q(registration__player__name__icontains=query)
            | Q(registration__entry_request__code__iexact=query)
        )
    if only == "unpaid":
        rows = rows.filter(outstanding_fen__gt=0)
    elif only == "refund":
        rows = rows.filter(outstanding_fen__lt=0)
    page = Paginator(rows.order_by("registration__seed", "registration_id"), PAGE_SIZE).get_page(
        request.GET.get("page")
    )
    signup = fees.settings_of(event)
    context = {
        "event": event,
        "totals": totals,
        "page": page,
        "query": query,
        "only": only,
        "signup": signup,
        "recent": FeePayment.objects.filter(event=event)
        .select_related("registration__union", "registration__player", "by")
        .order_by("-at", "-id")[:10],
    }
    return render(request, "manage/fees/treasurer.html", context)


def _entry(request, event_id: int, entry_id: int):
    event = running_event(request, event_id)
    return event, get_object_or_404(Registration, pk=entry_id, event=event)


def _payment_form(event, data=None, balance=None):
    ways = fees.settings_of(event).payment_ways
    initial = {}
    if balance is not None and balance.outstanding > 0:
        initial["amount"] = fees.yuan(balance.outstanding)
    if PaymentWay.CASH in ways:
        initial["way"] = PaymentWay.CASH
    return PaymentForm(data, ways=ways, initial=initial)


@login_required
@require_GET
def fee_entry(request, event_id: int, entry_id: int):
    event, entry = _entry(request, event_id, entry_id)
    return _entry_page(request, event, entry)


def _entry_page(request, event, entry, form=None, owed_form=None, status=200):
    balance = fees.balance(entry)
    context = {
        "event": event,
        "entry": entry,
        "balance": balance,
        "form": form or _payment_form(event, balance=balance),
        "owed_form": owed_form or OwedForm(initial={"owed": fees.yuan(balance.owed)}),
        "request_": getattr(entry, "entry_request", None),
        "contact": _contact(request, event, entry),
    }
    return render(request, "manage/fees/entry.html", context, status=status)


def _contact(request, event, entry) -> str:
    found = getattr(entry, "entry_request", None)
    if found is None:
        return ""
    return found.contact if can_manage_event(request.user, event) else privacy.mask(found.contact)


def _next(request, event, entry) -> str:
    """Back where the payment was taken: the desk, the check-in list, or the entry's page.
    `next` must be a path on this site: anything else ("2") would be taken by `redirect` for a
    view's name and fail."""
    target = request.POST.get("next", "")
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}
    ):
        return target
    return reverse("manage:fee-entry", args=[event.pk, entry.pk])


@login_required
@require_POST
def fee_pay(request, event_id: int, entry_id: int):
    event, entry = _entry(request, event_id, entry_id)
    form = _payment_form(event, request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            fees.record(
                entry,
                amount_fen=data["amount"],
                way=data["way"],
                reference=data["reference"],
                by=request.user,
                refund=data["refund"],
            )
        except fees.FeeRefused as refused:
            form.add_error(refused.field if refused.field in form.fields else None, str(refused))
        else:
            word = _("已退款") if data["refund"] else _("已收款")
            messages.success(
                request,
                _("%(what)s %(amount)s 元：%(name)s")
                % {"what": word, "amount": fees.yuan(data["amount"]), "name": entry.entrant},
            )
            return redirect(_next(request, event, entry))
    if request.POST.get("next"):
        # From the desk: say what was wrong there, where the payment is being taken.
        errors = "; ".join(str(e) for errors in form.errors.values() for e in errors)
        messages.error(request, f"{entry.entrant}: {errors}")
        return redirect(_next(request, event, entry))
    return _entry_page(request, event, entry, form=form, status=400)


@login_required
@require_http_methods(["POST"])
def fee_owed(request, event_id: int, entry_id: int):
    event, entry = _entry(request, event_id, entry_id)
    form = OwedForm(request.POST)
    if not form.is_valid():
        return _entry_page(request, event, entry, owed_form=form, status=400)
    fees.set_owed(entry, form.cleaned_data["owed"], request.user, form.cleaned_data["note"])
    messages.success(
        request, _("已改为应缴 %(a)s 元") % {"a": fees.yuan(form.cleaned_data["owed"])}
    )
    return redirect("manage:fee-entry", event.pk, entry.pk)


@login_required
@require_GET
def fees_export(request, event_id: int, what: str, fmt: str):
    """`entries`: every entry's balance (with the registrant's contact: whole for organisers,
    masked for assistants); `payments`: every payment and refund."""
    event = running_event(request, event_id)
    whole = can_manage_event(request.user, event)
    if what == "payments":
        header, rows = fee_tables.payments_table(event)
    elif what == "entries":
        header, rows = fee_tables.entries_table(event, whole)
    else:
        raise Http404
    return private_table_download(
        header, rows, fmt, title=_("报名费"), filename=f"fees-{what}-{event.pk}"
    )
