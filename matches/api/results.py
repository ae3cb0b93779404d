"""Deal results over the API: a digital table or a referee's app reports deals, a captain or a
second referee confirms, an organiser corrects; anyone reads a published table's results.

Authentication: a DRF token (`Authorization: Token <key>`), a session, or a referee link's token
(`Authorization: Referee <token>`), which acts on that link's table only. Errors are
`{"error": {"code", "message", "rule"?, "errors"?, "verdict"?}}`.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions
from rest_framework.authentication import (
    BaseAuthentication,
    SessionAuthentication,
    get_authorization_header,
)
from rest_framework.authtoken.models import Token
from rest_framework.decorators import api_view, authentication_classes, permission_classes
from rest_framework.permissions import AllowAny
from rest_framework.response import Response

from matches import permissions, ratelimit, selectors
from matches.api.auth import LimitedTokenAuthentication, throttled
from matches.api.documents import read_json_document
from matches.api.errors import ApiError
from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import ResultError
from matches.models import Deal, DealReport, RefereeLink, Round, Table
from matches.permissions import Actor, can_run_event
from matches.public import visibility
from matches.results import confirm, correct, deals, submit
from matches.results.messages import localized


class RefereeLinkAuthentication(BaseAuthentication):
    """`Authorization: Referee <token>`: the bearer holds a referee link (its QR code)."""

    keyword = "Referee"

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("give the referee token after 'Referee '")
        try:
            token = parts[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed("the referee token is not valid")
        link = permissions.link_for_token(token)
        if link is None:
            # Only wrong tokens are locked out: a valid link always works, even from an address
            # a guesser shares with the hall's phones (tokens have 192 bits).
            ip = ratelimit.client_ip(request)
            wait = ratelimit.REFEREE_TOKEN_FAILURES.locked_for(ip)
            if wait:
                raise throttled(wait, "wrong referee tokens")
            ratelimit.REFEREE_TOKEN_FAILURES.fail(ip)
            raise exceptions.AuthenticationFailed(
                "unknown or revoked referee link (a re-drawn round's tables get new links)"
            )
        wait = ratelimit.REFEREE_TOKEN_REQUESTS.hit(token)
        if wait:
            raise exceptions.Throttled(
                wait=wait,
                detail=f"too many requests with this referee link; try again in {wait} seconds",
            )
        from django.contrib.auth.models import AnonymousUser

        return AnonymousUser(), link

    def authenticate_header(self, request):
        return self.keyword


class RefereeLinkScheme(OpenApiAuthenticationExtension):
    """Documents `Authorization: Referee <token>` in the OpenAPI schema."""

    target_class = RefereeLinkAuthentication
    name = "refereeLink"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Referee <token>`: the token of a referee link (its QR code); "
            "acts on that link's table only.",
        }


AUTHENTICATION = [RefereeLinkAuthentication, LimitedTokenAuthentication, SessionAuthentication]


def actor_of(request) -> Actor:
    if isinstance(request.auth, RefereeLink):
        return Actor.from_link(request.auth)
    if isinstance(request.auth, Token):
        return Actor(user=request.user, via=DealReport.Via.API_TOKEN)
    return Actor(user=request.user if request.user.is_authenticated else None)


def _error(exc: ResultError, event=None) -> Response:
    """The refusal with its code, and its message in the request's language."""
    adapter = adapter_for(event) if event is not None else None
    response = Response({"error": localized(exc, adapter)}, status=exc.status)
    if exc.retry_after:
        response["Retry-After"] = str(exc.retry_after)
    return response


def _not_found(what: str) -> ApiError:
    return ApiError("not_found", f"no such {what}", status_code=404)


# --- JSON shapes ------------------------------------------------------------------------------


def report_json(report: DealReport, full: bool = True, confirmations=None, adapter=None) -> dict:
    """`confirmations`: the report's confirmations when the caller knows them (none for a report
    just created), which spares a query; `adapter`: the event's game, when the caller has it."""
    adapter = adapter or report.deal.match.round.event.adapter
    data = {
        "id": report.pk,
        "deal": report.deal.number,
        "deal_id": report.deal_id,
        "kind": report.kind,
        "state": report.state,
        "state_label": selectors.state_label(report.state),  # in the request's language
        # the game's own figures of the verdict (Gou Ji: union scores and tributes)
        **adapter.read_verdict(report.verdict or {}).report_json(),
        "created_at": report.created_at.isoformat(),
    }
    if full:
        data.update(
            {
                "summary": report.summary,
                "has_play_log": report.play_log is not None,
                "verdict": report.verdict,
                "submitted_by": report.submitted_by.get_username() if report.submitted_by else None,
                "via": report.via,
                "referee_link": report.referee_link_id,
                "reason": report.reason,
                "replaces": report.replaces_id,
                "confirmations": [
                    {
                        "role": c.role,
                        "agrees": c.agrees,
                        "note": c.note,
                        "at": c.at.isoformat(),
                        "union": c.union_id,
                        "by_pin": c.by_pin,
                        "reason": c.reason,
                        "by": c.user.get_username() if c.user else None,
                        "referee_link": c.referee_link_id,
                    }
                    for c in (
                        confirmations
                        if confirmations is not None
                        else report.confirmations.select_related("user")
                    )
                ],
            }
        )
    return data


def is_participant(actor: Actor, table: Table) -> bool:
    """Referees of the table, the two captains and the organisers see open reports."""
    match = getattr(table, "match", None)
    if permissions.can_enter_results(actor, table):
        return True
    return match is not None and permissions.captain_union(actor, match) is not None


def table_json(table: Table, actor: Actor) -> dict:
    """The table as this actor may read it: everything for the table's own people, otherwise
    what the release settings let the public see (`matches.public.visibility`)."""
    round_ = table.round
    match = getattr(table, "match", None)
    participant = is_participant(actor, table)
    show_results = participant or visibility.table_visibility(table) == "results"
    state = selectors.table_state(table) if show_results else None
    data: dict[str, Any] = {
        "table": {"id": table.pk, "number": table.number},
        "round": {
            "id": round_.pk,
            "number": round_.number,
            "state": round_.state,
            "silent": round_.silent,
        },
        "event": {
            "id": round_.event_id,
            "name": round_.event.name,
            "game": round_.event.game,
            "result_confirmation": round_.event.confirmation,
        },
        "seats": [
            {
                "seat": seat.seat,
                "side": seat.side,
                "player": str(seat.player),
                "union": seat.union.name if seat.union else None,
            }
            for seat in table.seats.select_related("player", "union")
        ],
        "unions": None,
        "state": state,
        "state_label": selectors.state_label(state) if state else None,
        "current_deal": None,
        "tributes_owed": None,
        "deals": [],
    }
    if match is None:
        return data
    union_sides = {side.position: side.union.name for side in match.union_sides}
    data["unions"] = {"A": union_sides.get("A"), "B": union_sides.get("B")} if union_sides else None
    if not show_results:
        return data  # not even the current deal: it tells a held round's progress
    current = deals.current_deal_number(match)
    data["current_deal"] = current
    adapter = round_.event.adapter
    for row in deals.match_deals(match):
        deal = row["deal"]
        entry = {
            "number": row["number"],
            "needs_recheck": bool(deal and deal.needs_recheck),
            "tributes_owed": adapter.tributes_owed(deal) if deal else None,
            "final": (
                report_json(row["final"], full=participant, adapter=adapter)
                if row["final"]
                else None
            ),
        }
        if participant:
            entry["open"] = report_json(row["open"], adapter=adapter) if row["open"] else None
        data["deals"].append(entry)
        if row["number"] == current:
            data["tributes_owed"] = entry["tributes_owed"]
    return data


def _visible_table(table_id: int, actor: Actor) -> Table:
    table = _link_table(table_id, actor)
    if table is None:
        table = (
            Table.objects.select_related("round__event", "match")
            .prefetch_related("match__sides__union")
            .filter(pk=table_id)
            .first()
        )
    if table is None:
        raise ApiError(
            "not_found",
            "no such table (a table of a re-drawn round no longer "
            "exists: reload the round's tables)",
            status_code=404,
        )
    if table.round.state == Round.State.DRAFT and not (
        actor.is_authenticated and can_run_event(actor.user, table.round.event)
    ):
        raise _not_found("table")  # a draft round is not published data
    if visibility.table_visibility(table) == "none" and not is_participant(actor, table):
        # An unpublished event or a held draw: only the table's own people.
        raise _not_found("table")
    match = getattr(table, "match", None)
    if match is not None:
        match.round = table.round  # the same row, already loaded: no query for match.round
    return table


def _link_table(table_id: int, actor: Actor) -> Table | None:
    """The referee link's own table, as authentication loaded it (with its round, event and
    match): no query. None for another table or another kind of actor."""
    link = actor.link
    if link is None or link.table_id != table_id:
        return None
    table = link.table
    if "match" not in table._state.fields_cache:
        return None
    return table


def _body(request) -> dict:
    document = read_json_document(request)
    if not isinstance(document, dict):
        raise ApiError("malformed", "the body must be a JSON object")
    unknown = set(document) - {"summary", "play_log", "agrees", "note", "reason", "pin", "side"}
    if unknown:
        raise ApiError("malformed", f"unknown field(s): {', '.join(sorted(unknown))}")
    return document


# --- endpoints ---------------------------------------------------------------------------------

_idempotency = OpenApiParameter(
    "Idempotency-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    description="A retry or double tap with the same key returns the first report.",
)
_responses = {code: OpenApiTypes.OBJECT for code in (200, 201, 400, 401, 403, 404, 409, 422)}


@extend_schema(
    summary="A table's seats, deals, result states and the tributes owed", responses=_responses
)
@api_view(["GET"])
@authentication_classes(AUTHENTICATION)
@permission_classes([AllowAny])
def table_detail(request, table_id: int):
    actor = actor_of(request)
    return Response(table_json(_visible_table(table_id, actor), actor))


@extend_schema(
    summary="Report a deal: the game's summary (gouji-outcome/1, giog-outcome/1) and/or play log "
    "(gouji-deal/1, giog-hand/1)",
    request=OpenApiTypes.OBJECT,
    responses=_responses,
    parameters=[_idempotency],
)
@api_view(["POST"])
@authentication_classes(AUTHENTICATION)
@permission_classes([AllowAny])
def submit_deal_report(request, table_id: int, number: int):
    actor = actor_of(request)
    if actor.link is None and not actor.is_authenticated:
        raise exceptions.NotAuthenticated("sign in, or send a token or a referee link")
    body = _body(request)
    table = _visible_table(table_id, actor)
    match = getattr(table, "match", None)
    if match is None:
        raise _not_found("match at this table")
    try:
        # The service alone asks whether this actor referees the table; its refusal is answered
        # here as every other one (403 `permission_denied`).
        report, created = submit.submit_deal_report(
            match,
            number,
            body.get("summary"),
            body.get("play_log"),
            actor,
            request.headers.get("Idempotency-Key", ""),
        )
    except ResultError as exc:
        return _error(exc, table.round.event)
    response = Response(
        {"report": report_json(report, confirmations=[] if created else None)},
        status=201 if created else 200,
    )
    if not created:
        response["Idempotent-Replayed"] = "true"
    return response


def _report(report_id: int) -> DealReport:
    report = (
        DealReport.objects.select_related(
            "deal__match__round__event",
            "deal__match__table",
            "submitted_by",
        )
        .filter(pk=report_id)
        .first()
    )
    if report is None:
        raise _not_found("report")
    return report


@extend_schema(
    summary="One deal report with its verdict, confirmations and history links",
    responses=_responses,
)
@api_view(["GET"])
@authentication_classes(AUTHENTICATION)
@permission_classes([AllowAny])
def report_detail(request, report_id: int):
    actor = actor_of(request)
    report = _report(report_id)
    table = report.deal.match.table
    participant = table is not None and is_participant(actor, table)
    # Anyone else reads a final report once the round's results are public.
    public = report.is_final and visibility.results_visible(report.deal.match.round)
    if not (participant or public):
        raise _not_found("report")
    return Response({"report": report_json(report, full=participant)})


@extend_schema(
    summary="Confirm (agrees: true) or dispute (agrees: false) a pending report",
    request=OpenApiTypes.OBJECT,
    responses=_responses,
)
@api_view(["POST"])
@authentication_classes(AUTHENTICATION)
@permission_classes([AllowAny])
def confirm_deal_report(request, report_id: int):
    actor = actor_of(request)
    if actor.link is None and not actor.is_authenticated:
        raise exceptions.NotAuthenticated("sign in, or send a token or a referee link")
    body = _body(request)
    agrees = body.get("agrees")
    if not isinstance(agrees, bool):
        raise ApiError("malformed", "'agrees' must be true or false")
    note = body.get("note", "")
    if not isinstance(note, str):
        raise ApiError("malformed", "'note' must be text")
    reason = body.get("reason", "")
    pin, side = body.get("pin"), body.get("side")
    if not isinstance(reason, str) or (pin is not None and not isinstance(pin, str)):
        raise ApiError("malformed", "'reason' and 'pin' must be text")
    event = None
    try:
        pin_union = None
        if pin is not None:  # a captain answering on the table's device
            report = _report(report_id)
            event = report.deal.match.round.event
            pin_union = confirm.check_captain_pin(
                report.deal.match, side, pin, ratelimit.client_ip(request), actor
            )
        # Without a PIN the service reads the report itself (one query, with its lock).
        report = confirm.confirm_report_by_id(
            report_id, actor, agrees, note[:2000], pin_union=pin_union, reason=reason
        )
    except ResultError as exc:
        if event is None:  # only a refusal needs the event (its game words the message)
            row = (
                DealReport.objects.select_related("deal__match__round__event")
                .filter(pk=report_id)
                .first()
            )
            event = row.deal.match.round.event if row is not None else None
        return _error(exc, event)
    known = getattr(report, "known_confirmations", None)
    return Response({"report": report_json(report, confirmations=known)})


@extend_schema(
    summary="Organisers: replace a deal's result (a new final report, with a reason)",
    request=OpenApiTypes.OBJECT,
    responses=_responses,
    parameters=[_idempotency],
)
@api_view(["POST"])
@authentication_classes(AUTHENTICATION)
@permission_classes([AllowAny])
def correct_deal(request, deal_id: int):
    actor = actor_of(request)
    if actor.link is None and not actor.is_authenticated:
        raise exceptions.NotAuthenticated("sign in with an organiser account")
    body = _body(request)
    reason = body.get("reason", "")
    if not isinstance(reason, str):
        raise ApiError("malformed", "'reason' must be text")
    deal = Deal.objects.select_related("match__round__event").filter(pk=deal_id).first()
    if deal is None:
        raise _not_found("deal")
    try:
        report = correct.correct_result(
            deal,
            body.get("summary"),
            body.get("play_log"),
            actor,
            reason,
            request.headers.get("Idempotency-Key", ""),
        )
    except ResultError as exc:
        return _error(exc, deal.match.round.event)
    replayed = getattr(report, "replayed", False)
    response = Response({"report": report_json(report)}, status=200 if replayed else 201)
    if replayed:
        response["Idempotent-Replayed"] = "true"
    return response
