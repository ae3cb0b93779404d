"""The deals of a match: found or created on first use, which may be played (a tied knockout
match's extra deals), and what the pages read of them (each deal with its final and open
reports, the organiser's queue of open reports)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone

from matches.kernel.reports import ResultError
from matches.models import Deal, DealReport, Event, Match, Round, Stage


def deal_for(match: Match, number: int) -> Deal:
    """The deal `number` of a match, created on first use.

    Deals 1..deals_per_match are always allowed; extra deals only break a tied knockout match
    (up to the event's tie_break_deals when set).
    """
    if number < 1:
        raise ResultError(
            "no_such_deal", f"deal {number} does not exist", status=404, params={"n": number}
        )
    existing = Deal.objects.filter(match=match, number=number).first()
    if existing is not None:
        return existing
    created = create_deals(match, number)
    if created is not None:
        return created
    existing = Deal.objects.filter(match=match, number=number).first()
    if existing is None:
        raise table_gone()
    return existing


def table_gone() -> ResultError:
    return ResultError(
        "table_gone",
        "this table no longer exists: the round was re-drawn; reload the round's tables",
        status=409,
    )


def create_deals(match: Match, number: int) -> Deal | None:
    """Create deal `number` of the match (it has no row yet). A regular deal comes with the
    rows of all the match's regular deals, as the match's first settlement would write them
    (`ensure_regular_deals`), so the later deals' reports find their row at once; then None is
    returned. An extra deal is created alone and returned."""
    event = match.round.event
    if number > event.deals_per_match:
        if not _extra_deal_allowed(match, number):
            raise ResultError(
                "no_such_deal",
                f"a match has {event.deals_per_match} deals; deal {number} is not played",
                status=404,
                params={"n": number},
            )
        is_extra = True
    else:
        is_extra = False
    try:
        with transaction.atomic():
            # The match may have been deleted since the caller found it: lock it (waiting for a
            # delete in progress) so no deal is created under a deleted match.
            state = (
                Match.objects.select_for_update(no_key=True, of=("self",))
                .filter(pk=match.pk)
                .order_by()
                .values_list("round__state", flat=True)
                .first()
            )
            if state is None:
                raise table_gone()
            if state == Round.State.DRAFT:
                # No deal rows in a draft round: a re-draw deletes its matches, and a deal
                # created meanwhile would block that. (Reporting refuses draft rounds anyway.)
                raise ResultError(
                    "round_not_published", "this round is not published yet", status=409
                )
            if is_extra:
                return Deal.objects.create(match=match, number=number, is_extra=True)
            Deal.objects.bulk_create(
                [Deal(match=match, number=k) for k in range(1, event.deals_per_match + 1)],
                ignore_conflicts=True,
            )
            return None
    except IntegrityError:
        return None  # another request created this deal at the same moment


def deal_allowed(match: Match, number: int) -> bool:
    """Whether deal `number` is (or may be) played, without creating it."""
    if number < 1:
        return False
    if number <= match.round.event.deals_per_match:
        return True
    return Deal.objects.filter(match=match, number=number).exists() or _extra_deal_allowed(
        match, number
    )


def is_last_deal(deal: Deal, event: Event) -> bool:
    """No deal of its match follows `deal` (of `event`, which the caller has at hand): what it
    owes is owed to nobody, since a ledger carries only within a match (R35–R42). A knockout's
    level match goes on into extra deals."""
    return deal.number >= event.deals_per_match and not deal_allowed(deal.match, deal.number + 1)


def _extra_deal_allowed(match: Match, number: int) -> bool:
    event = match.round.event
    if match.round.stage.format != Stage.Format.SINGLE_ELIMINATION:
        return False
    if event.tie_break_deals is not None and number > event.deals_per_match + event.tie_break_deals:
        return False
    played = list(Deal.objects.filter(match=match, number__lt=number).with_final_result())
    if len(played) != number - 1:
        return False
    total = sum(deal.final_report.score_a or 0 for deal in played)
    return total == 0


def current_deal_number(match: Match) -> int:
    """The first deal of the match without a final result (the one the referee reports next)."""
    finals = set(
        DealReport.objects.final().filter(deal__match=match).values_list("deal__number", flat=True)
    )
    number = 1
    while number in finals:
        number += 1
    return number


def match_deals(match: Match) -> list[dict]:
    """Each deal of the match (played or to play) with its final and open reports."""
    deals = {deal.number: deal for deal in Deal.objects.filter(match=match)}
    reports = DealReport.objects.filter(deal__match=match).select_related("deal")
    by_number: dict[int, list[DealReport]] = {}
    for report in reports:
        by_number.setdefault(report.deal.number, []).append(report)
    count = max([match.round.event.deals_per_match, *deals.keys()] or [0])
    rows = []
    for number in range(1, count + 1):
        history = by_number.get(number, [])
        final = next((r for r in history if r.state == DealReport.State.FINAL), None)
        open_ = next(
            (
                r
                for r in history
                if r.state in (DealReport.State.PENDING, DealReport.State.DISPUTED)
            ),
            None,
        )
        rows.append(
            {
                "number": number,
                "deal": deals.get(number),
                "final": final,
                "open": open_,
                "history": history,
            }
        )
    return rows


def open_reports(round_: Round, stale_minutes: int = 10) -> list[dict]:
    """The organiser's queue for a round: every pending and disputed report, oldest first, each
    marked stale when it has waited more than `stale_minutes`, with its answers so far."""
    reports = (
        DealReport.objects.open()
        .filter(deal__match__round=round_)
        .select_related("deal__match__table", "submitted_by")
        .prefetch_related("deal__match__sides__union")
        .prefetch_related("confirmations__user", "confirmations__union")
        .order_by("created_at", "id")
    )
    now = timezone.now()
    rows = []
    for report in reports:
        age = (now - report.created_at).total_seconds() / 60
        answers = list(report.confirmations.all())
        rows.append(
            {
                "report": report,
                "table": report.deal.match.table,
                "match": report.deal.match,
                "minutes": int(age),
                "stale": report.state == DealReport.State.PENDING and age > stale_minutes,
                "agreed": [c.union for c in answers if c.agrees and c.union is not None],
                "dispute": next((c for c in answers if not c.agrees), None),
            }
        )
    return rows
