"""A signed-in referee's floor: their tables, most pressing first (a call, a dispute, a report
awaiting confirmation: docs/floor.md), the announcements of their events and of a table, and the
table's call for its referee (呼叫裁判) with its answer."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from matches import permissions, ratelimit, selectors
from matches.events import announcements, calls
from matches.models import EventStaff, RefereeCall, Round
from matches.permissions import Actor
from matches.results import lockouts
from matches.views.referee.access import Access, at_table, link_access

#: most pressing first on a referee's list: a call, a dispute, a report awaiting confirmation
HOME_ORDER = ("called", "disputed", "reported", "waiting", "confirmed")


def match_unions(match) -> tuple:
    """The two unions of a match (the one place that reads them, for the side-rows change)."""
    return (match.union_a, match.union_b)


def referee_rows(actor: Actor) -> list[dict]:
    """The actor's tables in each event's current round (its newest published round), each
    with its live state, most pressing first (docs/floor.md)."""
    tables = list(
        permissions.tables_of(actor)
        .filter(round__state=Round.State.PUBLISHED)
        .select_related("round__event", "match__round__event")
        .prefetch_related("match__sides__union", "match__sides__player")[:500]
    )
    newest: dict[int, int] = {}
    for table in tables:
        event_id = table.round.event_id
        newest[event_id] = max(newest.get(event_id, 0), table.round.number)
    tables = [t for t in tables if t.round.number == newest[t.round.event_id]]
    matches = [t.match for t in tables if getattr(t, "match", None) is not None]
    states = selectors.table_states(matches)
    open_calls = calls.open_calls([t.pk for t in tables])
    locks = locked_at(matches)
    rows = []
    for table in tables:
        match = getattr(table, "match", None)
        found = states.get(match.pk) if match is not None else None
        state = found["state"] if found else "waiting"
        rows.append(
            {
                "table": table,
                "event": table.round.event,
                "unions": match_unions(match) if match is not None else (),
                "state": "called" if table.pk in open_calls else state,
                "table_state": state,
                "next_deal": (found["final"] + 1) if found else 1,
                "call": open_calls.get(table.pk),
                "locks": locks.get(table.pk, []),
            }
        )
    rows.sort(key=lambda r: (HOME_ORDER.index(r["state"]), r["event"].pk, r["table"].number))
    return rows


def locked_at(matches: list) -> dict[int, list[dict]]:
    """Each table's unions whose captain PIN is locked there: {table id: [{union, minutes}]}, in
    one cache round trip."""
    subjects = {}
    for match in matches:
        for union in (side.union for side in match.union_sides):
            subjects[lockouts.pin_subject(union.pk, match.table_id)] = (match.table_id, union)
    if not subjects:
        return {}
    found: dict[int, list[dict]] = {}
    waits = ratelimit.CAPTAIN_PIN_FAILURES.locked_for_many(list(subjects))
    for subject, wait in waits.items():
        if wait:
            table_id, union = subjects[subject]
            minutes = max(1, (wait + 59) // 60)
            found.setdefault(table_id, []).append({"union": union, "minutes": minutes})
    return found


@login_required
def home(request):
    actor = Actor(user=request.user)
    rows = referee_rows(actor)
    counts = {state: sum(r["state"] == state for r in rows) for state in HOME_ORDER}
    return render(
        request,
        "referee/home.html",
        {
            "tables": rows,
            "counts": counts,
            "confirmable": permissions.confirmable_reports(actor),
            "captain_of": permissions.captained_unions(actor),
            "announcements": [
                a for pk in referee_events(request.user) for a in announcements.active(pk)
            ],
            "announcements_url": reverse("referee:home-announcements"),
        },
    )


@at_table()
def table_announcements(request, access: Access):
    """The table's announcements: the fragment its live notices refetch."""
    return _announcements(request, [access.table.round.event_id], access.url("announcements"))


@login_required
def home_announcements(request):
    """A referee's home: the announcements of every event they referee."""
    return _announcements(
        request, referee_events(request.user), reverse("referee:home-announcements")
    )


def referee_events(user) -> list[int]:
    """The events `user` is staff of, or referees a table of now."""
    events = set(
        EventStaff.objects.filter(user=user, revoked_at__isnull=True).values_list(
            "event_id", flat=True
        )
    )
    events |= set(permissions.referee_tables(user).values_list("round__event_id", flat=True))
    return sorted(events)


def _announcements(request, event_ids: list[int], url: str) -> HttpResponse:
    shown = [a for event_id in event_ids for a in announcements.active(event_id)]
    response = render(
        request,
        "referee/_announcements.html",
        {"announcements": shown, "announcements_url": url},
    )
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_POST
def acknowledge_call(request, call_id: int):
    """A referee of the table (or an organiser) answers the table's call."""
    call = get_object_or_404(RefereeCall.objects.select_related("table__round__event"), pk=call_id)
    if not permissions.can_enter_results(Actor(user=request.user), call.table):
        return render(request, "referee/forbidden.html", status=403)
    calls.acknowledge(call, request.user)
    messages.success(request, _("已响应第 %(n)d 桌的呼叫") % {"n": call.table.number})
    return redirect("referee:home")


@require_http_methods(["GET", "POST"])
def call_referee(request, token: str):
    """呼叫裁判 from the table's phone: one open call per table, another a minute later at most.
    GET answers the call box alone: the phone asks for it while its call is open, and the box
    drops 裁判正在赶来 as soon as a referee has acknowledged."""
    access = link_access(request, token)
    if isinstance(access, HttpResponse):
        return access
    if request.method == "GET":
        table = access.table
        response = render(
            request,
            "referee/_call.html",
            {
                "access": access,
                "table": table,
                "round_open": table.round.state == Round.State.PUBLISHED,
            },
        )
        patch_cache_control(response, private=True, no_store=True)
        return response
    try:
        _call, created = calls.call_referee(access.table)
    except calls.CallRefused as refused:
        messages.error(request, str(refused))
    else:
        if created:
            messages.success(request, _("已呼叫裁判，请在座位上稍候"))
        else:
            messages.info(request, _("已经呼叫过裁判，请稍候"))
    return redirect(access.url("table"))
