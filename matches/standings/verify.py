"""The check of every derived row against the results (`manage.py verify_results`, the
organiser's chain page): each row the computations write is recomputed inside a transaction that
is rolled back, and any stored row that differs is named. The chain itself (`store/chain.py`)
proves the results were not changed; this proves nothing was derived from anything else."""

from __future__ import annotations

from django.db import transaction

from matches.models import Deal, DealTally, Event, Match, StandingsSnapshot
from matches.standings import service as standings
from matches.store.chain import canonical, plain


def derived_rows(event_id: int) -> dict[str, dict[str, str]]:
    """Every row the computations write from the results, by a name that says which row:
    match results, deal tallies, what each deal owes the next, standings tables."""
    skip = {"id", "computed_at", "created_at", "updated_at", "completed_at"}

    def rows(queryset, name):
        return {
            name(row): canonical({k: plain(v) for k, v in row.items() if k not in skip})
            for row in queryset.values()
        }

    return {
        "match": rows(
            Match.objects.filter(round__event_id=event_id), lambda r: f"match #{r['id']}"
        ),
        "tally": rows(
            DealTally.objects.filter(match__round__event_id=event_id),
            lambda r: f"tally of deal #{r['deal_id']}",
        ),
        # What a deal owes the next (its tributes), once computed.
        "deal": rows(
            Deal.objects.filter(match__round__event_id=event_id, tributes_owed__isnull=False),
            lambda r: f"deal #{r['id']}",
        ),
        "standings": rows(
            StandingsSnapshot.objects.filter(event_id=event_id),
            lambda r: f"standings of round #{r['round_id']} ({r['kind']}, {r['scope']})",
        ),
    }


class _Rollback(Exception):
    pass


def recompute_differences(event: Event) -> list[str]:
    """Every derived row recomputed from the results (inside a transaction rolled back: the
    check changes nothing) and the rows that differ from the stored ones, named."""
    before = derived_rows(event.pk)
    after: dict = {}
    try:
        with transaction.atomic():
            standings.recompute_event(event.pk)
            after = derived_rows(event.pk)
            raise _Rollback
    except _Rollback:
        pass
    # A row stored that a recompute writes otherwise (or not at all) is named. Rows whose
    # computation is still queued are not: a row not written yet, and the rows of a match whose
    # tallies are behind its final results (and the standings from its round on).
    stale = standings.stale_matches(event)
    queued: set[str] = set()
    if stale:
        rows_of = Match.objects.filter(pk__in=stale)
        first = min(rows_of.values_list("round__number", flat=True))
        queued |= {f"match #{pk}" for pk in stale}
        for deal_id in Deal.objects.filter(match__in=stale).values_list("pk", flat=True):
            queued |= {f"deal #{deal_id}", f"tally of deal #{deal_id}"}
        queued |= {
            name
            for name in before["standings"]
            if int(name.split("#")[1].split(" ")[0])
            in set(event.rounds.filter(number__gte=first).values_list("pk", flat=True))
        }
    return [
        name
        for kind, rows in before.items()
        for name in sorted(rows)
        if rows[name] != after[kind].get(name) and name not in queued
    ]
