"""The hall's floor for organisers: referee zones, who looks after which tables, a
round's coverage, and answering a table's call for a referee. docs/floor.md."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from matches.events import announcements, calls, zones
from matches.models import Announcement, RefereeCall, RefereeTable, RefereeZone, Round
from matches.permissions import can_manage_event
from matches.views.organiser.access import organised_event, running_event


def _plan_from(request, referees) -> dict:
    """The posted assignment grid: per referee, the zone boxes ticked and the tables typed."""
    plan = {}
    for staff in referees:
        user_id = staff.user_id
        zone_ids = [
            int(v) for v in request.POST.getlist(f"zones-{user_id}") if v.isascii() and v.isdigit()
        ]
        numbers = zones.parse_tables(request.POST.get(f"tables-{user_id}", ""))
        plan[user_id] = (zone_ids, numbers)
    return plan


@login_required
@require_http_methods(["GET", "POST"])
def zones_page(request, event_id: int):
    """Define the zones (one a line), tick each referee's zones and type their single tables,
    and see which tables of a round have nobody. Assistants (who run the day) read it; only
    organisers change it (staff is theirs)."""
    event = running_event(request, event_id)
    can_edit = can_manage_event(request.user, event)
    if request.method == "POST" and not can_edit:
        raise PermissionDenied("not an organiser of this event")
    referees = list(zones.event_referees(event))
    zone_text = None
    problems: list[str] = []
    if request.method == "POST":
        try:
            if request.POST.get("action") == "zones":
                zone_text = request.POST.get("zones", "")
                defined = zones.define_zones(event, zone_text)
                messages.success(request, _("已保存 %(n)d 个区域") % {"n": len(defined)})
            else:
                zones.assign(event, _plan_from(request, referees))
                messages.success(request, _("裁判分配已保存"))
            return redirect("manage:zones", event.pk)
        except zones.ZoneError as error:
            problems = error.problems
    event_zones = list(RefereeZone.objects.filter(event=event).prefetch_related("referees"))
    # Each referee's invitation note beside their name ("王老师 东区").
    notes = {s.user_id: (s.invitation.note if s.invitation else "") for s in referees}
    for zone in event_zones:
        zone.named = [(u.get_username(), notes.get(u.pk, "")) for u in zone.referees.all()]  # type: ignore[attr-defined]
    singles: dict[int, list[int]] = {}
    for user_id, number in RefereeTable.objects.filter(event=event).values_list(
        "referee_id", "number"
    ):
        singles.setdefault(user_id, []).append(number)
    rows = [
        {
            "staff": staff,
            "zone_ids": {z.pk for z in event_zones if staff.user in z.referees.all()},
            "tables": zones.compress(singles.get(staff.user_id, [])),
        }
        for staff in referees
    ]
    rounds = list(event.rounds.exclude(state=Round.State.DRAFT).order_by("-number"))
    shown = next((r for r in rounds if str(r.number) == request.GET.get("round")), None)
    shown = shown or zones.current_round(event) or (rounds[0] if rounds else None)
    return render(
        request,
        "manage/floor/zones.html",
        {
            "event": event,
            "zones": event_zones,
            "zone_text": zones.zones_text(event) if zone_text is None else zone_text,
            "rows": rows,
            "problems": problems,
            "rounds": rounds,
            "coverage": zones.coverage(shown) if shown else None,
            "can_edit": can_edit,
        },
        status=400 if problems else 200,
    )


@login_required
@require_POST
def acknowledge_call(request, event_id: int, call_id: int):
    """An organiser or assistant answers a table's call from the results queue."""
    event = running_event(request, event_id)
    call = get_object_or_404(RefereeCall, pk=call_id, table__round__event=event)
    calls.acknowledge(call, request.user)
    messages.success(request, _("已响应第 %(n)d 桌的呼叫") % {"n": call.table.number})
    queue = reverse("manage:results-queue", args=[event.pk])
    return redirect(f"{queue}?round={call.table.round.number}")


# --- announcements -----------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def announcements_page(request, event_id: int):
    """The event's organisers send a short message to every table phone, the referees and the
    projector, and see every one sent (who, when, withdrawn by whom). Assistants may not."""
    event = organised_event(request, event_id)
    error, text = "", ""
    in_play = announcements.round_in_play(event)
    # By default a message ends with the round being played: old news does not stay on top.
    ending = announcements.ENDS_WITH_ROUND if in_play else announcements.ENDS_WHEN_WITHDRAWN
    until = ""
    if request.method == "POST":
        text = request.POST.get("text", "")
        ending = request.POST.get("ending", ending)
        until = request.POST.get("until", "")
        try:
            announcements.send(event, request.user, text, ending=ending, until=until)
        except announcements.AnnouncementRefused as refused:
            error = str(refused)
        else:
            messages.success(request, _("通知已发送"))
            return redirect("manage:announcements", event.pk)
    return render(
        request,
        "manage/announcements.html",
        {
            "event": event,
            "log": announcements.log(event),
            "error": error,
            "text": text,
            "most": Announcement.MAX_LENGTH,
            "in_play": in_play,
            "ending": ending,
            "until": until,
        },
        status=400 if error else 200,
    )


@login_required
@require_POST
def withdraw_announcement(request, event_id: int, announcement_id: int):
    event = organised_event(request, event_id)
    announcement = get_object_or_404(Announcement, pk=announcement_id, event=event)
    if announcements.withdraw(announcement, request.user):
        messages.success(request, _("通知已撤回"))
    else:
        messages.info(request, _("这条通知已经撤回了"))
    return redirect("manage:announcements", event.pk)
