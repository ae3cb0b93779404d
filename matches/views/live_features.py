"""Feature tables for spectators (docs/live-tables.md): the event's list, one table's page and
its board fragment, their streams, and the public JSON.

Everything here reads `matches.public.live.spectator_view`, which keeps only what arrived at
least the table's delay ago. The streams get a notice the moment a row arrives, with the moment
it may be seen (`at`); they hold it until then and pass on only `{"kind":"feature"}`, so not even
the timing of a play reaches a spectator before its delay. A stream opened late reads the moments
of rows already stored (never the rows) and holds those too.
"""

from __future__ import annotations

import heapq
import json
import time

from django.core.handlers.asgi import ASGIRequest
from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from matches import push
from matches.public import limits, live
from matches.public.front_cache import front_cacheable
from matches.public.visibility import public_event_or_404
from matches.views import live as streams

FEATURE_FRAME = 'data: {"kind":"feature"}\n\n'


def _moment(message: str) -> float | None:
    try:
        at = json.loads(message).get("at")
    except (ValueError, AttributeError):
        return None
    return float(at) if isinstance(at, (int, float)) else None


class _Hold:
    """What a spectator's stream holds back: the moments at which notices may be passed on,
    each released as a bare frame when its moment comes; a ping when nothing was sent for a
    heartbeat. The same for the thread's and the event loop's streams."""

    def __init__(self, moments: list[float]):
        self.heap = list(moments)
        heapq.heapify(self.heap)
        self.last = time.time()
        self.end = time.monotonic() + streams._lifetime()

    def alive(self) -> bool:
        return time.monotonic() < self.end

    def due(self) -> tuple[str | None, float]:
        """(the frame to send now, or None and how long to wait for a notice)."""
        now = time.time()
        released = False
        while self.heap and self.heap[0] <= now:
            heapq.heappop(self.heap)
            released = True
        heartbeat = streams._heartbeat()
        if released or now - self.last >= heartbeat:
            self.last = now
            return (FEATURE_FRAME if released else ": ping\n\n"), 0.0
        wait = heartbeat - (now - self.last)
        if self.heap:
            wait = min(wait, self.heap[0] - now)
        return None, max(wait, 0.01)

    def heard(self, message: str | None) -> None:
        at = _moment(message) if message is not None else None
        if at is not None:
            heapq.heappush(self.heap, at)


def _held_sync(channels: list[str], moments: list[float]):
    sink = push._ThreadSink()
    push.hub.subscribe(channels, sink)
    try:
        yield streams.HELLO
        hold = _Hold(moments)
        while hold.alive():
            frame, wait = hold.due()
            if frame is not None:
                yield frame
                continue
            message = sink.get(wait)
            if message == push.CLOSE:
                return
            hold.heard(message)
    finally:
        push.hub.unsubscribe(channels, sink)


async def _held_async(channels: list[str], moments: list[float]):
    sink = push._AsyncSink()
    push.hub.subscribe(channels, sink)
    try:
        yield streams.HELLO
        hold = _Hold(moments)
        while hold.alive():
            frame, wait = hold.due()
            if frame is not None:
                yield frame
                continue
            message = await sink.get(wait)
            if message == push.CLOSE:
                return
            hold.heard(message)
    finally:
        push.hub.unsubscribe(channels, sink)


def _held_stream(request, channels: list[str], moments: list[float]):
    if isinstance(request, ASGIRequest):
        return streams.stream(request, channels, content=_held_async(channels, moments))
    return streams.stream(request, channels, content=_held_sync(channels, moments))


#: Seconds the streams opening on one feature table share its reading (a hall's screens open
#: theirs at once: one database read, not one each, as `live._check_public_event` does).
OPENING_SECONDS = 2


def _opening(key: str, read) -> tuple[bool, float, list[float]]:
    """(public, delay in seconds, the moments of the rows stored), shared for a moment and read
    once for a burst of openings (`limits.shared_reading`)."""

    def reading() -> tuple[bool, float, list[float]]:
        try:
            return read()
        except Http404:
            return (False, 0.0, [])

    return limits.shared_reading(key, OPENING_SECONDS, reading)


def _held(request, key: str, channel: str, read):
    public, delay, moments = _opening(key, read)
    if not public:
        raise Http404("no such feature table")
    # A row may arrive between the reading (shared, or just made) and the subscription: it is
    # visible by this moment at the latest, so one notice then covers it (a spare one costs a
    # 304).
    if delay:
        moments = sorted([*moments, time.time() + delay])
    return _held_stream(request, [channel], moments)


@require_GET
def feature_stream(request, event_id: int, feature_id: int):
    def read():
        feature = live.public_feature_or_404(public_event_or_404(event_id), feature_id)
        return True, feature.delay.total_seconds(), live.pending_moments(feature)

    key = f"live-feature-opening:{event_id}:{feature_id}"
    return _held(request, key, push.feature(feature_id), read)


@require_GET
def features_stream(request, event_id: int):
    def read():
        rows = live.public_features(public_event_or_404(event_id))
        moments = sorted(m for feature in rows for m in live.pending_moments(feature))
        delay = max((feature.delay.total_seconds() for feature in rows), default=0.0)
        return True, delay, moments

    return _held(request, f"live-features-opening:{event_id}", push.feature_list(event_id), read)


# --- pages ------------------------------------------------------------------------------------


# Shared by nginx for a second, as the other public pages: a copy is older, never earlier, than
# what the delay allows.
@front_cacheable
@require_GET
def features_page(request, event_id: int):
    event = public_event_or_404(event_id)
    rows = live.public_features(event)
    boards = [{"feature": row, "view": live.spectator_view(row)} for row in rows]
    etag = live.view_etag({"rows": [b["view"] for b in boards]})
    return live.conditional(
        request,
        etag,
        lambda: render(request, "public/features.html", {"event": event, "boards": boards}),
    )


@front_cacheable
@require_GET
def feature_page(request, event_id: int, feature_id: int):
    event = public_event_or_404(event_id)
    feature = live.public_feature_or_404(event, feature_id)
    view = live.board(feature)
    template = (
        "public/_feature_board.html" if request.headers.get("HX-Request") else "public/feature.html"
    )
    response = live.conditional(
        request,
        live.view_etag(view),
        lambda: render(request, template, {"event": event, "feature": feature, "view": view}),
    )
    response["Vary"] = "HX-Request"  # the page and its board fragment share the view's ETag
    return response
