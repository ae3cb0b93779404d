"""Who gets into an organiser page: `running_event` (organisers and assistants: entries,
check-in, rounds) or `organised_event` (organisers only: settings, rules, staff)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from matches.events import lifecycle
from matches.models import Event
from matches.permissions import can_manage_event, can_run_event


def running_event(request, event_id: int) -> Event:
    event = get_object_or_404(Event, pk=event_id)
    if not can_run_event(request.user, event):
        raise PermissionDenied("not an organiser or assistant of this event")
    return event


def organised_event(request, event_id: int) -> Event:
    event = get_object_or_404(Event, pk=event_id)
    if not can_manage_event(request.user, event):
        raise PermissionDenied("not an organiser of this event")
    return event


#: The box an organiser ticks to make an event of a name they already use (the wizard, a copy).
CONFIRM_SAME_NAME = "confirm_same_name"


def same_name_unconfirmed(request, name: str) -> bool:
    """The organiser already has an event of this name and has not ticked the box that says
    they want another: a warning alone is read past on a phone."""
    return (
        request.POST.get(CONFIRM_SAME_NAME) != "yes"
        and lifecycle.same_name_events(request.user, name).exists()
    )


def posted_pk(request, name: str) -> int | None:
    """A posted row id, or None (then the lookup is a 404) when it is not a plain number."""
    value = request.POST.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 18 else None
