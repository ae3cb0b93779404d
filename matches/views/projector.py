"""The hall's projector: a full-screen page per round (pairings by union name A→Z with table
numbers) and one for the standings, paging themselves. No sign-in: they show what the public
pages show, under the same release settings (`matches.public.visibility`).

For a big event the pages go dense (at least 30 rows at 1920x1080; more than
`DENSE_ROWS` rows, or `?dense=1`), a round's pairings come one page per referee zone
(`?zone=<id>`, zones from `matches.models.floor`), and a side panel shows the round's clock and
the find-my-table address with its QR code (inline SVG, the sheets' `matches.views.qr`)."""

from __future__ import annotations

from django.http import Http404, JsonResponse
from django.shortcuts import render

from matches.draw import clock
from matches.draw.listing import by_name
from matches.events import announcements
from matches.models import RefereeZone, Round
from matches.public import ranks, visibility
from matches.public.front_cache import front_cacheable
from matches.views.addresses import public_url
from matches.views.qr import qr_svg

#: Seconds a page stays on screen; the page reloads after the last page for new data.
DEFAULT_SECONDS = 12
#: More rows than this and the projector goes dense by itself.
DENSE_ROWS = 30


def find_path(event) -> str:
    """The public find-my-table page."""
    return f"/events/{event.pk}/find/"


def _dense(request, rows: int) -> bool:
    asked = request.GET.get("dense")
    if asked in ("0", "1"):
        return asked == "1"
    return rows > DENSE_ROWS


def _hall(request, event, clock_round) -> dict:
    """The side panel: the round's clock and the find-my-table address with its QR code."""
    url = public_url(request, find_path(event))
    return {
        # The organiser's announcements: on the projector of this event only.
        "announcements": announcements.active(event.pk),
        "clock_round": clock_round,
        "find_url": url,
        "find_path": find_path(event),
        "find_qr": qr_svg(url),
    }


def _seconds(request) -> int:
    try:
        return max(3, min(120, int(request.GET.get("seconds", DEFAULT_SECONDS))))
    except ValueError:
        return DEFAULT_SECONDS


@front_cacheable
def round_projector(request, event_id: int, number: int):
    event = visibility.public_event_or_404(event_id)
    round_ = visibility.visible_round_or_404(event, number)
    rows = by_name(round_)
    zones = list(RefereeZone.objects.filter(event=event).order_by("first_table", "id"))
    zone = None
    if "zone" in request.GET:
        zone = next((z for z in zones if str(z.pk) == request.GET["zone"]), None)
        if zone is None:
            raise Http404("no such zone")
        rows = [row for row in rows if row["table"] and zone.holds(row["table"])]
    return render(
        request,
        "public/projector_round.html",
        {
            "event": event,
            "round": round_,
            "rows": rows,
            "zones": zones,
            "zone": zone,
            "dense": _dense(request, len(rows)),
            "seconds": _seconds(request),
            **_hall(request, event, round_),
        },
    )


@front_cacheable
def standings_projector(request, event_id: int):
    event = visibility.public_event_or_404(event_id)
    kind = "unions" if event.is_team else "players"
    snapshot = visibility.public_snapshot(event, kind)
    # The round being played, when the public sees its draw: its clock shows on the side.
    current = (
        visibility.visible_rounds(event)
        .filter(state=Round.State.PUBLISHED)
        .order_by("-number")
        .first()
    )
    return render(
        request,
        "public/projector_standings.html",
        {
            "event": event,
            "kind": kind,
            "snapshot": snapshot,
            # Each rank as shown: none before a result, "=" when shared.
            "rows": ranks.labelled(snapshot.rows, ranks.shared(snapshot.rows)) if snapshot else [],
            "dense": _dense(request, len(snapshot.rows) if snapshot else 0),
            "seconds": _seconds(request),
            **_hall(request, event, current),
        },
    )


@front_cacheable
def round_clock(request, event_id: int, number: int):
    """The round's clock as JSON (`static/js/clock.js` asks it every 30 seconds): off, running,
    paused or over, and the seconds left. Public under the draw's release, as the round page."""
    event = visibility.public_event_or_404(event_id)
    round_ = visibility.visible_round_or_404(event, number)
    response = JsonResponse(clock.state(clock.clock_of(round_)))
    response["Cache-Control"] = "no-cache"
    return response
