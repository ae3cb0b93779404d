"""The server-sent-event streams of `matches.push`: one URL per audience.

- `/live/events/<event_id>/`: the event's public pages (and a player's private page).
- `/live/tables/<match_id>/`: one table's public page (its round must be public).
- `/live/staff/<event_id>/`: the organiser's dashboard and results queue, the referees' lists
  (organisers, assistants and referees of the event only).
- `/live/referee/`: a signed-in referee's home: their tables and their events' round changes.
- `/live/players/<signed>/`: one player's private page (`player_stream_url(player_id)`: the
  page renders that URL into `<meta name="live-stream">`; the signature is the authorisation).
  Its notices carry the player's new table when a round's draw becomes public; other notices
  of the event come from `/live/events/<id>/`.

A stream carries notices only (`matches.push`: never data); the page fetches its fragment by
the views it polls. Served by a thread under WSGI (`runserver`, gunicorn gthread) and by the
event loop under ASGI (uvicorn workers: `deploy/README.md`), where thousands of open streams
cost a little memory each. While notices cannot reach the process (Redis away), the stream
answers 503 and `static/js/live.js` keeps the page polling and tries again.
"""

from __future__ import annotations

import time

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.views.decorators.http import require_GET

from matches import permissions, push
from matches.models import Event, EventStaff, Match, RefereeLink
from matches.public import limits
from matches.public.visibility import public_event_or_404, visible_round_or_404

HELLO = 'retry: 5000\nevent: hello\ndata: {"kind":"hello"}\n\n'


def _frame(message: str) -> str:
    return f"data: {message}\n\n"


def _lifetime() -> float:
    return float(getattr(settings, "LIVE_STREAM_SECONDS", 600))


def _heartbeat() -> float:
    return float(getattr(settings, "LIVE_HEARTBEAT_SECONDS", 15))


def _ends_stream(message: str, end_on: str) -> bool:
    """A notice after which the stream ends (the browser opens it again with new channels)."""
    return bool(end_on) and f'"kind":"{end_on}"' in message


def _sync_stream(channels: list[str], end_on: str = ""):
    sink = push._ThreadSink()
    push.hub.subscribe(channels, sink)
    try:
        yield HELLO
        end = time.monotonic() + _lifetime()
        while time.monotonic() < end:
            message = sink.get(_heartbeat())
            if message == push.CLOSE:
                return
            yield ": ping\n\n" if message is None else _frame(message)
            if message is not None and _ends_stream(message, end_on):
                return
    finally:
        push.hub.unsubscribe(channels, sink)


async def _async_stream(channels: list[str], end_on: str = ""):
    sink = push._AsyncSink()
    push.hub.subscribe(channels, sink)
    try:
        yield HELLO
        end = time.monotonic() + _lifetime()
        while time.monotonic() < end:
            message = await sink.get(_heartbeat())
            if message == push.CLOSE:
                return
            yield ": ping\n\n" if message is None else _frame(message)
            if message is not None and _ends_stream(message, end_on):
                return
    finally:
        push.hub.unsubscribe(channels, sink)


def stream(
    request, channels: list[str], end_on: str = "", content=None
) -> HttpResponse | StreamingHttpResponse:
    """`content`: the stream's own generator (a feature table's holds its notices,
    matches/views/live_features.py); by default the channels' notices as they come."""
    if not getattr(settings, "LIVE_ENABLED", True) or not push.hub.available():
        response = HttpResponse("live updates unavailable", status=503, content_type="text/plain")
        response["Retry-After"] = "10"
        return response
    refused, closed = limits.open_stream(request)
    if refused is not None:
        return refused
    if content is not None:
        pass
    elif isinstance(request, ASGIRequest):
        content = _async_stream(channels, end_on)
    else:
        content = _sync_stream(channels, end_on)
    # The stream needs no database: give this thread's connections back now rather than when
    # the stream ends, or every open stream would hold one (ASGI runs each request's sync code
    # in a thread of its own).
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close()
    streaming = StreamingHttpResponse(content, content_type="text/event-stream")
    streaming["Cache-Control"] = "no-cache, no-store"
    streaming["X-Accel-Buffering"] = "no"  # nginx passes each notice on at once
    # Counted closed when the server closes the answer (the stream ended or its reader left).
    streaming._resource_closers.append(closed)  # type: ignore[attr-defined]
    return streaming


#: Seconds an event's "is public" answer is shared by the streams opening on it.
PUBLIC_CHECK_SECONDS = 5


def _check_public_event(event_id: int) -> None:
    """Http404 unless the event is public, answered from the shared cache when another stream
    asked within `PUBLIC_CHECK_SECONDS` (one reading for a burst of openings:
    `limits.shared_reading`). Under ASGI each request's sync code runs in a thread of its own,
    so a hall's pages opening their streams at once each opened a database connection for
    this one read, beyond PostgreSQL's limit (503s). A stream carries notices, never data, so
    a few seconds' delay on an unpublished event costs nothing."""

    def read() -> bool:
        try:
            public_event_or_404(event_id)
        except Http404:
            return False
        return True

    if not limits.shared_reading(f"live-public-event:{event_id}", PUBLIC_CHECK_SECONDS, read):
        raise Http404("no such event")


@require_GET
def public_event_stream(request, event_id: int) -> HttpResponse | StreamingHttpResponse:
    _check_public_event(event_id)
    return stream(request, [push.public_event(event_id)])


@require_GET
def public_table_stream(request, match_id: int) -> HttpResponse | StreamingHttpResponse:
    match = get_object_or_404(Match.objects.select_related("round__event"), pk=match_id)
    event = public_event_or_404(match.round.event_id)
    visible_round_or_404(event, match.round.number)
    return stream(request, [push.public_table(match.pk), push.public_event(event.pk)])


@require_GET
@login_required
def staff_stream(request, event_id: int) -> HttpResponse | StreamingHttpResponse:
    event = get_object_or_404(Event, pk=event_id)
    if permissions.role_in_event(request.user, event) is None:
        raise Http404("not staff of this event")
    return stream(request, [push.staff_event(event.pk)])


@require_GET
@login_required
def referee_stream(request) -> HttpResponse | StreamingHttpResponse:
    """A referee hears their own tables and their events' round changes, not every deal of the
    hall. A round change can change which tables are theirs: the stream ends after it and the
    browser opens it again (`retry`), with the new round's tables."""
    events = set(
        EventStaff.objects.filter(user=request.user, revoked_at__isnull=True).values_list(
            "event_id", flat=True
        )
    )
    tables = permissions.referee_tables(request.user).filter(match__isnull=False)
    mine = list(tables.values_list("round__event_id", "match__id"))
    events |= {event_id for event_id, _match in mine}
    if not events:
        raise Http404("no event to referee")
    channels = [push.staff_rounds(pk) for pk in sorted(events)]
    channels += [push.staff_table(match_id) for _event, match_id in mine]
    return stream(request, channels, end_on="round")


@require_GET
def link_stream(request, token: str) -> HttpResponse | StreamingHttpResponse:
    """A table phone's stream (its referee link is the authorisation): its own table's notices
    and the event's round notices, which carry the organiser's announcements."""
    link = (
        RefereeLink.objects.filter(token=token, revoked_at__isnull=True)
        .select_related("table__round", "table__match")
        .first()
        if permissions.LINK_TOKEN.fullmatch(token)
        else None
    )
    if link is None:
        raise Http404("no such link")
    channels = [push.staff_rounds(link.table.round.event_id)]
    match = getattr(link.table, "match", None)
    if match is not None:
        channels.append(push.staff_table(match.pk))
    # A feature table's operator page: another phone's action at once (no delay for staff).
    channels.append(push.staff_table_live(link.table_id))
    return stream(request, channels)


PLAYER_SALT = "matches.live.player"


def player_stream_url(player_id: int) -> str:
    """The signed stream URL of one player's private channel (for their private page)."""
    return reverse("live:player", args=[signing.dumps(player_id, salt=PLAYER_SALT)])


@require_GET
def player_stream(request, token: str) -> HttpResponse | StreamingHttpResponse:
    try:
        player_id = signing.loads(token, salt=PLAYER_SALT)
    except signing.BadSignature:
        raise Http404("no such stream") from None
    if not isinstance(player_id, int):
        raise Http404("no such stream")
    return stream(request, [push.private_player(player_id)])
