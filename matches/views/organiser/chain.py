"""The event's result chain as its organisers see it: how many entries, the head digest, and
whether the chain still holds against the stored results (`matches.store.chain.verify`); for
the organisers, the check of every derived row against a recompute of the results
(`matches.standings.verify`): a task, asked for by a button, whose progress and last answer
the page shows (a full recompute takes minutes at festival size: never inside a request)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from matches.models import DerivedCheck, ResultChainEntry
from matches.permissions import can_manage_event
from matches.standings import verify
from matches.store import chain
from matches.views.organiser.access import organised_event, running_event


def _derived_context(event) -> dict:
    check = DerivedCheck.objects.filter(event=event).select_related("requested_by").first()
    return {"event": event, "check": check, "head": chain.head(event)}


@login_required
def chain_page(request, event_id: int):
    event = running_event(request, event_id)
    verdict = chain.verify(event)
    kinds = {
        row["kind"]: row["n"]
        for row in ResultChainEntry.objects.filter(event=event)
        .order_by()
        .values("kind")
        .annotate(n=Count("id"))
    }
    labels = dict(ResultChainEntry.Kind.choices)
    context = {
        "event": event,
        "verdict": verdict,
        "kinds": [(labels[k], kinds.get(k, 0)) for k in ResultChainEntry.Kind.values],
        "head": chain.head(event),
        # The derived rows' check is the organisers' (assistants read the chain only).
        "is_organiser": can_manage_event(request.user, event),
    }
    if context["is_organiser"]:
        context.update(_derived_context(event))
    return render(request, "manage/chain.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def derived_check(request, event_id: int):
    """POST: ask for the check (a task); GET: its progress and answer (the page's fragment,
    polled while it runs). The event's organisers only."""
    event = organised_event(request, event_id)
    if request.method == "POST":
        verify.request_check(event, request.user)
        return redirect("manage:chain", event.pk)
    return render(request, "manage/_derived_check.html", _derived_context(event))
