"""Writing a match's deal tallies (`DealTally` rows), the same for every game: the game says
what one final report tallies to (its adapter's `tally_deal`, a `Tally`); this writes the places
and side scores into their columns and the game's typed document into `detail`."""

from __future__ import annotations

from typing import Any, Callable

from matches.kernel.engine_types import Tally, places_to_json
from matches.kernel.match_result import final_reports
from matches.models import Deal, DealReport, DealTally, Match

#: (final report, tally of the deal just before it or None) -> the deal's tally or None
TallyDeal = Callable[[DealReport, "Tally[Any] | None"], "Tally[Any] | None"]


def tally_values(report: DealReport, tally: Tally[Any]) -> dict[str, Any]:
    """A `DealTally` row's fields (but its deal and match) for `report`'s tally."""
    return {
        "report_id": report.pk,
        "places": places_to_json(tally.places),
        "score_a": tally.score_a,
        "score_b": tally.score_b,
        "detail": tally.detail.to_json(),
    }


def write_tallies(match: Match, deals: list[Deal], tally_deal: TallyDeal) -> dict[int, Tally[Any]]:
    """Tally every deal of `match` with a final result, deal 1 first, and write the rows: a new
    tally is created, a changed one saved, an unchanged one left alone (its `computed_at` and
    the public version stamp stay), the tally of a deal without a (readable) final result
    deleted. Each deal is given the tally of the deal numbered just before it (None when that
    one has none). Returns deal id -> tally."""
    reports = final_reports(deals)
    rows = {t.deal_id: t for t in DealTally.objects.filter(match=match)}
    tallies: dict[int, Tally[Any]] = {}
    before: Tally[Any] | None = None
    before_number: int | None = None
    for deal in sorted(deals, key=lambda d: d.number):
        report = reports.get(deal.pk)
        tally = None
        if report is not None:
            tally = tally_deal(report, before if before_number == deal.number - 1 else None)
        row = rows.get(deal.pk)
        if report is None or tally is None:
            if row is not None:
                row.delete()
            before, before_number = None, None
            continue
        values = tally_values(report, tally)
        if row is None:
            DealTally.objects.create(deal=deal, match=match, **values)
        elif any(getattr(row, k) != v for k, v in values.items()):
            for k, v in values.items():
                setattr(row, k, v)
            row.save()
        tallies[deal.pk] = tally
        before, before_number = tally, deal.number
    return tallies
