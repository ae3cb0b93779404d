"""Several deals of one table in one request: a referee's phone coming back online after the
hall's Wi-Fi dropped sends what it kept.

`POST /api/v1/tables/<id>/reports/batch` with `{"deals": [{"number", "idempotency_key",
"summary"?, "play_log"?}, ...]}`. Each deal goes through the results service on its own
(`submit_deal_report`, one transaction each), in order of deal number so that a deal's previous
deal (R35) is stored first: all or nothing per deal, never across deals. Each deal needs its own
idempotency key, so the phone can send the whole batch again after a lost answer; a deal already
stored under its key answers as a replay. The answer lists one result per deal, in the order
sent: `status` (201 stored, 200 replayed, or the error's status) with `report` or `error`.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from matches.api.documents import read_json_document
from matches.api.errors import ApiError
from matches.api.results import (
    AUTHENTICATION,
    _not_found,
    _visible_table,
    actor_of,
    report_json,
)
from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import ResultError
from matches.results import submit
from matches.results.messages import localized

MAX_DEALS = 64  # more than any match has (regular deals and a knockout's extra deals)
FIELDS = {"number", "idempotency_key", "summary", "play_log"}


def _entries(document) -> list[dict]:
    """The batch's deals, checked for shape (a malformed batch stores nothing)."""
    if not isinstance(document, dict) or set(document) != {"deals"}:
        raise ApiError("malformed", 'the body must be {"deals": [...]}')
    deals = document["deals"]
    if not isinstance(deals, list) or not deals:
        raise ApiError("malformed", "'deals' must be a non-empty list")
    if len(deals) > MAX_DEALS:
        raise ApiError("malformed", f"at most {MAX_DEALS} deals in one batch")
    for k, entry in enumerate(deals):
        where = f"deals[{k}]"
        if not isinstance(entry, dict):
            raise ApiError("malformed", f"{where} must be an object")
        unknown = set(entry) - FIELDS
        if unknown:
            raise ApiError("malformed", f"{where}: unknown field(s): {', '.join(sorted(unknown))}")
        number = entry.get("number")
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 10**6:
            raise ApiError("malformed", f"{where}.number must be a deal number (1, 2, ...)")
        key = entry.get("idempotency_key")
        if not isinstance(key, str) or not key.strip() or len(key) > 100:
            raise ApiError(
                "malformed", f"{where}.idempotency_key must be text of 1 to 100 characters"
            )
    return deals


_deal = inline_serializer(
    "BatchDeal",
    {
        "number": serializers.IntegerField(min_value=1),
        "idempotency_key": serializers.CharField(max_length=100),
        "summary": serializers.JSONField(required=False),
        "play_log": serializers.JSONField(required=False),
    },
)


@extend_schema(
    summary="Report several deals of a table at once (all or nothing per deal)",
    description=__doc__,
    request=inline_serializer("DealBatch", {"deals": _deal.__class__(many=True)}),
    responses={code: OpenApiTypes.OBJECT for code in (200, 400, 401, 403, 404)},
)
@api_view(["POST"])
@authentication_classes(AUTHENTICATION)
@permission_classes([AllowAny])
def submit_batch(request, table_id: int):
    actor = actor_of(request)
    if actor.link is None and not actor.is_authenticated:
        raise exceptions.NotAuthenticated("sign in, or send a token or a referee link")
    entries = _entries(read_json_document(request))
    table = _visible_table(table_id, actor)
    match = getattr(table, "match", None)
    if match is None:
        raise _not_found("match at this table")
    adapter = adapter_for(table.round.event)  # words a refusal in the request's language
    answers: list[dict | None] = [None] * len(entries)
    # Deal order, so that each deal's previous deal is stored first (R35); sorted() is stable.
    for index in sorted(range(len(entries)), key=lambda k: entries[k]["number"]):
        entry = entries[index]
        try:
            report, created = submit.submit_deal_report(
                match,
                entry["number"],
                entry.get("summary"),
                entry.get("play_log"),
                actor,
                entry["idempotency_key"],
            )
        except ResultError as exc:
            if exc.code == "permission_denied" and all(answer is None for answer in answers):
                # The service alone asks whether this actor referees the table; it refuses the
                # first deal before anything is stored, so the whole batch is refused at once.
                raise ApiError(
                    "permission_denied", "you do not referee this table", status_code=403
                ) from None
            answers[index] = {
                "number": entry["number"],
                "status": exc.status,
                "error": localized(exc, adapter),
            }
            continue
        answers[index] = {
            "number": entry["number"],
            "status": 201 if created else 200,
            "replayed": not created,
            "report": report_json(report, confirmations=[] if created else None),
        }
    return Response({"results": answers})
