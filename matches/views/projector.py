"""The hall's projector: a full-screen page per round (pairings by union name A→Z with table
numbers) and one for the standings, paging themselves. No sign-in: they show what the public
pages show, under the same release settings (`matches.visibility`)."""

from __future__ import annotations

from django.shortcuts import render

from matches import visibility
from matches.draw.listing import by_name
from matches.front_cache import front_cacheable

#: Seconds a page stays on screen; the page reloads after the last page for new data.
DEFAULT_SECONDS = 12


def _seconds(request) -> int:
    try:
        return max(3, min(120, int(request.GET.get("seconds", DEFAULT_SECONDS))))
    except ValueError:
        return DEFAULT_SECONDS


@front_cacheable
def round_projector(request, event_id: int, number: int):
    event = visibility.public_event_or_404(event_id)
    round_ = visibility.visible_round_or_404(event, number)
    return render(
        request,
        "public/projector_round.html",
        {"event": event, "round": round_, "rows": by_name(round_), "seconds": _seconds(request)},
    )


@front_cacheable
def standings_projector(request, event_id: int):
    event = visibility.public_event_or_404(event_id)
    kind = "unions" if event.is_team else "players"
    return render(
        request,
        "public/projector_standings.html",
        {
            "event": event,
            "kind": kind,
            "snapshot": visibility.public_snapshot(event, kind),
            "seconds": _seconds(request),
        },
    )
