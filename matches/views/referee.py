"""Referee and captain pages: enter a deal on a phone, check it live, confirm or dispute it.

A referee reaches their table through a private link (`/ref/<token>/`, no account needed) or by
signing in (`/referee/`). Every change of the deal form is checked against the rules engine by
htmx (`.../check`); the same URLs render the full page when JavaScript is off.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from matches import permissions, ratelimit, selectors
from matches.events import calls
from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import ResultError
from matches.models import (
    Confirmation,
    DealReport,
    Event,
    RefereeCall,
    RefereeLink,
    Round,
    Table,
)
from matches.permissions import Actor
from matches.results import lockouts
from matches.results import service as results
from matches.results.messages import refusal, refusal_text
from matches.views.deal_viewer import render_viewer


@dataclass
class Access:
    """Who is at which table, and by which route (link token or signed-in account)."""

    actor: Actor
    table: Table
    token: str | None = None
    # A refused PIN, shown at its own PIN box: {"report": id, "side": "A", "text": ...}.
    pin_error: dict | None = None

    def url(self, name: str, **kwargs) -> str:
        if self.token:
            return reverse(f"referee:link-{name}", kwargs={"token": self.token, **kwargs})
        return reverse(f"referee:table-{name}", kwargs={"table_id": self.table.pk, **kwargs})


def _table(table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__event", "round__stage", "match").prefetch_related(
            "match__sides__union", "match__sides__player"
        ),
        pk=table_id,
    )


def _link_access(request, token: str) -> Access | HttpResponse:
    link = (
        RefereeLink.objects.filter(token=token).select_related("table").first()
        if permissions.LINK_TOKEN.fullmatch(token)
        else None
    )
    if link is None or link.revoked_at is not None:
        if link is None:
            # Only wrong links are locked out, never a valid one (the hall's phones share one
            # address with whoever is guessing; tokens have 192 bits).
            ip = ratelimit.client_ip(request)
            wait = ratelimit.REFEREE_TOKEN_FAILURES.locked_for(ip)
            if wait:
                return _too_many(request, wait)
            ratelimit.REFEREE_TOKEN_FAILURES.fail(ip)
        return render(request, "referee/link_gone.html", {"revoked": link is not None}, status=404)
    # Signed in as well: the report remembers the person too, so they cannot confirm it again
    # from their account as a "second referee".
    user = request.user if request.user.is_authenticated else None
    actor = Actor(user=user, link=link, via=DealReport.Via.REFEREE_LINK)
    return Access(actor=actor, table=_table(link.table_id), token=token)


def _too_many(request, wait: int) -> HttpResponse:
    response = render(
        request, "too_many_attempts.html", {"minutes": max(1, (wait + 59) // 60)}, status=429
    )
    response["Retry-After"] = str(wait)
    return response


def _user_access(request, table_id: int) -> Access | HttpResponse:
    if not Table.objects.filter(pk=table_id).exists():
        # A page opened before the round was re-drawn: say so rather than a bare 404.
        return render(request, "referee/link_gone.html", {"table_gone": True}, status=404)
    table = _table(table_id)
    actor = Actor(user=request.user)
    if not permissions.can_enter_results(actor, table):
        return render(request, "referee/forbidden.html", status=403)
    return Access(actor=actor, table=table)


def seats_of(table: Table) -> list[dict]:
    return [
        {"seat": s.seat, "side": s.side, "player": s.player, "union": s.union}
        for s in table.seats.select_related("player", "union")
    ]


def _form(event):
    return adapter_for(event).result_form


DEAL_STATES = ("entering", "queued", "sent", "pending", "final", "disputed")


def deal_state_words() -> str:
    """The state line's words (JSON) for the phone's script: the same wording as the page."""
    from django.template.loader import render_to_string

    return json.dumps(
        {
            state: render_to_string("referee/_deal_word.html", {"state": state}).strip()
            for state in DEAL_STATES
        },
        ensure_ascii=False,
    )


def next_deal(rows: list[dict], wanted: int | None = None) -> tuple[int, list[DealReport]]:
    """(the deal the form reports, the reports waiting for their confirmation before it).

    The form moves on past deals whose report awaits its confirmation (issue 28: a deal may be
    reported while the one before awaits its captains); it stops at the first deal with no
    report or a disputed one. `wanted`: a deal asked for by its URL (to report a pending deal
    again, or the deal a check or submission was about), when it has no final result."""
    finals = {row["number"] for row in rows if row["final"] is not None}
    pending = {
        row["number"]: row["open"]
        for row in rows
        if row["final"] is None
        and row["open"] is not None
        and row["open"].state == DealReport.State.PENDING
    }
    number = 1
    while number in finals or number in pending:
        number += 1
    if wanted is not None and wanted >= 1 and wanted not in finals:
        number = wanted
    awaiting = [report for n, report in sorted(pending.items()) if n != number]
    return number, awaiting


def table_context(
    access: Access,
    entry=None,
    checked=None,
    problems: list | None = None,
    number: int | None = None,
) -> dict:
    """The referee's table page: the shared part, then the game's form adds its own. `number`:
    the deal the form is about when a URL names it (a check, a submission, `?deal=`)."""
    table = access.table
    round_ = table.round
    event = round_.event
    form = _form(event)
    match = getattr(table, "match", None)
    context = {
        "access": access,
        "table": table,
        "round": round_,
        "event": event,
        "match": match,
        "seats": seats_of(table),
        "round_open": round_.state == Round.State.PUBLISHED,
        "deal_number": None,
        "deal_rows": [],
        "open_report": None,
        "can_report": False,
        "entry": entry or form.blank(table),
        "checked": checked,
        "problems": [
            {
                **p,
                "text": p.get("text")
                or refusal_text(
                    p.get("code"), {"detail": p.get("message", ""), **(p.get("params") or {})}
                ),
            }
            for p in form.describe(problems or [])
        ],
        "confirmable": [],
        "dispute_reasons": Confirmation.Reason.choices,
        "pin_sides": [],
        "player_box": None,
        "awaiting": [],
    }
    if match is not None:
        rows = results.match_deals(match)
        number, awaiting = next_deal(rows, number)
        current_row = next((row for row in rows if row["number"] == number), None)
        if adapter_for(event).has_deal_viewer:
            for row in rows:
                shown = row["final"] or row["open"]
                if shown is not None and shown.play_log is not None:
                    row["viewer_url"] = access.url("viewer", report_id=shown.pk)
        playable = results.deal_allowed(match, number)  # False once every deal is final
        open_report = current_row["open"] if current_row else None
        context.update(
            {
                "deal_number": number if playable else None,
                "deal_rows": rows,
                "open_report": open_report,
                "can_report": playable
                and context["round_open"]
                and not (open_report and open_report.state == DealReport.State.DISPUTED),
                "confirmable": [
                    r
                    for r in permissions.confirmable_reports(access.actor)
                    if r.deal.match_id == match.pk
                ],
            }
        )
        context["pin_sides"] = pin_sides(access, open_report)
        context["player_box"] = player_box(access, open_report)
        context["awaiting"] = [
            {
                "report": report,
                "pin_sides": pin_sides(access, report),
                "player_box": player_box(access, report),
                "refill_url": f"{access.url('table')}?deal={report.deal.number}",
            }
            for report in awaiting
        ]
        context["deal_state"] = open_report.state if open_report else "entering"
        context["deal_state_words"] = deal_state_words()
        if playable:
            context["check_url"] = access.url("check", number=number)
            context["submit_url"] = access.url("submit", number=number)
            # The phone's queue (static/js/table.js): the batch URL, and the names of the
            # deals it may move on to while offline.
            adapter = adapter_for(event)
            context["batch_url"] = access.url("batch")
            context["deal_names"] = json.dumps(
                {
                    n: str(adapter.deal_name(n))
                    for n in range(number, max(number, event.deals_per_match) + 1)
                },
                ensure_ascii=False,
            )
    context.update(form.context(context))
    context["next_input"] = next_input(context)
    return context


def next_input(context: dict) -> str:
    """The id of what the table does next, brought into view by the phone (static/js/table.js):
    the first PIN box still to answer (reports awaiting, then the deal's own), else the title of
    the deal to report, its form right below."""
    open_report = context["open_report"]
    boxes = [(item["report"], item["pin_sides"]) for item in context["awaiting"]]
    boxes.append((open_report, context["pin_sides"]))
    players = [item["player_box"] for item in context["awaiting"]] + [context["player_box"]]
    for box in players:
        if box is not None:
            return box["id"]
    for report, sides in boxes:
        for side in sides:
            if not side["agreed"] and not side["locked"]:
                return f"pin-{report.pk}{side['side']}"
    if context["can_report"] and not open_report:
        return context.get("form_ids", {}).get("title", "")
    return ""


def render_form(request, templates: dict, context: dict, status: int = 200) -> HttpResponse:
    """The page, or for htmx the form alone, or only its verdict (ticks re-check in place).
    A refused form comes back to htmx as 200: htmx swaps no 4xx answer, and the problems are in
    the form; the full page (no JavaScript) carries the real status."""
    if request.htmx and request.GET.get("part") == "verdict":
        return render(request, "referee/_verdict.html", context)
    if request.htmx:
        return render(request, templates["form"], context)
    return render(request, templates["page"], context, status=status)


def _render_table(request, access: Access, status: int = 200, **extra) -> HttpResponse:
    context = table_context(access, **extra)
    return render_form(request, _form(access.table.round.event).templates, context, status)


def pin_sides(access: Access, report: DealReport | None) -> list[dict]:
    """The captains' PIN forms under a pending report on the table's phone: one per union, each
    marked once that union has agreed, or locked (too many wrong PINs) with who may lift the
    lock. A signed-in referee of the table (or an organiser) may answer for a union in its
    captain's place, on the phone or on their own page. Only when the event's results are
    confirmed by captains."""
    if report is None or report.state != DealReport.State.PENDING:
        return []
    table = access.table
    event = table.round.event
    if event.confirmation != Event.Confirmation.CAPTAIN:
        return []
    stand_in = permissions.may_stand_in(access.actor, table)
    if not access.token and not stand_in:
        return []  # captains confirm from their own account there
    match = report.deal.match
    agreed = permissions.agreed_unions(report)
    sides = [(side.position, side.union) for side in match.union_sides]
    locks = lockouts.table_locks(table.pk, [union.pk for _side, union in sides])
    error = access.pin_error or {}
    rows = []
    for side, union in sides:
        rows.append(
            {
                "side": side,
                "union": union,
                "agreed": union.pk in agreed,
                "url": access.url("pin", report_id=report.pk) if access.token else "",
                "locked": locks.get(union.pk, 0),
                "stand_in_url": access.url("stand-in", report_id=report.pk) if stand_in else "",
                "error": error.get("text")
                if error.get("report") == report.pk and error.get("side") == side
                else "",
            }
        )
    if any(row["locked"] for row in rows):
        names = [user.get_username() for user in permissions.referees_of(table)]
        for row in rows:
            row["lifters"] = names
    return rows


def player_box(access: Access, report: DealReport | None) -> dict | None:
    """In an event confirmed by players, the PIN box under a pending report on the table's
    phone: another player of the table agrees with their own PIN. The phone names who confirms
    next (the seats take turns deal by deal; anyone else at the table may do it instead)."""
    if report is None or report.state != DealReport.State.PENDING or not access.token:
        return None
    if access.table.round.event.confirmation != Event.Confirmation.PLAYER:
        return None
    seats = seats_of(access.table)
    if not seats:
        return None
    turn = seats[report.deal.number % len(seats)]
    error = access.pin_error or {}
    return {
        "id": f"player-pin-{report.pk}",
        "url": access.url("player-pin", report_id=report.pk),
        "seats": seats,
        "next": turn,
        "error": error.get("text")
        if error.get("report") == report.pk and error.get("side") == "player"
        else "",
    }


def run_check(match, number: int, entry):
    """The engine's answer to what the form holds now: (checked or None, problems)."""
    problems = entry.problems()
    try:
        checked = results.check_report(match, number, entry.summary(), entry.play_log())
    except ResultError as exc:
        return None, problems + exc.problems()
    return checked, problems + checked.errors


# --- link and account routes ------------------------------------------------------------------


def _wanted_deal(request) -> int | None:
    """`?deal=N`: report deal N again (its report still awaits confirmation)."""
    value = request.GET.get("deal", "")
    return int(value) if value.isdigit() and 0 < len(value) < 7 else None


@never_cache  # a referee link is a password: no browser or proxy keeps its pages
def link_table(request, token: str):
    access = _link_access(request, token)
    if isinstance(access, HttpResponse):
        return access
    access.pin_error = request.session.pop(PIN_ERROR, None)
    return _render_table(request, access, number=_wanted_deal(request))


@login_required
def user_table(request, table_id: int):
    access = _user_access(request, table_id)
    if isinstance(access, HttpResponse):
        return access
    access.pin_error = request.session.pop(PIN_ERROR, None)
    return _render_table(request, access, number=_wanted_deal(request))


def _posted(request, access):
    """The table's match and the entry posted to it."""
    match = getattr(access.table, "match", None)
    if match is None:
        raise Http404
    return match, _form(access.table.round.event).from_post(
        access.table, request.POST, request.FILES
    )


def _check(request, access: Access | HttpResponse, number: int):
    if isinstance(access, HttpResponse):
        return access
    match, entry = _posted(request, access)
    checked, problems = run_check(match, number, entry)
    return _render_table(
        request, access, entry=entry, checked=checked, problems=problems, number=number
    )


def _submit(request, access: Access | HttpResponse, number: int):
    if isinstance(access, HttpResponse):
        return access
    match, entry = _posted(request, access)
    problems = entry.problems()
    if problems:
        return _render_table(
            request, access, status=422, entry=entry, problems=problems, number=number
        )
    try:
        deal = results.deal_for(match, number)
        report, created = results.submit_report(
            deal, entry.summary(), entry.play_log(), access.actor, entry.idempotency_key
        )
    except ResultError as exc:
        return _render_table(
            request,
            access,
            status=exc.status,
            entry=entry,
            problems=exc.problems(),
            number=number,
        )
    deal_name = adapter_for(access.table.round.event).deal_name(number)
    if report.state == DealReport.State.FINAL:
        messages.success(request, _("%(deal)s成绩已生效") % {"deal": deal_name})
    else:
        messages.success(request, _("%(deal)s成绩已提交，等待确认") % {"deal": deal_name})
    target = access.url("table")
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


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


def _batch(request, access: Access | HttpResponse):
    """Several deals of the table in one request, as the phone sends what it queued while
    offline (issue 28): each deal goes through the results service on its own, with its own
    idempotency key, in order of deal number (all or nothing per deal, never across deals).
    The answer lists one result per deal in the order sent: its status (201 stored, 200
    replayed, or the refusal's), the report's state, or the refusal's words."""
    if isinstance(access, HttpResponse):
        return access
    match = getattr(access.table, "match", None)
    if match is None:
        raise Http404
    deals = _batch_deals(request)
    if deals is None:
        return JsonResponse(
            {"error": {"code": "malformed", "message": _("这批成绩的格式不对。")}}, status=400
        )
    form = _form(access.table.round.event)
    answers: list[dict] = [{} for _deal in deals]
    for index in sorted(range(len(deals)), key=lambda k: deals[k]["number"]):
        number = deals[index]["number"]
        entry = form.from_post(access.table, deals[index]["data"], None)
        problems = form.describe(entry.problems())
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
            deal = results.deal_for(match, number)
            report, created = results.submit_report(
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


@never_cache  # a referee link is a password: no browser or proxy keeps its pages
@require_POST
def link_batch(request, token: str):
    return _batch(request, _link_access(request, token))


@login_required
@require_POST
def user_batch(request, table_id: int):
    return _batch(request, _user_access(request, table_id))


@never_cache  # a referee link is a password: no browser or proxy keeps its pages
@require_POST
def link_check(request, token: str, number: int):
    return _check(request, _link_access(request, token), number)


@never_cache  # a referee link is a password: no browser or proxy keeps its pages
@require_POST
def link_submit(request, token: str, number: int):
    return _submit(request, _link_access(request, token), number)


@login_required
@require_POST
def user_check(request, table_id: int, number: int):
    return _check(request, _user_access(request, table_id), number)


@login_required
@require_POST
def user_submit(request, table_id: int, number: int):
    return _submit(request, _user_access(request, table_id), number)


def _confirm(
    request,
    actor: Actor,
    report: DealReport,
    back: str,
    pin_side: str | None = None,
    stand_in=None,
    pin_player=None,
):
    """Agree or disagree (with a reason, after ticking "sure"); by account, link or PIN, or the
    table's referee for a union (`stand_in`). A refused PIN is shown at its own box (the
    session carries it to the page; `back` then ends with that box's anchor)."""
    agrees = request.POST.get("agrees") == "yes"
    reason = request.POST.get("reason", "")

    def refused(text: str):
        if pin_side is None:
            messages.error(request, text)
            return _back(request, back)
        request.session[PIN_ERROR] = {"report": report.pk, "side": pin_side, "text": text}
        return _back(request, back)

    if not agrees and request.POST.get("sure") != "yes":
        return refused(_("请选择异议原因并勾选“确定提出异议”。"))
    if not agrees and reason not in Confirmation.Reason.values:
        return refused(_("请选择异议原因。"))
    try:
        pin_union = None
        if pin_side is not None and pin_side != "player":
            pin_union = results.check_captain_pin(
                report.deal.match,
                pin_side,
                request.POST.get("pin", ""),
                ratelimit.client_ip(request),
                actor,
            )
        report = results.confirm_report(
            report,
            actor,
            agrees,
            request.POST.get("note", "")[:2000],
            pin_union=pin_union,
            reason=reason,
            stand_in=stand_in,
            pin_player=pin_player,
        )
    except ResultError as exc:
        return refused(result_message(exc))
    else:
        deal_name = adapter_for(report.deal.match.round.event).deal_name(report.deal.number)
        if not agrees:
            messages.warning(request, _("已提出异议：%(deal)s交组织者裁决") % {"deal": deal_name})
        elif report.state == DealReport.State.FINAL:
            messages.success(request, _("%(deal)s成绩已生效") % {"deal": deal_name})
        else:
            messages.success(request, _("已确认%(deal)s成绩，等待对方确认") % {"deal": deal_name})
    return _back(request, back)


PIN_ERROR = "pin_error"  # the session's key for a refused PIN, shown once at its box


def pin_anchor(report: DealReport, side: str) -> str:
    """The anchor of a report's PIN box for a side on the table page (its id in
    _pin_confirm.html): the page opens with that box in view."""
    return f"#pin-{report.pk}{side}"


def _back(request, back: str):
    if request.htmx:
        return HttpResponseClientRedirect(back)
    return redirect(back)


def result_message(exc: ResultError) -> str:
    """A refusal in the page's language (the service's messages are English)."""
    return refusal(exc)


@never_cache
@require_POST
def link_pin(request, token: str, report_id: int):
    """A captain confirms (or disputes) on the table's phone with their PIN."""
    return _link_answer(request, token, report_id, pin=True)


@never_cache  # a referee link is a password: no browser or proxy keeps its pages
@require_POST
def link_confirm(request, token: str, report_id: int):
    """The link holder answers as a second referee."""
    return _link_answer(request, token, report_id, pin=False)


def _link_answer(request, token: str, report_id: int, *, pin: bool):
    """An answer to a report of the link's own table (any other table's report is a 404)."""
    access = _link_access(request, token)
    if isinstance(access, HttpResponse):
        return access
    report = get_object_or_404(
        DealReport.objects.select_related("deal__match"),
        pk=report_id,
        deal__match__table=access.table,
    )
    if not pin:
        return _confirm(request, access.actor, report, access.url("table"))
    side = request.POST.get("side", "")
    side = side if side in ("A", "B") else ""
    return _confirm(
        request, access.actor, report, access.url("table") + pin_anchor(report, side), side
    )


# --- signed-in referees and captains ----------------------------------------------------------


#: most pressing first on a referee's list: a call, a dispute, a report awaiting confirmation
HOME_ORDER = ("called", "disputed", "reported", "waiting", "confirmed")


def match_unions(match) -> tuple:
    """The two unions of a match (the one place that reads them, for the side-rows change)."""
    return (match.union_a, match.union_b)


def referee_rows(actor: Actor) -> list[dict]:
    """The actor's tables in each event's current round (its newest published round), each
    with its live state, most pressing first (docs/floor.md)."""
    tables = list(
        permissions.tables_of(actor)
        .filter(round__state=Round.State.PUBLISHED)
        .select_related("round__event", "match__round__event")
        .prefetch_related("match__sides__union", "match__sides__player")[:500]
    )
    newest: dict[int, int] = {}
    for table in tables:
        event_id = table.round.event_id
        newest[event_id] = max(newest.get(event_id, 0), table.round.number)
    tables = [t for t in tables if t.round.number == newest[t.round.event_id]]
    matches = [t.match for t in tables if getattr(t, "match", None) is not None]
    states = selectors.table_states(matches)
    open_calls = calls.open_calls([t.pk for t in tables])
    locks = locked_at(matches)
    rows = []
    for table in tables:
        match = getattr(table, "match", None)
        found = states.get(match.pk) if match is not None else None
        state = found["state"] if found else "waiting"
        rows.append(
            {
                "table": table,
                "event": table.round.event,
                "unions": match_unions(match) if match is not None else (),
                "state": "called" if table.pk in open_calls else state,
                "table_state": state,
                "next_deal": (found["final"] + 1) if found else 1,
                "call": open_calls.get(table.pk),
                "locks": locks.get(table.pk, []),
            }
        )
    rows.sort(key=lambda r: (HOME_ORDER.index(r["state"]), r["event"].pk, r["table"].number))
    return rows


def locked_at(matches: list) -> dict[int, list[dict]]:
    """Each table's unions whose captain PIN is locked there: {table id: [{union, minutes}]}, in
    one cache round trip."""
    subjects = {}
    for match in matches:
        for union in (side.union for side in match.union_sides):
            subjects[lockouts.pin_subject(union.pk, match.table_id)] = (match.table_id, union)
    if not subjects:
        return {}
    found: dict[int, list[dict]] = {}
    waits = ratelimit.CAPTAIN_PIN_FAILURES.locked_for_many(list(subjects))
    for subject, wait in waits.items():
        if wait:
            table_id, union = subjects[subject]
            minutes = max(1, (wait + 59) // 60)
            found.setdefault(table_id, []).append({"union": union, "minutes": minutes})
    return found


@login_required
def home(request):
    actor = Actor(user=request.user)
    rows = referee_rows(actor)
    counts = {state: sum(r["state"] == state for r in rows) for state in HOME_ORDER}
    return render(
        request,
        "referee/home.html",
        {
            "tables": rows,
            "counts": counts,
            "confirmable": permissions.confirmable_reports(actor),
            "captain_of": permissions.captained_unions(actor),
        },
    )


@login_required
@require_POST
def acknowledge_call(request, call_id: int):
    """A referee of the table (or an organiser) answers the table's call."""
    call = get_object_or_404(RefereeCall.objects.select_related("table__round__event"), pk=call_id)
    if not permissions.can_enter_results(Actor(user=request.user), call.table):
        return render(request, "referee/forbidden.html", status=403)
    calls.acknowledge(call, request.user)
    messages.success(request, _("已响应第 %(n)d 桌的呼叫") % {"n": call.table.number})
    return redirect("referee:home")


@require_http_methods(["GET", "POST"])
def link_call(request, token: str):
    """呼叫裁判 from the table's phone: one open call per table, another a minute later at most.
    GET answers the call box alone: the phone asks for it while its call is open, and the box
    drops 裁判正在赶来 as soon as a referee has acknowledged."""
    access = _link_access(request, token)
    if isinstance(access, HttpResponse):
        return access
    if request.method == "GET":
        table = access.table
        response = render(
            request,
            "referee/_call.html",
            {
                "access": access,
                "table": table,
                "round_open": table.round.state == Round.State.PUBLISHED,
            },
        )
        patch_cache_control(response, private=True, no_store=True)
        return response
    try:
        _call, created = calls.call_referee(access.table)
    except calls.CallRefused as refused:
        messages.error(request, str(refused))
    else:
        if created:
            messages.success(request, _("已呼叫裁判，请在座位上稍候"))
        else:
            messages.info(request, _("已经呼叫过裁判，请稍候"))
    return redirect(access.url("table"))


@login_required
@require_http_methods(["GET", "POST"])
def report_page(request, report_id: int):
    """A captain (or second referee) reads a pending report and confirms or disputes it."""
    actor = Actor(user=request.user)
    report = get_object_or_404(
        DealReport.objects.select_related(
            "deal__match__round__event", "deal__match__table", "submitted_by"
        ),
        pk=report_id,
    )
    match = report.deal.match
    role = permissions.confirmation_role(actor, report)
    participant = (
        role is not None
        or permissions.captain_union(actor, match) is not None
        or (match.table is not None and permissions.can_enter_results(actor, match.table))
    )
    if not participant:
        return render(request, "referee/forbidden.html", status=403)
    if request.method == "POST":
        return _confirm(request, actor, report, reverse("referee:report", args=[report.pk]))
    seats = seats_of(match.table) if match.table else []
    return render(
        request,
        "referee/report.html",
        {
            "report": report,
            "match": match,
            "event": match.round.event,
            "role": role,
            "seat_names": {s["seat"]: s["player"] for s in seats},
            "can_confirm": role is not None and report.state == DealReport.State.PENDING,
            "dispute_reasons": Confirmation.Reason.choices,
        },
    )


# --- the deal viewer --------------------------------------------------------------------------


def _viewer(request, access: Access | HttpResponse, report_id: int):
    """A report's play log step by step: only a report of the table the link or account opens."""
    if isinstance(access, HttpResponse):
        return access
    report = selectors.viewer_report(report_id, deal__match__table=access.table)
    if report is None:
        raise Http404
    names = {s["seat"]: s["player"] for s in seats_of(access.table)}
    title = _("第%(n)s桌") % {"n": access.table.number}
    return render_viewer(request, report, names, back=access.url("table"), title=title)


@never_cache  # a referee link is a password: no browser or proxy keeps its pages
def link_viewer(request, token: str, report_id: int):
    return _viewer(request, _link_access(request, token), report_id)


@login_required
def user_viewer(request, table_id: int, report_id: int):
    return _viewer(request, _user_access(request, table_id), report_id)


@login_required
def union_private(request, union_id: int):
    """The union's private page: its captain's PIN (and, for organisers, a reset button)."""
    from matches.models import Union

    union = get_object_or_404(Union.objects.select_related("event"), pk=union_id)
    actor = Actor(user=request.user)
    if not permissions.can_see_union_pin(actor, union):
        return render(request, "referee/forbidden.html", status=403)
    response = render(
        request,
        "referee/union.html",
        {
            "union": union,
            "event": union.event,
            "captain": union.captain,
            "can_reset": permissions.can_manage_event(request.user, union.event),
        },
    )
    response["Cache-Control"] = "private, no-store"
    return response


# --- a player of the table confirms (individual events) --------------------------------------


@never_cache
@require_POST
def link_player_pin(request, token: str, report_id: int):
    """Another player of the table agrees (or disputes) with their own PIN on the table's phone."""
    access = _link_access(request, token)
    if isinstance(access, HttpResponse):
        return access
    report = get_object_or_404(
        DealReport.objects.select_related("deal__match__round__event", "deal__match__table"),
        pk=report_id,
        deal__match__table=access.table,
    )
    back = access.url("table") + f"#player-pin-{report.pk}"
    seat = request.POST.get("seat", "")
    try:
        player = results.check_player_pin(
            report.deal.match,
            int(seat) if seat.isdigit() and len(seat) < 3 else 0,
            request.POST.get("pin", ""),
            access.actor,
        )
    except ResultError as exc:
        request.session[PIN_ERROR] = {
            "report": report.pk,
            "side": "player",
            "text": result_message(exc),
        }
        return _back(request, back)
    return _confirm(request, access.actor, report, back, pin_side="player", pin_player=player)


# --- the table's referee in a captain's place -------------------------------------------------


def _stand_in(request, access: Access | HttpResponse, report_id: int):
    """The table's referee (signed in) answers for a union in its captain's place, or lifts
    the union's PIN lock at the table; both logged in the round's log."""
    if isinstance(access, HttpResponse):
        return access
    if not permissions.may_stand_in(access.actor, access.table):
        return render(request, "referee/forbidden.html", status=403)
    report = get_object_or_404(
        DealReport.objects.select_related("deal__match"),
        pk=report_id,
        deal__match__table=access.table,
    )
    side = request.POST.get("side", "")
    match = report.deal.match
    union = match.union_a if side == "A" else match.union_b if side == "B" else None
    if union is None:
        raise Http404
    back = access.url("table") + pin_anchor(report, side)
    if request.POST.get("unlock") == "yes":
        if lockouts.lift_pin_lock(access.table, union, access.actor.user):
            messages.success(request, _("%(union)s的队长密码已解除锁定") % {"union": union.name})
        return _back(request, back)
    return _confirm(request, access.actor, report, back, stand_in=union)


@never_cache
@require_POST
def link_stand_in(request, token: str, report_id: int):
    return _stand_in(request, _link_access(request, token), report_id)


@login_required
@require_POST
def user_stand_in(request, table_id: int, report_id: int):
    return _stand_in(request, _user_access(request, table_id), report_id)


@login_required
@require_POST
def unlock_pin(request, table_id: int, union_id: int):
    """The table's referee lifts a union's PIN lock from their list (logged)."""
    access = _user_access(request, table_id)
    if isinstance(access, HttpResponse):
        return access
    if not permissions.may_stand_in(access.actor, access.table):
        return render(request, "referee/forbidden.html", status=403)
    union = get_object_or_404(
        access.table.round.event.unions.filter(seats__table=access.table).distinct(), pk=union_id
    )
    if lockouts.lift_pin_lock(access.table, union, request.user):
        messages.success(
            request,
            _("第%(table)s桌%(union)s的队长密码已解除锁定")
            % {"table": access.table.number, "union": union.name},
        )
    return redirect("referee:home")
