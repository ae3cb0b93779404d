"""Answers to a reported deal: a second referee by the table's link, a captain's or a player's PIN
on the table's phone, the table's signed-in referee in a captain's place (or lifting a union's PIN
lock), and a captain's or second referee's own report page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from matches import permissions, ratelimit
from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import ResultError
from matches.models import Confirmation, DealReport
from matches.permissions import Actor
from matches.results import lockouts
from matches.results.confirm import check_captain_pin, check_player_pin, confirm_report
from matches.views.referee.access import (
    PIN_ERROR,
    Access,
    at_table,
    back_to,
    pin_anchor,
    result_message,
    seats_of,
)


def record_answer(
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
            return back_to(request, back)
        request.session[PIN_ERROR] = {"report": report.pk, "side": pin_side, "text": text}
        return back_to(request, back)

    if not agrees and request.POST.get("sure") != "yes":
        return refused(_("请选择异议原因并勾选“确定提出异议”。"))
    if not agrees and reason not in Confirmation.Reason.values:
        return refused(_("请选择异议原因。"))
    try:
        pin_union = None
        if pin_side is not None and pin_side != "player":
            pin_union = check_captain_pin(
                report.deal.match,
                pin_side,
                request.POST.get("pin", ""),
                ratelimit.client_ip(request),
                actor,
            )
        report = confirm_report(
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
    return back_to(request, back)


def _table_report(access: Access, report_id: int, *related: str) -> DealReport:
    """A report of the access's own table (any other table's report is a 404)."""
    return get_object_or_404(
        DealReport.objects.select_related(*related),
        pk=report_id,
        deal__match__table=access.table,
    )


@at_table(["POST"])
def link_answer(request, access: Access, report_id: int):
    """The link holder answers as a second referee."""
    report = _table_report(access, report_id, "deal__match")
    return record_answer(request, access.actor, report, access.url("table"))


@at_table(["POST"])
def captain_pin(request, access: Access, report_id: int):
    """A captain confirms (or disputes) on the table's phone with their PIN."""
    report = _table_report(access, report_id, "deal__match")
    side = request.POST.get("side", "")
    side = side if side in ("A", "B") else ""
    return record_answer(
        request, access.actor, report, access.url("table") + pin_anchor(report, side), side
    )


@at_table(["POST"])
def player_pin(request, access: Access, report_id: int):
    """Another player of the table agrees (or disputes) with their own PIN on the table's phone."""
    report = _table_report(access, report_id, "deal__match__round__event", "deal__match__table")
    back = access.url("table") + f"#player-pin-{report.pk}"
    seat = request.POST.get("seat", "")
    try:
        player = check_player_pin(
            report,
            int(seat) if seat.isascii() and seat.isdigit() and len(seat) < 3 else 0,
            request.POST.get("pin", ""),
            access.actor,
        )
    except ResultError as exc:
        request.session[PIN_ERROR] = {
            "report": report.pk,
            "side": "player",
            "text": result_message(exc),
        }
        return back_to(request, back)
    return record_answer(request, access.actor, report, back, pin_side="player", pin_player=player)


# --- the table's referee in a captain's place -------------------------------------------------


@at_table(["POST"])
def stand_in(request, access: Access, report_id: int):
    """The table's referee (signed in) answers for a union in its captain's place, or lifts
    the union's PIN lock at the table; both logged in the round's log."""
    if not permissions.may_stand_in(access.actor, access.table):
        return render(request, "referee/forbidden.html", status=403)
    report = _table_report(access, report_id, "deal__match")
    side = request.POST.get("side", "")
    match = report.deal.match
    union = match.union_a if side == "A" else match.union_b if side == "B" else None
    if union is None:
        raise Http404
    back = access.url("table") + pin_anchor(report, side)
    if request.POST.get("unlock") == "yes":
        if lockouts.lift_pin_lock(access.table, union, access.actor.user):
            messages.success(request, _("%(union)s的队长密码已解除锁定") % {"union": union.name})
        return back_to(request, back)
    return record_answer(request, access.actor, report, back, stand_in=union)


@at_table(["POST"])
def unlock_pin(request, access: Access, union_id: int):
    """The table's referee lifts a union's PIN lock from their list (logged)."""
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


# --- a captain's or second referee's own page ---------------------------------------------------


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
        return record_answer(request, actor, report, reverse("referee:report", args=[report.pk]))
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
