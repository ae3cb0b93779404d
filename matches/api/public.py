"""Public read API: published events, their visible rounds, pairings and standings.

Same visibility as the public pages (`matches.public.visibility`): unpublished events do not exist
here, draft rounds are invisible, silent rounds show pairings without results. Answers carry an
ETag, so a poller gets 304 while nothing changes.
"""

from __future__ import annotations

import hashlib

from django.http import Http404
from django.utils.cache import patch_cache_control
from django.views.decorators.http import condition
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from matches import selectors
from matches.public import stamps, visibility
from matches.public.front_cache import front_cacheable

# Every field `_event_json` shows: a venue or date change must change the events list's ETag.
EVENT_FIELDS = (
    "pk",
    "name",
    "venue",
    "start_date",
    "end_date",
    "game",
    "entry_type",
    "deals_per_match",
    "labels",
    "game_settings",
)


def _etag(request, event_id=None, *args, params: str = "", **kwargs):
    """The ETag of an answer: the event's public stamp and the query parameters the endpoint
    reads (`params`), never the raw query string (`?z=<random>` would bypass every cache)."""
    if event_id is None:
        stamp = repr(list(visibility.public_events().order_by("pk").values_list(*EVENT_FIELDS)))
        return "events-" + hashlib.sha1(stamp.encode()).hexdigest()[:16]
    event = visibility.public_event_or_none(event_id)
    if event is None:
        return None
    request.public_event = event  # the endpoint's own read (`_event`): the same row
    return f"api-{stamps.event_version(event)}-{params}"


def _standings_etag(request, event_id=None, *args, **kwargs):
    values = [request.GET.get(name, "") for name in ("kind", "scope", "round")]
    params = "|".join(v if v.isascii() and v.isalnum() and len(v) <= 9 else "?" for v in values)
    return _etag(request, event_id, *args, params=params, **kwargs)


def _event(event_id: int, request=None):
    event = getattr(request, "public_event", None)
    if event is not None and event.pk == event_id:
        return event
    try:
        return visibility.public_event_or_404(event_id)
    except Http404:
        raise NotFound("no such event")


def _cache(response):
    patch_cache_control(response, public=True, max_age=0, must_revalidate=True)
    return response


def _event_json(event) -> dict:
    data = {
        "id": event.pk,
        "name": event.name,
        "venue": event.venue,
        "start_date": event.start_date,
        "end_date": event.end_date,
        "game": event.game,
        "entry_type": event.entry_type,
        "deals_per_match": event.deals_per_match,
        "labels": event.labels,
    }
    data.update(event.adapter.public_event_json(event))
    return data


def _round_json(round_) -> dict:
    return {
        "number": round_.number,
        "stage": round_.stage.name or round_.stage.format,
        "stage_format": round_.stage.format,
        "state": round_.state,
        "silent": round_.silent,
        "results_visible": visibility.results_visible(round_),
    }


@front_cacheable
@condition(etag_func=_etag)
@extend_schema(
    operation_id="public_events",
    summary="Published events",
    responses={200: OpenApiTypes.OBJECT},
    tags=["public"],
)
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def events(request):
    return _cache(Response({"events": [_event_json(e) for e in visibility.public_events()]}))


@front_cacheable
@condition(etag_func=_etag)
@extend_schema(
    operation_id="public_event",
    summary="One published event with its visible rounds",
    responses={200: OpenApiTypes.OBJECT},
    tags=["public"],
)
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def event_detail(request, event_id: int):
    event = _event(event_id, request)
    return _cache(
        Response(
            {
                **_event_json(event),
                "rounds": [_round_json(r) for r in visibility.visible_rounds(event)],
            }
        )
    )


@front_cacheable
@condition(etag_func=_etag)
@extend_schema(
    operation_id="public_rounds",
    summary="The visible rounds of an event",
    responses={200: OpenApiTypes.OBJECT},
    tags=["public"],
)
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def rounds(request, event_id: int):
    event = _event(event_id, request)
    return _cache(Response({"rounds": [_round_json(r) for r in visibility.visible_rounds(event)]}))


@front_cacheable
@condition(etag_func=_etag)
@extend_schema(
    operation_id="public_pairings",
    summary="A round's tables, unions and seats; results unless the round is silent",
    responses={200: OpenApiTypes.OBJECT},
    tags=["public"],
)
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def pairings(request, event_id: int, number: int):
    event = _event(event_id, request)
    try:
        round_ = visibility.visible_round_or_404(event, number)
    except Http404:
        raise NotFound("no such round")
    visible = visibility.results_visible(round_)
    rows = selectors.round_tables(round_, visible)
    tables = [event.adapter.public_table_json(row, visible) for row in rows]
    for row, entry in zip(rows, tables):
        # Said the same way for every game: a forfeit (who did not play), a stop by time.
        if isinstance(entry.get("result"), dict):
            entry["result"].update(
                forfeit=row["match"].forfeit or None, stopped_after=row["match"].stopped_after
            )
    return _cache(Response({"event": event.pk, "round": _round_json(round_), "tables": tables}))


@front_cacheable
@condition(etag_func=_standings_etag)
@extend_schema(
    operation_id="public_standings",
    summary="Union or individual standings after a round",
    responses={200: OpenApiTypes.OBJECT},
    parameters=[
        OpenApiParameter("kind", str, enum=["unions", "players"]),
        OpenApiParameter("scope", str, enum=["event", "stage"]),
        OpenApiParameter("round", int),
    ],
    tags=["public"],
)
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def standings(request, event_id: int):
    event = _event(event_id, request)
    kinds = ("unions", "players") if event.is_team else ("players",)
    kind = request.GET.get("kind", kinds[0])
    scope = request.GET.get("scope", "event")
    if kind not in kinds or scope not in ("event", "stage"):
        raise NotFound("no such standings")
    round_number = request.GET.get("round")
    # ASCII digits only: "²".isdigit() is true and int("²") fails.
    if round_number is not None and not (
        round_number.isascii() and round_number.isdigit() and len(round_number) <= 9
    ):
        raise NotFound("no such round")
    snapshot = visibility.public_snapshot(
        event, kind, scope, int(round_number) if round_number else None
    )
    if snapshot is None:
        return _cache(
            Response(
                {
                    "event": event.pk,
                    "kind": kind,
                    "scope": scope,
                    "round": None,
                    "final": False,
                    "rows": [],
                }
            )
        )
    return _cache(
        Response(
            {
                "event": event.pk,
                "kind": kind,
                "scope": scope,
                "round": snapshot.round.number,
                "stage": snapshot.stage.name,
                "final": snapshot.unfinished == 0,
                "unfinished": snapshot.unfinished,
                "computed_at": snapshot.computed_at,
                "rows": snapshot.rows,
            }
        )
    )


@front_cacheable
@extend_schema(
    operation_id="find_table",
    summary="Find my table: a union or player by name, club, entry number or pinyin",
    description=(
        "Matches the start of a name, of any of its characters (Chinese) or words, of its "
        "pinyin in full or by initials (`hdwd` finds 黄岛五队), a club's name, an entry number. "
        "Answers each entry's place in the latest round whose draw is public (table, seats, "
        "side, opponents, the hall's zone; `place` null when it does not play that round) and "
        "the address of its card (every round). 400 for an empty or over-long query."
    ),
    parameters=[OpenApiParameter("q", str, required=True, description="at most 40 characters")],
    responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT, 404: OpenApiTypes.OBJECT},
    tags=["public"],
)
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
def find_table(request, event_id: int):
    from django.urls import reverse

    from matches.api.errors import ApiError
    from matches.public import find, limits

    refused = limits.find_refused(request)
    if refused is not None:
        return refused
    event = _event(event_id, request)
    try:
        query = find.parse_query(request.GET.get("q"))
    except find.FindRefused as error:
        raise ApiError("bad_query", str(error)) from error
    found = find.lookup(event, query)
    round_ = found.round
    results = []
    for hit in found.hits:
        # Each hit's answer made once per find version (kept with the event's index).
        key = ("api-hit", hit.kind, hit.id)
        result = found.memo.get(key)
        if result is None:
            name = "public:card-union" if hit.kind == "union" else "public:card-player"
            result = found.memo[key] = {
                "kind": hit.kind,
                "id": hit.id,
                "name": hit.name,
                "club": hit.club,
                "union": hit.union,
                "entry": hit.entry,
                "card": reverse(name, args=[event.pk, hit.id]),
                "place": hit.place.as_json() if hit.place else None,
            }
        results.append(result)
    response = Response(
        {
            "event": event.pk,
            "query": query,
            "round": round_.number if round_ else None,
            "results": results,
        }
    )
    patch_cache_control(response, public=True, max_age=5)
    return response
