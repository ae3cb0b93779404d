"""Registration from the players (docs/registration.md): the organiser's settings (opening,
capacity, review, fee, fields asked), the review queue and one view per decision, the waiting
list, the requests' export, and erasing the contacts."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from matches.events import fees, privacy, signup, signup_review
from matches.events.signup_forms import DeclineForm, SignupSettingsForm
from matches.models import EntryLog, EntryRequest
from matches.permissions import can_manage_event
from matches.views.addresses import public_url
from matches.views.organiser.access import organised_event, running_event
from matches.views.sheets import private_table_download


@login_required
@require_http_methods(["GET", "POST"])
def signup_settings(request, event_id: int):
    event = organised_event(request, event_id)
    current = signup.settings_of(event)
    before = (current.fee_fen, current.fee_per, current.capacity, current.waitlist_limit)
    form = SignupSettingsForm(request.POST or None, instance=current)
    if request.method == "POST" and form.is_valid():
        # One transaction: the settings, the fees repriced and the waiting list moved up (under
        # the settings row's lock) are written together or not at all.
        with transaction.atomic():
            saved = form.save(commit=False)
            saved.updated_by, saved.updated_at = request.user, timezone.now()
            saved.save()
            if (saved.fee_fen, saved.fee_per) != before[:2]:
                fees.reprice(event)
            if (saved.capacity, saved.waitlist_limit) != before[2:]:
                signup.promote(event, by=request.user)
            EntryLog.objects.create(event=event, action="settings", by=request.user)
        messages.success(request, _("报名设置已保存"))
        return redirect("manage:signup-settings", event.pk)
    context = {
        "event": event,
        "form": form,
        "signup": current,
        "state": signup.window(current),
        "public_url": public_url(request, reverse("public:signup", args=[event.pk])),
        "erase_after": privacy.erase_after(current),
        "counts": signup_review.counts(event),
    }
    return render(
        request, "manage/signup/settings.html", context, status=400 if form.errors else 200
    )


@login_required
@require_GET
def signup_queue(request, event_id: int):
    event = running_event(request, event_id)
    status = request.GET.get("status", EntryRequest.Status.PENDING)
    query = request.GET.get("q", "").strip()
    found = signup_review.queue(event, status, query)
    page = Paginator(found, signup_review.PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "event": event,
        "signup": signup.settings_of(event),
        "rows": signup_review.review(event, list(page), request.user),
        "page": page,
        "status": status,
        "query": query,
        "statuses": EntryRequest.Status.choices,
        "counts": signup_review.counts(event),
        "taken": signup.places_taken(event),
        "whole_contacts": can_manage_event(request.user, event),
        "decline_form": DeclineForm(),
    }
    return render(request, "manage/signup/queue.html", context)


def _request(request, event_id: int, request_id: int):
    event = running_event(request, event_id)
    return event, get_object_or_404(EntryRequest, pk=request_id, event=event)


def _back(request, event, default_status: str = ""):
    status = request.POST.get("status", default_status)
    url = reverse("manage:signup-queue", args=[event.pk])
    return redirect(f"{url}?status={status}" if status else url)


@login_required
@require_POST
def signup_accept(request, event_id: int, request_id: int):
    event, entry = _request(request, event_id, request_id)
    known = {int(v) for v in request.POST.getlist("known") if v.isascii() and v.isdigit()}
    try:
        signup.accept(entry, request.user, known=known)
    except signup.SignupRefused as refused:
        messages.error(request, f"{entry.name}: {refused}")
    else:
        messages.success(request, _("已接受：%(name)s") % {"name": entry.name})
    return _back(request, event)


@login_required
@require_POST
def signup_accept_many(request, event_id: int):
    event = running_event(request, event_id)
    ids = [int(v) for v in request.POST.getlist("ids") if v.isascii() and v.isdigit()][:500]
    done, refused = signup.accept_many(event, ids, request.user)
    if done:
        messages.success(request, _("已接受 %(n)s 个报名") % {"n": len(done)})
    for line in refused:
        messages.error(request, line)
    if not ids:
        messages.error(request, _("请先勾选要接受的报名"))
    return _back(request, event)


@login_required
@require_POST
def signup_decline(request, event_id: int, request_id: int):
    event, entry = _request(request, event_id, request_id)
    form = DeclineForm(request.POST)
    reason = form.cleaned_data["reason"] if form.is_valid() else ""
    try:
        signup.decline(entry, reason, request.user)
    except signup.SignupRefused as refused:
        messages.error(request, f"{entry.name}: {refused}")
    else:
        messages.success(request, _("已拒绝：%(name)s") % {"name": entry.name})
    return _back(request, event)


@login_required
@require_POST
def signup_waitlist(request, event_id: int, request_id: int):
    event, entry = _request(request, event_id, request_id)
    try:
        signup.to_waitlist(entry, request.user)
    except signup.SignupRefused as refused:
        messages.error(request, f"{entry.name}: {refused}")
    else:
        messages.success(request, _("已转为候补：%(name)s") % {"name": entry.name})
    return _back(request, event)


@login_required
@require_POST
def signup_withdraw_for(request, event_id: int, request_id: int):
    """The organiser withdraws a request for its registrant (a phone call: "we cannot come")."""
    event, entry = _request(request, event_id, request_id)
    try:
        signup.withdraw(entry, by=request.user)
    except signup.SignupRefused as refused:
        messages.error(request, f"{entry.name}: {refused}")
    else:
        messages.success(request, _("已撤回：%(name)s") % {"name": entry.name})
    return _back(request, event)


@login_required
@require_POST
def signup_promote(request, event_id: int):
    """Move the waiting list up into the places free now (after entries withdrew elsewhere)."""
    event = running_event(request, event_id)
    with transaction.atomic():
        moved = signup.promote(event, by=request.user)
    messages.success(request, _("候补递补 %(n)s 个") % {"n": len(moved)})
    return _back(request, event, EntryRequest.Status.WAITLISTED)


@login_required
@require_GET
def signup_export(request, event_id: int, fmt: str):
    """Every request as CSV or XLSX; contacts whole for organisers, masked for assistants."""
    event = running_event(request, event_id)
    header, rows = signup_review.request_table(event, can_manage_event(request.user, event))
    return private_table_download(
        header, rows, fmt, title=_("报名申请"), filename=f"signup-requests-{event.pk}"
    )


@login_required
@require_POST
def signup_erase(request, event_id: int):
    """Erase the registrants' contacts now (the daily command does it at the set time)."""
    event = organised_event(request, event_id)
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("请勾选确认：删除后无法恢复"))
        return redirect("manage:signup-settings", event.pk)
    erased = privacy.erase_contacts(signup.settings_of(event), by=request.user)
    messages.success(request, _("已删除 %(n)s 个报名的联系方式") % {"n": erased})
    return redirect("manage:signup-settings", event.pk)
