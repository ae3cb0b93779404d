"""Stateless rule checks: replay a record or settle a summary, as the command line does."""
from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from matches.api.documents import read_json_document
from matches.games.errors import BadDocument
from matches.games.engines import get_game


def _run(request, game_name: str, operation: str) -> Response:
    document = read_json_document(request)
    game = get_game(game_name)
    try:
        verdict = getattr(game, operation)(document)
    except BadDocument as exc:
        return Response({"valid": False, "error": exc.as_dict()}, status=400)
    return Response(verdict)


_schema = dict(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT})


@extend_schema(summary="Replay a gouji-deal/1 record and return its verdict", **_schema)
@api_view(["POST"])
@authentication_classes([])
@permission_classes([AllowAny])
def gouji_replay(request):
    return _run(request, "gouji", "replay")


@extend_schema(summary="Settle a gouji-outcome/1 summary and return its verdict", **_schema)
@api_view(["POST"])
@authentication_classes([])
@permission_classes([AllowAny])
def gouji_settle(request):
    return _run(request, "gouji", "check_summary")
