"""The phone's queue: the deals a table's phone kept while offline, sent in one request."""

from __future__ import annotations

import json

from django.http import Http404, JsonResponse, QueryDict
from django.utils.translation import gettext as _

from matches.kernel.reports import ResultError
from matches.results.deals import deal_for
from matches.results.messages import refusal_text
from matches.results.submit import submit_report
from matches.views.referee.access import Access, at_table, form_of, result_message
from matches.views.referee.sheet import unchecked_problems

MAX_BATCH = 64  # more deals than any match has (as the API's batch)


def _batch_deals(request) -> list[dict] | None:
    """The phone's queued deals: `{"deals": [{"number": n, "fields": [[name, value], ...]}]}`
    (the form's fields as the phone kept them, its idempotency key among them); None when the
    body is not of that shape."""
    try:
        document = json.loads(request.body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    deals = document.get("deals") if isinstance(document, dict) else None
    if not isinstance(deals, list) or not 0 < len(deals) <= MAX_BATCH:
        return None
    out = []
    for item in deals:
        if not isinstance(item, dict):
            return None
        number, fields = item.get("number"), item.get("fields")
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 10**6:
            return None
        if not isinstance(fields, list) or len(fields) > 500:
            return None
        data = QueryDict(mutable=True)
        for pair in fields:
            if (
                not isinstance(pair, list)
                or len(pair) != 2
                or not all(isinstance(part, str) and len(part) <= 100_000 for part in pair)
            ):
                return None
            data.appendlist(pair[0], pair[1])
        out.append({"number": number, "data": data})
    return out


@at_table(["POST"])
def submit_batch(request, access: Access):
    """Several deals of the table in one request, as the phone sends what it queued while
    offline: each deal goes through the results service on its own, with its own
    idempotency key, in order of deal number (all or nothing per deal, never across deals).
    The answer lists one result per deal in the order sent: its status (201 stored, 200
    replayed, or the refusal's), the report's state, or the refusal's words."""
    match = getattr(access.table, "match", None)
    if match is None:
        raise Http404
    deals = _batch_deals(request)
    if deals is None:
        return JsonResponse(
            {"error": {"code": "malformed", "message": _("这批成绩的格式不对。")}}, status=400
        )
    form = form_of(access.table.round.event)
    answers: list[dict] = [{} for _deal in deals]
    for index in sorted(range(len(deals)), key=lambda k: deals[k]["number"]):
        number = deals[index]["number"]
        entry = form.from_post(access.table, deals[index]["data"], None)
        problems = form.describe(
            entry.problems() + unchecked_problems(match, number, deals[index]["data"])
        )
        if problems:
            first = problems[0]
            text = first.get("text") or refusal_text(
                first.get("code"),
                {"detail": first.get("message", ""), **(first.get("params") or {})},
            )
            answers[index] = {
                "number": number,
                "status": 422,
                "code": first.get("code", ""),
                "message": text,
            }
            continue
        try:
            deal = deal_for(match, number)
            report, created = submit_report(
                deal, entry.summary(), entry.play_log(), access.actor, entry.idempotency_key
            )
        except ResultError as exc:
            answers[index] = {
                "number": number,
                "status": exc.status,
                "code": exc.code,
                "message": result_message(exc),
            }
            continue
        answers[index] = {
            "number": number,
            "status": 201 if created else 200,
            "state": report.state,
        }
    return JsonResponse({"results": answers})
