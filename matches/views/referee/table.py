"""A table on the referee's phone: the page, the live check of the deal form against the rules
engine (htmx `.../check`), and a deal's submission. The same URLs render the full page when
JavaScript is off."""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from matches import permissions
from matches.events import announcements
from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import ResultError
from matches.models import Confirmation, DealReport, Event, Round
from matches.results import lockouts
from matches.results.common import check_report
from matches.results.deals import deal_allowed, deal_for, match_deals
from matches.results.messages import refusal_text
from matches.results.submit import submit_report
from matches.views.referee.access import PIN_ERROR, Access, at_table, form_of, seats_of
from matches.views.referee.sheet import sheet_context, unchecked_problems

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

    The form moves on past deals whose report awaits its confirmation (a deal may be
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
    progress: str = "",
    sheet_checked: list[str] | None = None,
) -> dict:
    """The referee's table page: the shared part, then the game's form adds its own. `number`:
    the deal the form is about when a URL names it (a check, a submission, `?deal=`)."""
    table = access.table
    round_ = table.round
    event = round_.event
    form = form_of(event)
    match = getattr(table, "match", None)
    context = {
        "access": access,
        "table": table,
        "round": round_,
        "event": event,
        "match": match,
        "seats": seats_of(table),
        "round_open": round_.state == Round.State.PUBLISHED,
        # The organiser's announcements, refetched on the table's live notices.
        "announcements": announcements.active(event.pk),
        "announcements_url": access.url("announcements"),
        "live_stream": reverse("live:link", args=[access.token])
        if access.token
        else reverse("live:referee"),
        "deal_number": None,
        "deal_rows": [],
        "open_report": None,
        "can_report": False,
        "entry": entry or form.blank(table),
        "checked": checked,
        "progress": progress,
        "problems": _described(form, problems or []),
        "confirmable": [],
        "dispute_reasons": Confirmation.Reason.choices,
        "pin_sides": [],
        "player_box": None,
        "awaiting": [],
    }
    if match is not None:
        rows = match_deals(match)
        number, awaiting = next_deal(rows, number)
        current_row = next((row for row in rows if row["number"] == number), None)
        if adapter_for(event).has_deal_viewer:
            for row in rows:
                shown = row["final"] or row["open"]
                if shown is not None and shown.play_log is not None:
                    row["viewer_url"] = access.url("viewer", report_id=shown.pk)
        playable = deal_allowed(match, number)  # False once every deal is final
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
        context["sheet"] = sheet_context(access, match, context["deal_number"], sheet_checked or [])
        row = context["sheet"]["row"]
        if entry is None and row and context["can_report"] and hasattr(form, "from_sheet"):
            # The photo's row fills the form; the engine's answer shows at once, as after a check.
            context["entry"] = form.from_sheet(table, row)
            context["checked"], found = run_check(match, number, context["entry"])
            context["progress"], found = held_back(form, context["entry"], found)
            context["problems"] = _described(form, found)
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


def _described(form, problems: list) -> list[dict]:
    return [
        {
            **p,
            "text": p.get("text")
            or refusal_text(
                p.get("code"), {"detail": p.get("message", ""), **(p.get("params") or {})}
            ),
        }
        for p in form.describe(problems)
    ]


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


def render_table(request, access: Access, status: int = 200, **extra) -> HttpResponse:
    context = table_context(access, **extra)
    return render_form(request, form_of(access.table.round.event).templates, context, status)


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
    phone: another player of the table agrees with their own PIN. It offers only the seats that
    may confirm (`permissions.player_refusals`: not the side the result favours, not the player
    who reported it) and says why the others may not. The phone names who confirms next (the
    seats take turns deal by deal, skipping those that may not; any other seat offered may do
    it instead)."""
    if report is None or report.state != DealReport.State.PENDING or not access.token:
        return None
    if access.table.round.event.confirmation != Event.Confirmation.PLAYER:
        return None
    seats = seats_of(access.table)
    if not seats:
        return None
    refusals = permissions.player_refusals(report)
    offered = [seat for seat in seats if seat["seat"] not in refusals]
    start = report.deal.number % len(seats)
    turn = next((s for s in seats[start:] + seats[:start] if s["seat"] not in refusals), None)
    error = access.pin_error or {}
    return {
        "id": f"player-pin-{report.pk}",
        "url": access.url("player-pin", report_id=report.pk),
        "seats": offered,
        "next": turn,
        "why_not": refusal_lines(refusals, offered),
        "error": error.get("text")
        if error.get("report") == report.pk and error.get("side") == "player"
        else "",
    }


def refusal_lines(refusals: dict[int, str], offered: list[dict]) -> list[str]:
    """Why the seats not offered in a player PIN box may not confirm, one line a reason."""
    lines = []
    favoured = sorted(seat for seat, why in refusals.items() if why == permissions.PLAYER_FAVOURED)
    if favoured:
        lines.append(
            _("成绩对第 %(seats)s 座有利，这些座位的选手不能确认。")
            % {"seats": "-".join(map(str, favoured))}
        )
    reported = sorted(seat for seat, why in refusals.items() if why == permissions.PLAYER_REPORTED)
    if reported:
        lines.append(
            _("第 %(seats)s 座的选手自己报了这份成绩，不能再确认。")
            % {"seats": "-".join(map(str, reported))}
        )
    if not favoured:
        lines.append(_("平局：哪一方的选手都可以确认。"))
    if not offered:
        lines.append(_("本桌没有选手可以确认：请裁判或组织者确认。"))
    return lines


def run_check(match, number: int, entry):
    """The engine's answer to what the form holds now: (checked or None, problems)."""
    problems = entry.problems()
    try:
        checked = check_report(match, number, entry.summary(), entry.play_log())
    except ResultError as exc:
        return None, problems + exc.problems()
    return checked, problems + checked.errors


def held_back(form, entry, problems: list) -> tuple[str, list]:
    """A live check of an entry still being filled: (how far it got, the problems left). What
    only says the entry is unfinished (Gou Ji's order still being tapped) is progress, shown in a
    neutral line, not a refusal: a referee who sees red after every tap learns to ignore red.
    The submission itself still refuses an unfinished entry. A game's form without `progress`
    holds nothing back."""
    progress = getattr(form, "progress", None)
    return progress(entry, problems) if progress is not None else ("", problems)


def _wanted_deal(request) -> int | None:
    """`?deal=N`: report deal N again (its report still awaits confirmation)."""
    value = request.GET.get("deal", "")
    return int(value) if value.isdigit() and 0 < len(value) < 7 else None


@at_table()
def table_page(request, access: Access):
    access.pin_error = request.session.pop(PIN_ERROR, None)
    return render_table(request, access, number=_wanted_deal(request))


def _posted(request, access: Access):
    """The table's match and the entry posted to it."""
    match = getattr(access.table, "match", None)
    if match is None:
        raise Http404
    return match, form_of(access.table.round.event).from_post(
        access.table, request.POST, request.FILES
    )


@at_table(["POST"])
def check_deal(request, access: Access, number: int):
    match, entry = _posted(request, access)
    checked, problems = run_check(match, number, entry)
    progress, problems = held_back(form_of(access.table.round.event), entry, problems)
    return render_table(
        request,
        access,
        entry=entry,
        checked=checked,
        problems=problems,
        number=number,
        progress=progress,
        sheet_checked=request.POST.getlist("sheet_checked"),
    )


@at_table(["POST"])
def submit_deal(request, access: Access, number: int):
    match, entry = _posted(request, access)
    problems = entry.problems() + unchecked_problems(match, number, request.POST)
    sheet_checked = request.POST.getlist("sheet_checked")
    if problems:
        return render_table(
            request,
            access,
            status=422,
            entry=entry,
            problems=problems,
            number=number,
            sheet_checked=sheet_checked,
        )
    try:
        deal = deal_for(match, number)
        report, created = submit_report(
            deal, entry.summary(), entry.play_log(), access.actor, entry.idempotency_key
        )
    except ResultError as exc:
        return render_table(
            request,
            access,
            status=exc.status,
            entry=entry,
            problems=exc.problems(),
            number=number,
            sheet_checked=sheet_checked,
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
