"""A feature table's deal over the API, action by action (docs/live-tables.md): a digital table
sends the deal's hands, then each action with its sequence number. Authentication as for
reports (`matches/api/results.py`): the feature table's operator link (`Authorization: Referee
<token>`), a referee's or an organiser's token or session."""

from __future__ import annotations

from django.http import JsonResponse
from django.views.decorators.http import require_GET
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from matches.api.documents import read_json_document
from matches.api.errors import ApiError
from matches.api.results import AUTHENTICATION, _error, actor_of
from matches.kernel.reports import ResultError
from matches.models import Table
from matches.permissions import Actor
from matches.public import live as public_live
from matches.public.front_cache import front_cacheable
from matches.public.visibility import public_event_or_404
from matches.results import live

_responses = {code: OpenApiTypes.OBJECT for code in (200, 201, 400, 401, 403, 404, 409, 422)}


def _actor(request) -> Actor:
    actor = actor_of(request)
    if actor.link is None and not actor.is_authenticated:
        raise exceptions.NotAuthenticated("sign in, or send a token or a referee link")
    return actor


def _table(table_id: int) -> Table:
    table = Table.objects.select_related("round__event").filter(pk=table_id).first()
    if table is None:
        raise ApiError("not_found", "no such table", status_code=404)
    return table


def _where(play: dict) -> dict:
    """What the caller needs to go on: whose turn, and the deal's state so far."""
    return {
        "accepted": play["accepted"],
        "complete": play["complete"],
        "turn": play.get("turn"),
        "finish": play.get("finish", []),
        "points": play.get("points", []),
        "burns": play.get("burns", []),
    }


@extend_schema(
    summary="A feature table's deal: the hands at the start of play (deal record's hands, "
    "leader, declarations, revolution)",
    request=OpenApiTypes.OBJECT,
    responses=_responses,
)
@api_view(["POST"])
@authentication_classes(AUTHENTICATION)
@permission_classes([AllowAny])
def deal_hands(request, table_id: int, number: int):
    actor = _actor(request)
    table = _table(table_id)
    body = read_json_document(request)
    try:
        feature = live.feature_of(table)
        deal, created = live.set_hands(feature, number, body, actor)
        play = live.standing(feature, deal)
    except ResultError as exc:
        return _error(exc, table.round.event)
    return Response({"deal": number, **_where(play)}, status=201 if created else 200)


@extend_schema(
    summary='A feature table\'s deal: one action, `{"seq": n, "seat": s, "cards": …}` (or '
    "`pass`/`yield`), checked by the engine; the same seq again is answered as the first time",
    request=OpenApiTypes.OBJECT,
    responses=_responses,
)
@api_view(["POST"])
@authentication_classes(AUTHENTICATION)
@permission_classes([AllowAny])
def deal_action(request, table_id: int, number: int):
    actor = _actor(request)
    body = read_json_document(request)
    try:
        feature = live.feature_of(table_id)  # one query: the feature, its table, round, event
    except ResultError as exc:
        return _error(exc, _table(table_id).round.event)  # 404 for a table that does not exist
    try:
        row, created, play = live.add_action(feature, number, body, actor)
    except ResultError as exc:
        return _error(exc, feature.table.round.event)
    response = Response(
        {"deal": number, "seq": row.seq, **_where(play)}, status=201 if created else 200
    )
    if not created:
        response["Idempotent-Replayed"] = "true"
    return response


@extend_schema(
    summary='A feature table\'s deal of plays without hands: its end, `{"finish": [seats in '
    "finishing order]}`, checked by the engine; the summary becomes the deal's report",
    request=OpenApiTypes.OBJECT,
    responses=_responses,
)
@api_view(["POST"])
@authentication_classes(AUTHENTICATION)
@permission_classes([AllowAny])
def deal_finish(request, table_id: int, number: int):
    actor = _actor(request)
    body = read_json_document(request)
    try:
        feature = live.feature_of(table_id)
    except ResultError as exc:
        return _error(exc, _table(table_id).round.event)
    try:
        if not isinstance(body, dict) or set(body) != {"finish"}:
            raise ResultError("malformed", 'send {"finish": [seats in finishing order]}')
        deal = live.end_deal(feature, number, body["finish"], actor)
    except ResultError as exc:
        return _error(exc, feature.table.round.event)
    return Response({"deal": number, "complete": True, "summary": deal.summary}, status=201)


@front_cacheable  # a shared copy is older, never earlier, than the delay allows
@require_GET
def feature_json(request, event_id: int, feature_id: int):
    """A feature table as spectators may see it (`matches.public.live`): the page's view as
    JSON, with the same delay and the same ETag rule."""
    event = public_event_or_404(event_id)
    feature = public_live.public_feature_or_404(event, feature_id)
    view = public_live.board(feature)
    return public_live.conditional(request, public_live.view_etag(view), lambda: JsonResponse(view))
