"""A union's private page, for its captain and the event's organisers."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, render

from matches import permissions
from matches.models import Union
from matches.permissions import Actor


@login_required
def union_private(request, union_id: int):
    """The union's private page: its captain's PIN (and, for organisers, a reset button)."""
    union = get_object_or_404(Union.objects.select_related("event"), pk=union_id)
    actor = Actor(user=request.user)
    if not permissions.can_see_union_pin(actor, union):
        return render(request, "referee/forbidden.html", status=403)
    response = render(
        request,
        "referee/union.html",
        {
            "union": union,
            "event": union.event,
            "captain": union.captain,
            "can_reset": permissions.can_manage_event(request.user, union.event),
        },
    )
    response["Cache-Control"] = "private, no-store"
    return response
