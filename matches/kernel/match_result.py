"""Shared by every game that plays matches of deals: the final reports of a match's deals, its
regular deal rows, and (for two-union games) the match result with a knockout's extra deals."""

from __future__ import annotations

from typing import Any, Mapping

from django.utils import timezone

from matches.models import Deal, DealReport, DealTally, Match, Stage


def final_reports(deals) -> dict:
    """deal id → its final report, for the given deals."""
    return {r.deal_id: r for r in DealReport.objects.final().filter(deal__in=deals)}


def ensure_regular_deals(match: Match) -> None:
    """Deal rows 1..deals_per_match exist, so the next deal can carry its tributes."""
    have = set(match.deals.values_list("number", flat=True))
    missing = [
        Deal(match=match, number=k)
        for k in range(1, match.round.event.deals_per_match + 1)
        if k not in have
    ]
    if missing:
        Deal.objects.bulk_create(missing, ignore_conflicts=True)


def deals_that_count(match: Match, deals: list[Deal]) -> list[Deal]:
    """The regular deals a match's result is made of: all of them, or those played before the
    match was stopped by time (when the event scores stopped matches)."""
    event = match.round.event
    last = event.deals_per_match
    if match.stopped_after is not None and event.score_stopped_matches:
        last = min(last, match.stopped_after)
    return [d for d in deals if not d.is_extra and d.number <= last]


def write_match_result(
    match: Match,
    deals: list[Deal],
    owed_after: Mapping[int, Any] | None = None,
    tallied: Mapping[int, Any] | None = None,
) -> None:
    """A two-union match's totals and match points from its deals' tallies (their side
    scores); a tied knockout match gets its extra deals. `owed_after`: deal id -> what the deal
    after it owes from it (`Deal.tributes_owed`), for a game whose deals follow on: the first
    extra deal owes it from the last deal played. `tallied`: deal id -> its `DealTally` row
    (its side scores), every tally of the match, when the caller has them: not read again."""
    event, stage = match.round.event, match.round.stage
    if tallied is None:
        tallies = {t.deal_id: t for t in DealTally.objects.filter(match=match)}
    else:
        tallies = dict(tallied)
    regular = deals_that_count(match, deals)
    extras = sorted((d for d in deals if d.is_extra), key=lambda d: d.number)
    result = None
    if all(d.pk in tallies for d in regular):
        total_a = sum(tallies[d.pk].score_a or 0 for d in regular)
        total_b = sum(tallies[d.pk].score_b or 0 for d in regular)
        knockout = stage.format == Stage.Format.SINGLE_ELIMINATION
        used = 0
        if knockout and total_a == total_b:
            # Extra deals in blocks of `tie_break_deals` (one at a time when blank) until a
            # block ends with one union ahead; the match total includes them.
            block = event.tie_break_deals or 1
            while total_a == total_b:
                chunk = extras[used : used + block]
                if len(chunk) < block:
                    _create_extra_deals(match, deals, block - len(chunk), owed_after or {})
                    break
                if not all(d.pk in tallies for d in chunk):
                    break
                total_a += sum(tallies[d.pk].score_a or 0 for d in chunk)
                total_b += sum(tallies[d.pk].score_b or 0 for d in chunk)
                used += block
            else:
                result = (total_a, total_b)
        else:
            result = (total_a, total_b)
        if result is not None:
            # A correction may have decided the match earlier: unplayed extra deals go.
            unplayed = [d.pk for d in extras[used:] if d.pk not in tallies]
            Deal.objects.filter(pk__in=unplayed, reports__isnull=True).delete()
    values: dict[str, int | None]
    if result is None:
        values = {"score_a": None, "score_b": None, "points_a": None, "points_b": None}
    else:
        a, b = result
        if a > b:
            points = (event.points_win, event.points_loss)
        elif a < b:
            points = (event.points_loss, event.points_win)
        else:
            points = (event.points_draw, event.points_draw)
        values = {"score_a": a, "score_b": b, "points_a": points[0], "points_b": points[1]}
    store_match_result(match, values, complete=result is not None)


def store_match_result(match: Match, values: dict, *, complete: bool) -> None:
    """Write a match's result fields (`values`, may be empty) and whether it is complete: the
    time it became complete is kept while it stays complete; an incomplete match has none."""
    if not complete:
        values = {**values, "completed_at": None}
    elif match.completed_at is None:
        values = {**values, "completed_at": timezone.now()}
    if any(getattr(match, k) != v for k, v in values.items()):
        Match.objects.filter(pk=match.pk).update(**values)
        for k, v in values.items():
            setattr(match, k, v)


def _create_extra_deals(
    match: Match, deals: list[Deal], count: int, owed_after: Mapping[int, Any]
) -> None:
    last = max((d.number for d in deals), default=0)
    last_deal = max(deals, key=lambda d: d.number) if deals else None
    ledger = owed_after.get(last_deal.pk) if last_deal is not None else None
    for k in range(1, count + 1):
        Deal.objects.get_or_create(
            match=match,
            number=last + k,
            defaults={"is_extra": True, "tributes_owed": ledger if k == 1 else None},
        )
