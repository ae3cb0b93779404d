"""The event's result chain as its organisers see it: how many entries, the head digest, and
whether the chain still holds against the stored results (`matches.store.chain.verify`); on
request, every derived row recomputed from the results too (`recompute_differences`, rolled
back: the check changes nothing)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Count
from django.shortcuts import render

from matches.models import ResultChainEntry
from matches.standings import verify
from matches.store import chain
from matches.views.organiser.access import running_event


@login_required
def chain_page(request, event_id: int):
    event = running_event(request, event_id)
    verdict = chain.verify(event)
    derived = None
    if verdict.ok and request.GET.get("derived") == "1":
        derived = verify.recompute_differences(event)
    kinds = {
        row["kind"]: row["n"]
        for row in ResultChainEntry.objects.filter(event=event)
        .order_by()
        .values("kind")
        .annotate(n=Count("id"))
    }
    labels = dict(ResultChainEntry.Kind.choices)
    return render(
        request,
        "manage/chain.html",
        {
            "event": event,
            "verdict": verdict,
            "derived": derived,
            "kinds": [(labels[k], kinds.get(k, 0)) for k in ResultChainEntry.Kind.values],
            "head": chain.head(event),
        },
    )
