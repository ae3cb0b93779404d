"""Stateless rule checks: replay a record or settle a summary, as the command line does."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from matches.api.documents import read_json_document
from matches.kernel.engine_errors import BadDocument, as_published
from matches.kernel.games.registry import default_game, get_game


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
    return Response(as_published(verdict))


_schema: dict[str, Any] = dict(
    request=OpenApiTypes.OBJECT, responses={200: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT}
)


def _endpoint(operation: str, operation_id: str, summary: str):
    """A POST endpoint running `operation` of a game's engine; `game` comes from the URL."""

    @extend_schema(operation_id=operation_id, summary=summary, **_schema)
    @api_view(["POST"])
    @authentication_classes([])
    @permission_classes([AllowAny])
    def view(request, game: str | None = None):
        return _run(request, game, operation)

    return view


# /rules/replay and /rules/settle answer for the site's first game (Gou Ji), as they always have;
# /rules/<game>/replay and /settle for any game.
replay = _endpoint("replay", "rules_replay", "Replay a gouji-deal/1 record and return its verdict")
settle = _endpoint(
    "check_summary", "rules_settle", "Settle a gouji-outcome/1 summary and return its verdict"
)
game_replay = _endpoint(
    "replay",
    "rules_game_replay",
    "Replay a game's play record (gouji-deal/1, giog-hand/1): its verdict",
)
game_settle = _endpoint(
    "check_summary",
    "rules_game_settle",
    "Check a game's referee summary (gouji-outcome/1, giog-outcome/1)",
)
