"""Stateless rule checks: replay a record or settle a summary, as the command line does."""
from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from matches.api.documents import read_json_document
from matches.games.errors import BadDocument
from matches.games.engines import get_game
from matches.games.registry import default_game


def _run(request, game_name: str | None, operation: str) -> Response:
    """`operation` of a game's engine on the posted document; without a game, the site's
    first game (Gou Ji), as the API has always answered at /rules/replay and /rules/settle."""
    try:
        game = get_game(game_name or default_game())
    except KeyError:
        raise NotFound("no such game")
    document = read_json_document(request)
    try:
        verdict = getattr(game, operation)(document)
    except BadDocument as exc:
        return Response({"valid": False, "error": exc.as_dict()}, status=400)
    return Response(verdict)


_schema = dict(request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT})


@extend_schema(summary="Replay a play record (gouji-deal/1, giog-hand/1) and return its verdict",
               **_schema)
@api_view(["POST"])
@authentication_classes([])
@permission_classes([AllowAny])
def replay(request, game: str | None = None):
    return _run(request, game, "replay")


@extend_schema(summary="Check a referee's summary (gouji-outcome/1, giog-outcome/1) and return "
                       "its verdict", **_schema)
@api_view(["POST"])
@authentication_classes([])
@permission_classes([AllowAny])
def settle(request, game: str | None = None):
    return _run(request, game, "check_summary")
