"""The organiser's events list and an event's dashboard, the round actions it posts (draw,
redraw, publish, close), printing and exports. Every view gets its event through one of the two
gates of `access.py`: `running_event` (organisers and assistants; 403 otherwise, 404 for an
event that does not exist) or, for release decisions, `organised_event` (organisers only).
Round actions go through the draw service; results are computed by the Celery tasks and only
shown here."""

from __future__ import annotations

from collections import Counter

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches import selectors, signals
from matches.draw import entrants as draw_entrants
from matches.draw import explanations, printing, refusals, sheet_printing
from matches.draw import service as draw
from matches.draw.stages import needs_break, next_stage
from matches.events import checkin as checkin_service
from matches.events import exports, fees
from matches.models import (
    ComputationRun,
    DealReport,
    EntryRequest,
    Event,
    Registration,
    Round,
    SignupSettings,
    Stage,
)
from matches.models.fees import held_out_q
from matches.permissions import can_manage_event, events_run_by
from matches.views.addresses import public_url, staff_url
from matches.views.organiser.access import organised_event, posted_pk, running_event

POLL_SECONDS = 5


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(Round, event=event, number=number)


# --- what the dashboard shows -------------------------------------------------------------------


def table_progress(round_: Round) -> list[dict]:
    """Each table of a round with its state (`selectors.table_states`) and report counts."""
    matches = list(
        round_.matches.played()
        .with_sides()
        .select_related("round__event", "table")
        .order_by("table__number")
    )
    states = selectors.table_states(matches)
    return [{"match": match, **states[match.pk]} for match in matches]


def computation_status(event: Event) -> dict:
    runs = list(ComputationRun.objects.filter(event=event))
    done = [r.succeeded_at for r in runs if r.succeeded_at]
    return {
        "last": max(done) if done else None,
        "pending": sum(1 for r in runs if r.state in ComputationRun.PENDING),
        "failed": [r for r in runs if r.state == ComputationRun.State.FAILED],
        "retrying": [r for r in runs if r.state == ComputationRun.State.RETRYING],
    }


def _progress_context(event: Event) -> dict:
    current = event.rounds.order_by("-number").first()
    tables = table_progress(current) if current else []
    counts = Counter(t["state"] for t in tables)
    disputes = (
        DealReport.objects.filter(deal__match__round__event=event, state=DealReport.State.DISPUTED)
        .select_related("deal__match__table", "deal__match__round")
        .order_by("created_at")
    )
    return {
        "event": event,
        "current": current,
        "tables": tables,
        "counts": counts,
        "states": selectors.TABLE_STATES,
        "disputes": disputes,
        "computing": computation_status(event),
        "poll": POLL_SECONDS,
    }


# --- pages --------------------------------------------------------------------------------------


@login_required
def event_list(request):
    """The user's events; archived ones on their own list (?archived=1), to restore."""
    events = events_run_by(request.user)
    archived = request.GET.get("archived") == "1"
    return render(
        request,
        "manage/events.html",
        {
            "events": events.filter(archived_at__isnull=not archived),
            "archived": archived,
            "archived_count": 0 if archived else events.filter(archived_at__isnull=False).count(),
        },
    )


def _signup_context(event) -> dict:
    """Requests waiting for review, and who the draw leaves out for an unpaid fee."""
    context: dict = {
        "signup_pending": EntryRequest.objects.filter(
            event=event, status=EntryRequest.Status.PENDING
        ).count()
    }
    signup = SignupSettings.objects.filter(event=event).first()
    if signup is not None and signup.hold_unpaid:
        fees.ensure_accounts(event)
        held = event.registrations.exclude(status=Registration.Status.WITHDRAWN).filter(
            held_out_q(event)
        )
        context["held_out_count"] = held.count()
        context["held_out"] = list(
            held.select_related("union", "player").order_by("seed", "id")[:30]
        )
    return context


@login_required
def dashboard(request, event_id: int):
    event = running_event(request, event_id)
    context = _progress_context(event)
    stages = list(event.stages.order_by("order"))
    draft = event.rounds.filter(state=Round.State.DRAFT).order_by("number").first()
    upcoming = next_stage(event)
    context.update(
        {
            "stages": stages,
            "next_stage": upcoming,
            "needs_break": upcoming is not None and needs_break(upcoming),
            "draft": draft,
            "missing_from_draft": draw_entrants.missing_from_draft(draft) if draft else [],
            "last_closed": event.rounds.filter(state=Round.State.CLOSED)
            .order_by("-number")
            .first(),
            "can_manage": can_manage_event(request.user, event),
            "rounds": list(event.rounds.select_related("stage").order_by("number")),
            "registrations": event.registrations.count(),
            "checked_in": event.registrations.filter(status=Registration.Status.CHECKED_IN).count(),
            "can_draw": not event.rounds.exclude(state=Round.State.CLOSED).exists(),
            "explain": explanations.explain_round(context["current"])
            if context["current"] and context["current"].is_draft
            else [],
            "checkin": checkin_service.summary(event),
            # Publishing, release and round settings are the organiser's: no button for others.
            "is_organiser": can_manage_event(request.user, event),
            **_signup_context(event),
        }
    )
    return render(request, "manage/dashboard.html", context)


@login_required
def progress(request, event_id: int):
    event = running_event(request, event_id)
    return render(request, "manage/_progress.html", _progress_context(event))


def _back(event: Event, request=None):
    """To the dashboard, or to the page the form came from (`next`, a path on this site)."""
    target = request.POST.get("next", "") if request is not None else ""
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}
    ):
        return redirect(target)
    return redirect("manage:dashboard", event.pk)


def _refused(request, event, error) -> HttpResponse:
    messages.error(request, str(error))
    return _back(event, request)


@login_required
@require_POST
def draw_round(request, event_id: int):
    event = running_event(request, event_id)
    # The default is the first unfinished stage, never the last one: a draw posted without a
    # stage must not skip ahead to the knockout.
    stage = (
        get_object_or_404(Stage, pk=posted_pk(request, "stage"), event=event)
        if request.POST.get("stage")
        else next_stage(event)
    )
    if stage is None:
        if not event.stages.exists():
            return _refused(request, event, _("赛事还没有阶段"))
        return _refused(request, event, _("所有阶段的轮次都已编排完"))
    try:
        round_ = draw.create_round(
            stage, user=request.user, silent=request.POST.get("silent") == "on"
        )
    except refusals.SeatingRefused as error:
        return _refused(request, event, error)
    messages.success(request, _("第 %(n)s 轮已编排（草稿）") % {"n": round_.number})
    return _back(event)


@login_required
@require_POST
def round_redraw(request, event_id: int, number: int):
    """A draft drawn again; entries that arrived while it was a draft join it (named)."""
    event = running_event(request, event_id)
    round_ = _round(event, number)
    arriving = draw_entrants.missing_from_draft(round_)
    try:
        draw.redraw_round(round_, user=request.user)
    except refusals.SeatingRefused as error:
        return _refused(request, event, error)
    messages.success(request, _("第 %(n)s 轮") % {"n": number} + " " + _("已重新编排"))
    if arriving:
        names = _("、").join(str(r.entrant) for r in arriving)
        messages.success(request, _("已排入本轮：%(names)s") % {"names": names})
    return _back(event, request)


@login_required
@require_POST
def round_publish(request, event_id: int, number: int):
    event = running_event(request, event_id)
    try:
        draw.publish_round(_round(event, number), user=request.user)
    except refusals.SeatingRefused as error:
        return _refused(request, event, error)
    messages.success(request, _("第 %(n)s 轮") % {"n": number} + " " + _("已公布"))
    return _back(event, request)


@login_required
@require_POST
def round_end(request, event_id: int, number: int):
    """Close the round; refused, the closing page names the tables still without a result,
    with what to do."""
    event = running_event(request, event_id)
    try:
        draw.close_round(_round(event, number), user=request.user)
    except refusals.SeatingRefused as error:
        messages.error(request, str(error))
        return redirect("manage:round-close", event.pk, number)
    messages.success(request, _("第 %(n)s 轮") % {"n": number} + " " + _("已结束"))
    return _back(event, request)


@login_required
@require_POST
def toggle_published(request, event_id: int):
    # What the public reads is a release decision: the organiser's, not an assistant's.
    event = organised_event(request, event_id)
    event.published = not event.published
    event.save(update_fields=["published"])
    messages.success(request, _("赛事已对外公开") if event.published else _("赛事已停止对外公开"))
    return _back(event)


@login_required
@require_POST
def recompute(request, event_id: int):
    event = running_event(request, event_id)
    signals.request_recompute(event.pk)  # the computation side queues it (matches/receivers.py)
    messages.success(request, _("已安排全部重算"))
    return _back(event)


# --- printing and exports -----------------------------------------------------------------------


def _pdf(data: bytes, name: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}"'
    return response


@login_required
def table_cards(request, event_id: int, number: int):
    event = running_event(request, event_id)
    round_ = _round(event, number)
    links = printing.referee_links(round_, user=request.user)
    urls = {table_id: staff_url(request, f"/ref/{token}/") for table_id, token in links.items()}
    return _pdf(printing.table_cards_pdf(round_, urls), f"round-{number}-tables.pdf")


@login_required
def score_sheets(request, event_id: int, number: int):
    """The readable score sheets: one per table, photographed and read back (docs/scoresheets.md)."""
    event = running_event(request, event_id)
    round_ = _round(event, number)
    return _pdf(sheet_printing.score_sheets_pdf(round_), f"round-{number}-sheets.pdf")


@login_required
def pairings_pdf(request, event_id: int, number: int):
    event = running_event(request, event_id)
    order = "name" if request.GET.get("order") == "name" else "table"
    return _pdf(
        printing.pairings_pdf(_round(event, number), order=order),
        f"round-{number}-pairings{'-by-name' if order == 'name' else ''}.pdf",
    )


@login_required
def poster(request, event_id: int):
    """A poster with the QR code of the event's public pages and of find-my-table."""
    event = running_event(request, event_id)
    event_url = public_url(request, reverse("public:event", args=[event.pk]))
    find_url = public_url(request, f"/events/{event.pk}/find/")
    return _pdf(printing.poster_pdf(event, event_url, find_url), f"event-{event.pk}-poster.pdf")


@login_required
def export(request, event_id: int, what: str, fmt: str):
    event = running_event(request, event_id)
    if what not in ("standings", "results") or fmt not in ("csv", "xlsx"):
        raise PermissionDenied("unknown export")
    kind = "players" if request.GET.get("kind") == "players" else "unions"
    if what == "standings":
        header, rows = exports.standings_table(event, kind)
        what = f"standings-{kind}" if event.is_team else "standings-players"
    else:
        header, rows = exports.results_table(event)
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
    if fmt == "csv":
        response = HttpResponse(
            exports.to_csv(header, rows), content_type="text/csv; charset=utf-8"
        )
    else:
        response = HttpResponse(
            exports.to_xlsx(header, rows, title=what),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
    response["Content-Disposition"] = (
        f'attachment; filename="event-{event.pk}-{what}-{stamp}.{fmt}"'
    )
    return response
