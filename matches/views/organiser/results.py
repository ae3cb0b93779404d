"""Organiser pages for results: every table's state per round, full history, corrections,
referee links and their QR codes. The event's organisers and assistants (and admins) get in
(`access.running_event`)."""

from __future__ import annotations

import io
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from matches import selectors
from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import ResultError
from matches.models import (
    DealReport,
    Event,
    RefereeLink,
    Round,
    RoundLog,
    Table,
    TableSeat,
    Union,
)
from matches.models.event import new_captain_pin
from matches.permissions import Actor
from matches.results import correct, deals, lockouts
from matches.results.messages import refusal
from matches.views.addresses import staff_url
from matches.views.deal_viewer import render_viewer
from matches.views.organiser.access import running_event
from matches.views.referee.access import seats_of
from matches.views.referee.sheet import photo_rows
from matches.views.referee.table import held_back, render_form, run_check

#: Refusals of a correction as such (not of the result it gives): shown as one message.
CORRECTION_REFUSALS = {"reason_required", "same_as_report", "same_as_final"}

#: A pending report older than this (minutes) is "stale" in the queue (`?stale=N` changes it).
QUEUE_STALE_MINUTES = 10


def _table(event: Event, table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__event", "match").prefetch_related(
            "match__sides__union", "match__sides__player"
        ),
        pk=table_id,
        round__event=event,
    )


@login_required
def event_results(request, event_id: int):
    event = running_event(request, event_id)
    rounds = []
    for round_ in event.rounds.exclude(state=Round.State.DRAFT).order_by("-number"):
        tables = round_.tables.select_related("match").prefetch_related(
            "match__sides__union", "match__sides__player"
        )
        rows: list[dict[str, Any]] = [
            {"table": t, "match": getattr(t, "match", None), "state": selectors.table_state(t)}
            for t in tables
        ]
        counts: dict[str, int] = {}
        for row in rows:
            counts[row["state"]] = counts.get(row["state"], 0) + 1
        rounds.append({"round": round_, "tables": rows, "counts": counts})
    open_count = DealReport.objects.open().filter(deal__match__round__event=event).count()
    return render(
        request,
        "manage/results/event.html",
        {"event": event, "rounds": rounds, "open_count": open_count},
    )


@login_required
def table_results(request, event_id: int, table_id: int):
    event = running_event(request, event_id)
    table = _table(event, table_id)
    match = getattr(table, "match", None)
    seats = seats_of(table)
    rows = deals.match_deals(match) if match else []
    for row in rows:
        row["history"] = list(
            DealReport.objects.filter(pk__in=[r.pk for r in row["history"]])
            .select_related("submitted_by", "referee_link", "replaces")
            .prefetch_related("confirmations__user", "confirmations__union")
            .order_by("created_at", "id")
        )
    if adapter_for(event).has_deal_viewer:
        for row in rows:
            for report in row["history"]:
                if report.play_log is not None:
                    report.viewer_url = _viewer_url(event, table, report, row["history"])
    links = [
        {
            "link": link,
            "url": staff_url(request, reverse("referee:link-table", args=[link.token])),
        }
        for link in table.referee_links.all()
    ]
    return render(
        request,
        "manage/results/table.html",
        {
            "event": event,
            "table": table,
            "round": table.round,
            "match": match,
            "seats": seats,
            "seat_names": {s["seat"]: s["player"] for s in seats},
            "deal_rows": rows,
            "links": links,
            "state": selectors.table_state(table),
            # The photographed sheets: evidence beside the reports (disputes, corrections).
            "sheet_photos": photo_rows(event, match.sheet_photos.all()) if match else [],
        },
    )


def _viewer_url(event, table, report, history) -> str:
    url = reverse("manage:results-viewer", args=[event.pk, table.pk, report.pk])
    other = competing_report(report, history)
    return f"{url}?against={other.pk}" if other is not None else url


@login_required
@require_http_methods(["GET", "POST"])
def correct_deal(request, event_id: int, table_id: int, number: int):
    """The organiser replaces a deal's result (also how a disputed deal is decided): the form
    starts from the result in force, and is checked live like the referee's."""
    event = running_event(request, event_id)
    table = _table(event, table_id)
    match = getattr(table, "match", None)
    if match is None or not deals.deal_allowed(match, number):
        raise Http404
    adapter = adapter_for(event)
    form = adapter.result_form
    current = DealReport.objects.final().filter(deal__match=match, deal__number=number).first()
    # A deal waiting for a decision starts from what was reported: edit what differs, or uphold.
    open_report = (
        DealReport.objects.open()
        .filter(deal__match=match, deal__number=number)
        .prefetch_related("confirmations__user", "confirmations__union")
        .first()
    )
    base = reverse("manage:results-correct", args=[event.pk, table.pk, number])
    deal = match.deals.filter(number=number).first()
    history = selectors.deal_reports(deal) if deal is not None else []
    logged = [
        {"report": r, "url": _viewer_url(event, table, r, history)}
        for r in history
        if r.play_log is not None and adapter.has_deal_viewer
    ]
    templates = {"page": form.templates["correct"], "form": form.templates["form"]}

    def page(entry, checked=None, problems=None, status=200, refused=None, progress=""):
        context = {
            "event": event,
            "table": table,
            "match": match,
            "number": number,
            "current": current,
            "open_report": open_report,
            "dispute": next((c for c in open_report.confirmations.all() if not c.agrees), None)
            if open_report
            else None,
            "entry": entry,
            "checked": checked,
            "progress": progress,
            "seats": seats_of(table),
            "seat_names": {s["seat"]: s["player"] for s in seats_of(table)},
            "problems": form.describe(problems or []),
            "reason_field": True,
            # A refusal of the correction itself (no reason, nothing changed), not of the result:
            # shown by the submit button, apart from the rules a result breaks.
            "refusal": refusal(refused) if refused is not None else "",
            "refusal_code": refused.code if refused is not None else "",
            "logged": logged,
            "check_url": base + "?check=1",
            "submit_url": base,
        }
        context.update(form.context(context))
        return render_form(request, templates, context, status)

    if request.method == "GET":
        return page(form.from_report(table, current or open_report))
    entry = form.from_post(table, request.POST, request.FILES)
    entry.reason = (request.POST.get("reason") or "")[:2000]
    if request.GET.get("check"):
        checked, problems = run_check(match, number, entry)
        progress, problems = held_back(form, entry, problems)
        return page(entry, checked, problems, progress=progress)
    problems = entry.problems()
    if not problems:
        try:
            deal = deals.deal_for(match, number)
            correct.correct_result(
                deal,
                entry.summary(),
                entry.play_log(),
                Actor(user=request.user),
                entry.reason,
                entry.idempotency_key,
            )
        except ResultError as exc:
            if exc.code in CORRECTION_REFUSALS:
                return page(entry, None, None, status=422, refused=exc)
            problems = exc.problems()
    if problems:
        return page(entry, None, problems, status=422)
    messages.success(request, _("%(deal)s成绩已更正") % {"deal": adapter.deal_name(number)})
    target = reverse("manage:results-table", args=[event.pk, table.pk])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@login_required
@require_POST
def recheck_deal(request, event_id: int, table_id: int, number: int):
    event = running_event(request, event_id)
    table = _table(event, table_id)
    match = getattr(table, "match", None)
    deal = match.deals.filter(number=number).first() if match else None
    if deal is None:
        raise Http404
    try:
        changed = correct.recheck_deal(deal, Actor(user=request.user))
    except ResultError as exc:
        messages.error(request, refusal(exc))
    else:
        if changed is None:
            messages.success(request, _("第 %(n)s 局复核无变化") % {"n": number})
        else:
            messages.warning(
                request,
                _("第 %(n)s 局已按新的连续%(strings)s次数重新结算")
                % {"n": number, "strings": event.adapter.strings_of_three_label(event)},
            )
    return redirect("manage:results-table", event.pk, table.pk)


@login_required
@require_POST
def create_link(request, event_id: int, table_id: int):
    event = running_event(request, event_id)
    table = _table(event, table_id)
    RefereeLink.objects.create(
        table=table, created_by=request.user, label=request.POST.get("label", "")[:120]
    )
    messages.success(request, _("已生成新的裁判链接"))
    return redirect("manage:results-table", event.pk, table.pk)


@login_required
@require_POST
def revoke_link(request, event_id: int, link_id: int):
    event = running_event(request, event_id)
    link = get_object_or_404(RefereeLink, pk=link_id, table__round__event=event)
    link.revoke()
    messages.success(request, _("裁判链接已收回"))
    return redirect("manage:results-table", event.pk, link.table_id)


@login_required
def link_qr(request, event_id: int, link_id: int, fmt: str):
    """The referee link as a QR code (SVG or PNG), to print on the table card."""
    event = running_event(request, event_id)
    if fmt not in ("svg", "png"):
        raise Http404
    link = get_object_or_404(RefereeLink, pk=link_id, table__round__event=event)
    url = staff_url(request, reverse("referee:link-table", args=[link.token]))
    return qr_response(url, fmt)


def qr_response(text: str, fmt: str) -> HttpResponse:
    import segno

    code = segno.make_qr(text, error="m")
    buffer = io.BytesIO()
    if fmt == "svg":
        code.save(buffer, kind="svg", scale=10)
        content_type = "image/svg+xml"
    else:
        code.save(buffer, kind="png", scale=8, border=2)
        content_type = "image/png"
    response = HttpResponse(buffer.getvalue(), content_type=content_type)
    response["Cache-Control"] = "private, no-store"
    return response


def _compared_with(request, report: DealReport, reports: list[DealReport]) -> DealReport:
    """Whose summary the log is compared with: `?against=<report id>` among the deal's reports;
    by default the report the log competes with (the deal's final result when the log's report is
    not it, else an open report), or the log's own summary."""
    value = request.GET.get("against", "")
    by_pk = {r.pk: r for r in reports if r.summary}
    if value.isascii() and value.isdigit() and len(value) <= 18:
        chosen = by_pk.get(int(value))
        if chosen is not None:
            return chosen
    return competing_report(report, reports) or report


def competing_report(report: DealReport, reports: list[DealReport]) -> DealReport | None:
    """The report of the same deal that `report`'s log competes with, or None."""
    live = (DealReport.State.FINAL, DealReport.State.DISPUTED, DealReport.State.PENDING)
    others = [r for r in reports if r.pk != report.pk and r.summary and r.state in live]
    others.sort(key=lambda r: live.index(r.state))
    return others[0] if others else None


@login_required
def deal_viewer(request, event_id: int, table_id: int, report_id: int):
    """A report's play log step by step, with the first step where it and a summary (its own,
    or a competing report's) disagree marked."""
    event = running_event(request, event_id)
    table = _table(event, table_id)
    report = selectors.viewer_report(report_id, deal__match__table=table)
    if report is None:
        raise Http404
    reports = selectors.deal_reports(report.deal)
    against = _compared_with(request, report, reports)
    names = {s["seat"]: s["player"] for s in seats_of(table)}
    title = _("第%(n)s桌") % {"n": table.number}
    back = (
        reverse("manage:results-table", args=[event.pk, table.pk]) + f"#deal-{report.deal.number}"
    )
    return render_viewer(
        request,
        report,
        names,
        back=back,
        title=title,
        against=against,
        choices=[r for r in reports if r.summary],
    )


@login_required
@require_POST
def reset_union_pin(request, event_id: int, union_id: int):
    """A new captain PIN for a union (a captain lost theirs, or the other union saw it)."""
    event = running_event(request, event_id)
    union = get_object_or_404(Union, pk=union_id, event=event)
    union.captain_pin = new_captain_pin()
    union.save(update_fields=["captain_pin"])
    messages.success(request, _("%(union)s的队长密码已重设") % {"union": union.name})
    return redirect("referee:union", union.pk)


def _round(event: Event, request) -> Round | None:
    rounds = event.rounds.exclude(state=Round.State.DRAFT).order_by("-number")
    number = request.GET.get("round", "")
    if number.isascii() and number.isdigit():  # "²" is a digit int() refuses
        return rounds.filter(number=int(number)).first()
    return rounds.filter(state=Round.State.PUBLISHED).first() or rounds.first()


@login_required
def queue(request, event_id: int):
    """Every open report of a round: pending, disputed and stale ones, with one-click accept."""
    event = running_event(request, event_id)
    round_ = _round(event, request)
    try:
        stale = max(1, min(600, int(request.GET.get("stale", QUEUE_STALE_MINUTES))))
    except ValueError:
        stale = QUEUE_STALE_MINUTES
    rows = deals.open_reports(round_, stale) if round_ else []
    seat_names: dict[int, dict] = {}
    if round_ is not None:
        for seat in TableSeat.objects.filter(round=round_).select_related("player"):
            seat_names.setdefault(seat.table_id, {})[seat.seat] = seat.player
    pending_at: dict[int, int] = {}
    for row in rows:
        row["seat_names"] = seat_names.get(row["table"].pk, {}) if row["table"] else {}
        if row["table"] and row["report"].state == DealReport.State.PENDING:
            pending_at[row["table"].pk] = pending_at.get(row["table"].pk, 0) + 1
    shown: set[int] = set()
    for row in rows:
        # "Accept the table's N pending" on the first card of a table with more than one.
        table_id = row["table"].pk if row["table"] else None
        if table_id and pending_at.get(table_id, 0) > 1 and table_id not in shown:
            row["table_pending"] = pending_at[table_id]
            shown.add(table_id)
    return render(
        request,
        "manage/results/queue.html",
        {
            "event": event,
            "round": round_,
            "rows": rows,
            "stale": stale,
            "rounds": event.rounds.exclude(state=Round.State.DRAFT).order_by("-number"),
            "pin_locks": lockouts.locked_unions(round_) if round_ else [],
            "counts": {
                "pending": sum(r["report"].state == "pending" for r in rows),
                "disputed": sum(r["report"].state == "disputed" for r in rows),
                "stale": sum(r["stale"] for r in rows),
            },
        },
    )


@login_required
@require_POST
def lift_pin_lock(request, event_id: int, table_id: int, union_id: int):
    """Lift a union's captain-PIN lock at a table: the event's organisers and
    assistants only; logged in the round's log."""
    event = running_event(request, event_id)
    table = _table(event, table_id)
    union = get_object_or_404(Union, pk=union_id, event=event)
    if not table.seats.filter(union=union).exists():
        raise Http404
    if lockouts.lift_pin_lock(table, union, request.user):
        messages.success(
            request,
            _("第%(table)s桌%(union)s的队长密码已解除锁定")
            % {"table": table.number, "union": union.name},
        )
    return redirect(
        reverse("manage:results-queue", args=[event.pk]) + f"?round={table.round.number}"
    )


@login_required
@require_POST
def decide_report(request, event_id: int, report_id: int):
    """Accept (a pending report) or uphold (a disputed one) as reported: final at once."""
    event = running_event(request, event_id)
    report = get_object_or_404(
        DealReport.objects.select_related("deal__match__round__event", "deal__match__table"),
        pk=report_id,
        deal__match__round__event=event,
    )
    try:
        correct.uphold_report(
            report, Actor(user=request.user), (request.POST.get("note") or "")[:2000]
        )
    except ResultError as exc:
        messages.error(request, refusal(exc))
    else:
        deal_name = adapter_for(event).deal_name(report.deal.number)
        assert report.deal.match.table is not None  # a bye has no deals to report
        messages.success(
            request,
            _("第%(table)s桌%(deal)s成绩已生效")
            % {"table": report.deal.match.table.number, "deal": deal_name},
        )
    back = request.POST.get("next") or ""
    if not back.startswith("/manage/"):
        back = reverse("manage:results-queue", args=[event.pk])
    return redirect(back)


@login_required
@require_POST
def accept_table(request, event_id: int, table_id: int):
    """Accept every pending report of a table as reported, in one click (a table whose hands
    waited for nobody to confirm them); one entry in the round's log names the deals."""
    event = running_event(request, event_id)
    table = _table(event, table_id)
    pending = DealReport.objects.filter(
        deal__match__table=table, state=DealReport.State.PENDING
    ).select_related("deal__match__round__event", "deal__match__table")
    accepted, refused = [], []
    for report in list(pending.order_by("deal__number")):
        try:
            correct.uphold_report(report, Actor(user=request.user), "")
        except ResultError as exc:
            refused.append(refusal(exc))
        else:
            accepted.append(report.deal.number)
    if accepted:
        RoundLog.objects.create(
            round_id=table.round_id,
            event_id=event.pk,
            action=RoundLog.Action.ACCEPT_TABLE,
            user=request.user,
            details={"table": table.number, "deals": accepted},
        )
        messages.success(
            request,
            _("第%(table)s桌的 %(n)s 份成绩已生效") % {"table": table.number, "n": len(accepted)},
        )
    for text in refused[:3]:
        messages.error(request, text)
    return redirect(
        reverse("manage:results-queue", args=[event.pk]) + f"?round={table.round.number}"
    )
