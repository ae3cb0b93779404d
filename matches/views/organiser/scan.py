"""The check-in desk: a badge's QR code read by the camera (static/js/checkin_scan.js) or typed by
a USB scanner, or its desk code typed by hand, checks the entry in; each answer offers the undo.
The script posts the same form the page shows and swaps in the answer (`_scan_state.html`);
without it the form posts and the page comes back with the answer."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from matches.events import checkin, scan
from matches.models import Registration
from matches.views.organiser.access import posted_pk, running_event
from matches.views.organiser.checkin import desk_dues, desk_payment_context


def _answer(request, event, result: dict, status: int = 200):
    number = checkin.next_round(event)
    context = {
        "event": event,
        "round": number,
        "summary": checkin.summary(event, number),
        "log": scan.recent(event),
        **desk_payment_context(event, reverse("manage:checkin-scan", args=[event.pk])),
        **result,
    }
    scanned = result.get("scanned")
    if scanned is not None:
        context["due"] = desk_dues(event, [scanned.entry.pk]).get(scanned.entry.pk, 0)

    template = "manage/checkin/_scan_state.html" if request.htmx else "manage/checkin/scan.html"
    response = render(request, template, context, status=status)
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def desk(request, event_id: int):
    event = running_event(request, event_id)
    if request.method != "POST":
        return _answer(request, event, {})
    try:
        scanned = scan.scan_check_in(event, request.POST.get("code", ""), request.user)
    except scan.ScanRefused as refused:
        return _answer(request, event, {"error": str(refused), "error_code": refused.code}, 400)
    return _answer(request, event, {"scanned": scanned})


@login_required
@require_POST
def undo(request, event_id: int):
    event = running_event(request, event_id)
    entry = get_object_or_404(Registration, pk=posted_pk(request, "entry"), event=event)
    if scan.undo_check_in(event, entry, request.user):
        return _answer(request, event, {"undone": entry})
    return _answer(
        request,
        event,
        {
            "error": _("%(name)s 没有签到，无需撤销") % {"name": entry.entrant},
            "error_code": "absent",
        },
        400,
    )
