"""Check-in for the next round: search, check in one / all / a club, undo, the carry-over
decision for this round, and the warning of who will not be drawn. The captain's private link
(/entry/<token>/) may check the union in when the event allows it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches.events import checkin as service
from matches.events import entries, fees, scan
from matches.events.forms import CarryOverForm
from matches.models import EntryFee, PaymentWay, Registration
from matches.models.digest import token_digest
from matches.views.addresses import public_url
from matches.views.organiser.access import posted_pk, running_event
from players.models import Club

UNDO_KEY = "checkin-undo-{}"


def desk_dues(event, ids, signup=None) -> dict[int, int]:
    """What each listed entry still owes (the desk takes it there); {} when the event charges
    nothing."""
    signup = signup or fees.settings_of(event)
    if not signup.fee_fen and not EntryFee.objects.filter(event=event).exists():
        return {}
    fees.ensure_accounts(event)
    return fees.outstanding_by_entry(event, ids)


def desk_payment_context(event, back: str, signup=None) -> dict:
    """The desk's payment form: the event's ways, and where the payment sends the desk back."""
    ways = (signup or fees.settings_of(event)).payment_ways
    return {"pay_ways": [(k, v) for k, v in PaymentWay.choices if k in ways], "pay_back": back}


def _context(request, event) -> dict:
    number = service.next_round(event)
    query = request.GET.get("q", "").strip()
    found = entries.search(event, query).filter(service.listed_q(event, number))
    page = Paginator(found, entries.PAGE_SIZE).get_page(request.GET.get("page"))
    present = set(
        found.filter(service.present_q(event, number))
        .filter(pk__in=[r.pk for r in page])
        .values_list("pk", flat=True)
    )
    signup = fees.settings_of(event)
    dues = desk_dues(event, [r.pk for r in page], signup)
    for r in page:
        r.present = r.pk in present
        r.due = dues.get(r.pk, 0)
    club_ids = (
        set(
            event.unions.filter(round__isnull=True)
            .exclude(club=None)
            .values_list("club_id", flat=True)
        )
        if event.is_team
        else set(
            event.registrations.exclude(player__club=None).values_list("player__club_id", flat=True)
        )
    )
    return {
        "event": event,
        "page": page,
        "query": query,
        "round": number,
        "summary": service.summary(event, number),
        "clubs": Club.objects.filter(pk__in=club_ids).order_by("name"),
        "carry_form": CarryOverForm(
            initial={"carry_over": "yes" if service.carries_over(event, number) else "no"}
        ),
        "undo": bool(request.session.get(UNDO_KEY.format(event.pk))),
        **desk_payment_context(event, reverse("manage:checkin", args=[event.pk]), signup),
    }


@login_required
def checkin(request, event_id: int):
    event = running_event(request, event_id)
    context = _context(request, event)
    template = "manage/checkin/_list.html" if request.htmx else "manage/checkin/page.html"
    return render(request, template, context)


@login_required
@require_POST
def toggle(request, event_id: int, entry_id: int):
    event = running_event(request, event_id)
    entry = get_object_or_404(Registration, pk=entry_id, event=event)
    number = service.next_round(event)
    present = event.registrations.filter(service.present_q(event, number), pk=entry.pk).exists()
    refused = ""
    try:
        scan.tick(event, entry, request.user, number, present)
    except service.CheckInRefused as error:
        refused = str(error)
    else:
        present = not present
    if request.htmx:
        # For manage/checkin/_row.html, as the list view sets it; not a model attribute. A
        # refusal is said on the row it answers, at once (not kept for the next page).
        entry.present = present  # type: ignore[attr-defined]
        entry.due = desk_dues(event, [entry.pk]).get(entry.pk, 0)  # type: ignore[attr-defined]
        context = {
            "event": event,
            "r": entry,
            "summary": service.summary(event, number),
            **desk_payment_context(event, reverse("manage:checkin", args=[event.pk])),
        }
        response = render(
            request, "manage/checkin/_row.html", {**context, "oob": True, "refused": refused}
        )
        if refused:
            # The row grows by its reason, which a phone can push below the screen: the whole
            # row is brought into view. (A tick that went through scrolls nothing.)
            response["HX-Reswap"] = f"outerHTML show:#checkin-{entry.pk}:bottom"
        return response
    if refused:
        messages.error(request, refused)
    return _back(event, request)


def _back(event, request):
    url = reverse("manage:checkin", args=[event.pk])
    query = request.POST.get("q", "")
    return redirect(f"{url}?q={query}" if query else url)


@login_required
@require_POST
def check_in_many(request, event_id: int):
    event = running_event(request, event_id)
    found = event.registrations.all()
    club_id = request.POST.get("club")
    if club_id:
        club = get_object_or_404(Club, pk=posted_pk(request, "club"))
        found = found.filter(union__club=club) if event.is_team else found.filter(player__club=club)
    ids = service.check_in_many(event, found)
    request.session[UNDO_KEY.format(event.pk)] = ids
    if club_id:
        messages.success(
            request, _("已为俱乐部“%(club)s”签到 %(n)s 个") % {"club": club.name, "n": len(ids)}
        )
    else:
        messages.success(request, _("已全部签到：新签到 %(n)s 个") % {"n": len(ids)})
    return _back(event, request)


@login_required
@require_POST
def undo_many(request, event_id: int):
    event = running_event(request, event_id)
    ids = request.session.pop(UNDO_KEY.format(event.pk), None) or []
    n = service.undo_many(event, ids)
    messages.success(request, _("已撤销上一次批量签到（%(n)s 个）") % {"n": n})
    return _back(event, request)


@login_required
@require_POST
def carry_over(request, event_id: int):
    event = running_event(request, event_id)
    form = CarryOverForm(request.POST)
    number = service.next_round(event)
    if form.is_valid():
        try:
            service.set_carry_over(
                event, number, form.cleaned_data["carry_over"], user=request.user
            )
        except service.CheckInRefused as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _("第 %(n)s 轮：沿用上一轮签到") % {"n": number}
                if form.cleaned_data["carry_over"]
                else _("第 %(n)s 轮：每个报名都须重新签到") % {"n": number},
            )
    return _back(event, request)


# --- the entry's private link (captains, no account) ------------------------------------------


def entry_page(request, token: str):
    entry = (
        Registration.objects.select_related("event", "union", "player")
        .prefetch_related("union__members__player")
        .filter(private_token_digest=token_digest(token))
        .first()
    )
    if entry is None or not token:
        raise Http404
    event = entry.event
    number = service.next_round(event)
    if request.method == "POST":
        try:
            service.self_check_in(entry)
        except service.CheckInRefused as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("签到成功：第 %(n)s 轮") % {"n": number})
        return redirect("entry-page", token)
    present = event.registrations.filter(service.present_q(event, number), pk=entry.pk).exists()
    return render(
        request,
        "manage/checkin/entry.html",
        {
            "event": event,
            "entry": entry,
            "round": number,
            "present": present,
            "withdrawn": entry.status == Registration.Status.WITHDRAWN,
        },
    )


@login_required
def entry_link(request, event_id: int, entry_id: int):
    """Show (and make, on first use) the entry's private link for the organiser to hand out."""
    event = running_event(request, event_id)
    entry = get_object_or_404(Registration, pk=entry_id, event=event)
    token = service.private_token(entry)
    return render(
        request,
        "manage/checkin/link.html",
        {"event": event, "entry": entry, "url": public_url(request, f"/entry/{token}/")},
    )
