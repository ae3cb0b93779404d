"""Referee and captain pages: enter a deal on a phone, check it live, confirm or dispute it.

A referee reaches their table through a private link (`/ref/<token>/`, no account needed) or by
signing in (`/referee/`). Every change of the deal form is checked against the rules engine by
htmx (`.../check`); the same URLs render the full page when JavaScript is off.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from matches.games.giog import referee as giog_referee
from matches import ratelimit
from matches.models import DealReport, Event, RefereeLink, Round, Table
from matches.games.gouji.referee_form import (
    BURN_OUTCOME_LABELS,
    DECLARATION_LABELS,
    DealEntry,
    describe,
)
from matches.results import service as results
from matches.results.service import Actor, ResultError


def _tributes_owed(deal, number: int):
    """The ledger owed before this deal; None while unknown. A match's first deal owes nothing
    (tributes carry only from deal to deal within one match), even before anything ran."""
    owed = deal.tributes_owed if deal else None
    return [] if owed is None and number == 1 else owed


@dataclass
class Access:
    """Who is at which table, and by which route (link token or signed-in account)."""

    actor: Actor
    table: Table
    token: str | None = None

    def url(self, name: str, **kwargs) -> str:
        if self.token:
            return reverse(f"referee:link-{name}", kwargs={"token": self.token, **kwargs})
        return reverse(f"referee:table-{name}", kwargs={"table_id": self.table.pk, **kwargs})


def _table(table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__event", "round__stage", "match__union_a",
                                     "match__union_b"),
        pk=table_id,
    )


def _link_access(request, token: str) -> Access | HttpResponse:
    ip = ratelimit.client_ip(request)
    wait = ratelimit.REFEREE_TOKEN_FAILURES.locked_for(ip)
    if wait:  # refused unchecked, like the API: guessing links learns nothing more
        return _too_many(request, wait)
    link = (RefereeLink.objects.filter(token=token).select_related("table").first()
            if results.LINK_TOKEN.fullmatch(token) else None)
    if link is None or link.revoked_at is not None:
        if link is None:
            ratelimit.REFEREE_TOKEN_FAILURES.fail(ip)
        return render(request, "referee/link_gone.html", {"revoked": link is not None}, status=404)
    return Access(actor=Actor.from_link(link), table=_table(link.table_id), token=token)


def _too_many(request, wait: int) -> HttpResponse:
    response = render(request, "too_many_attempts.html",
                      {"minutes": max(1, (wait + 59) // 60)}, status=429)
    response["Retry-After"] = str(wait)
    return response


def _user_access(request, table_id: int) -> Access | HttpResponse:
    if not Table.objects.filter(pk=table_id).exists():
        # A page opened before the round was re-drawn: say so rather than a bare 404.
        return render(request, "referee/link_gone.html", {"table_gone": True}, status=404)
    table = _table(table_id)
    actor = Actor(user=request.user)
    if not results.can_enter_results(actor, table):
        return render(request, "referee/forbidden.html", status=403)
    return Access(actor=actor, table=table)


def seats_of(table: Table) -> list[dict]:
    return [
        {"seat": s.seat, "side": s.side, "player": s.player, "union": s.union}
        for s in table.seats.select_related("player", "union")
    ]


def table_context(access: Access, entry: DealEntry | None = None, checked=None,
                  problems: list | None = None) -> dict:
    table = access.table
    round_ = table.round
    event = round_.event
    match = getattr(table, "match", None)
    context = {
        "access": access, "table": table, "round": round_, "event": event, "match": match,
        "seats": seats_of(table), "seat_numbers": range(1, 7),
        "declaration_labels": DECLARATION_LABELS, "burn_outcome_labels": BURN_OUTCOME_LABELS,
        "round_open": round_.state == Round.State.PUBLISHED,
        "deal_number": None, "deal_rows": [], "tributes_owed": None, "open_report": None,
        "can_report": False, "entry": entry or DealEntry.blank(),
        "checked": checked, "problems": describe(problems or []),
        "confirmable": [],
    }
    if match is None:
        return context
    number = results.current_deal_number(match)
    rows = results.match_deals(match)
    current_row = next((row for row in rows if row["number"] == number), None)
    deal = current_row["deal"] if current_row else None
    playable = results.deal_allowed(match, number)  # False once every deal is final
    open_report = current_row["open"] if current_row else None
    context.update({
        "deal_number": number if playable else None,
        "deal_rows": rows,
        "tributes_owed": _tributes_owed(deal, number),
        "open_report": open_report,
        "can_report": playable and context["round_open"]
        and not (open_report and open_report.state == DealReport.State.DISPUTED),
        "confirmable": [r for r in results.confirmable_reports(access.actor)
                        if r.deal.match_id == match.pk],
        "seat_names": {s["seat"]: s["player"] for s in context["seats"]},
    })
    entry = context["entry"]
    context["entry_seats"] = [
        {**seat, "place": entry.place_of(seat["seat"]), "point": seat["seat"] in entry.points,
         "declaration": entry.declarations.get(seat["seat"], ""),
         "revolution": seat["seat"] in entry.revolution}
        for seat in context["seats"]
    ]
    context["finish_names"] = [(place, seat, context["seat_names"].get(seat))
                               for place, seat in enumerate(entry.finish, 1)]
    if playable:
        context["check_url"] = access.url("check", number=number)
        context["submit_url"] = access.url("submit", number=number)
    return context


def _render_table(request, access: Access, status: int = 200, **extra) -> HttpResponse:
    context = table_context(access, **extra)
    if request.htmx and request.GET.get("part") == "verdict":
        return render(request, "referee/deal_form.html#verdict", context)
    if request.htmx:
        return render(request, "referee/deal_form.html", context)
    return render(request, "referee/table.html", context, status=status)


def run_check(match, number: int, entry: DealEntry):
    """The engine's answer to what the form holds now: (checked or None, problems)."""
    problems = entry.row_errors()
    try:
        checked = results.check_report(match, number, entry.summary(), entry.play_log())
    except ResultError as exc:
        return None, problems + [{"rule": exc.rule, "code": exc.code, "message": exc.message}]
    return checked, problems + checked.errors


# --- link and account routes ------------------------------------------------------------------

def _is_giog(access: Access) -> bool:
    return access.table.round.event.is_giog


def link_table(request, token: str):
    access = _link_access(request, token)
    if isinstance(access, HttpResponse):
        return access
    if _is_giog(access):
        return giog_referee.table_page(request, access)
    return render(request, "referee/table.html", table_context(access))


@login_required
def user_table(request, table_id: int):
    access = _user_access(request, table_id)
    if isinstance(access, HttpResponse):
        return access
    if _is_giog(access):
        return giog_referee.table_page(request, access)
    return render(request, "referee/table.html", table_context(access))


def _check(request, access: Access, number: int):
    if isinstance(access, HttpResponse):
        return access
    match = getattr(access.table, "match", None)
    if match is None:
        raise Http404
    if _is_giog(access):
        return giog_referee.check(request, access, number)
    entry = DealEntry.from_post(request.POST, request.FILES)
    checked, problems = run_check(match, number, entry)
    return _render_table(request, access, entry=entry, checked=checked, problems=problems)


def _submit(request, access: Access, number: int):
    if isinstance(access, HttpResponse):
        return access
    match = getattr(access.table, "match", None)
    if match is None:
        raise Http404
    if _is_giog(access):
        return giog_referee.submit(request, access, number)
    entry = DealEntry.from_post(request.POST, request.FILES)
    problems = entry.row_errors()
    if problems:
        return _render_table(request, access, status=422, entry=entry, problems=problems)
    try:
        deal = results.deal_for(match, number)
        report, created = results.submit_report(deal, entry.summary(), entry.play_log(),
                                                access.actor, entry.idempotency_key)
    except ResultError as exc:
        problems = [{"rule": exc.rule, "code": exc.code, "message": exc.message}]
        if exc.errors:
            problems = exc.errors
        return _render_table(request, access, status=exc.status, entry=entry, problems=problems)
    if report.state == DealReport.State.FINAL:
        messages.success(request, _("第 %(n)s 局成绩已生效") % {"n": number})
    else:
        messages.success(request, _("第 %(n)s 局成绩已提交，等待确认") % {"n": number})
    target = access.url("table") if access.token else reverse(
        "referee:table-table", kwargs={"table_id": access.table.pk})
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@require_POST
def link_check(request, token: str, number: int):
    return _check(request, _link_access(request, token), number)


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


def _confirm(request, actor: Actor, report: DealReport, back: str):
    agrees = request.POST.get("agrees") == "yes"
    try:
        results.confirm_report(report, actor, agrees, request.POST.get("note", "")[:2000])
    except ResultError as exc:
        messages.error(request, exc.message)
    else:
        if agrees:
            messages.success(request, _("已确认第 %(n)s 局成绩") % {"n": report.deal.number})
        else:
            messages.warning(request, _("已提出异议：第 %(n)s 局交组织者裁决") % {"n": report.deal.number})
    if request.htmx:
        return HttpResponseClientRedirect(back)
    return redirect(back)


@require_POST
def link_confirm(request, token: str, report_id: int):
    access = _link_access(request, token)
    if isinstance(access, HttpResponse):
        return access
    report = get_object_or_404(DealReport.objects.select_related("deal__match"), pk=report_id,
                               deal__match__table=access.table)
    return _confirm(request, access.actor, report, access.url("table"))


# --- signed-in referees and captains ----------------------------------------------------------

@login_required
def home(request):
    actor = Actor(user=request.user)
    tables = results.tables_of(actor).select_related("round__event").exclude(
        round__state=Round.State.DRAFT)
    rows = [{"table": t, "state": results.table_state(t)} for t in tables[:50]]
    return render(request, "referee/home.html", {
        "tables": rows, "confirmable": results.confirmable_reports(actor),
    })


@login_required
@require_http_methods(["GET", "POST"])
def report_page(request, report_id: int):
    """A captain (or second referee) reads a pending report and confirms or disputes it."""
    actor = Actor(user=request.user)
    report = get_object_or_404(
        DealReport.objects.select_related("deal__match__round__event", "deal__match__table",
                                          "submitted_by"), pk=report_id)
    match = report.deal.match
    role = results.confirmation_role(actor, report)
    participant = role is not None or results.captain_union(actor, match) is not None or (
        match.table is not None and results.can_enter_results(actor, match.table))
    if not participant:
        return render(request, "referee/forbidden.html", status=403)
    if request.method == "POST":
        return _confirm(request, actor, report, reverse("referee:report", args=[report.pk]))
    seats = seats_of(match.table) if match.table else []
    return render(request, "referee/report.html", {
        "report": report, "match": match, "event": match.round.event, "role": role,
        "seat_names": {s["seat"]: s["player"] for s in seats},
        "can_confirm": role is not None and report.state == DealReport.State.PENDING,
        "declaration_labels": DECLARATION_LABELS, "burn_outcome_labels": BURN_OUTCOME_LABELS,
    })


def confirmation_mode_label(event: Event) -> str:
    return event.get_result_confirmation_display()
