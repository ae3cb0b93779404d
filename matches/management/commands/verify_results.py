"""`manage.py verify_results <event id>`: recompute the event's result chain from the stored rows
(matches/store/chain.py), then every derived row (match results, deal tallies, standings) from
the results (in a transaction rolled back). Exit 0 and the head digest when everything holds;
exit 1 naming the first entry whose row was changed behind the application's back, or every
derived row that differs from its recompute; exit 3 (`PENDING`) when the only rows that differ
are ones a computation still under way will write (matches/standings/verify.py)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from matches.models import Event
from matches.standings import verify
from matches.store import chain

#: The exit status when rows differ only because their computations are still under way.
PENDING = 3


class Command(BaseCommand):
    help = "Check an event's tamper-evident result chain against the stored results."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)

    def handle(self, event_id, **options):
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"no event {event_id}", returncode=2)
        verdict = chain.verify(event)
        if not verdict.ok:
            where = (
                f"entry {verdict.entry.seq} ({verdict.entry.kind} #{verdict.entry.object_id}, "
                f"written {verdict.entry.at:%Y-%m-%d %H:%M:%S})"
                if verdict.entry is not None
                else "after the last entry"
            )
            raise CommandError(
                f"CHANGED: {where}: {verdict.problem}. The chain holds up to the entry before "
                f"(digest {verdict.digest}).",
                returncode=1,
            )
        found = verify.differences(event)
        if found.rows:
            raise CommandError(
                f"CHANGED: the chain holds (digest {verdict.digest}), but {len(found.rows)} "
                f"derived rows differ from a recompute of the chained results: "
                f"{_listed(found.rows)}"
                + (f"; pending besides: {_listed(found.pending)}" if found.pending else ""),
                returncode=1,
            )
        if found.pending:
            # Not OK: a computation under way excuses a row, but the check cannot vouch for it.
            raise CommandError(
                f"PENDING: the chain holds (digest {verdict.digest}) and every other derived "
                f"row equals its recompute, but {len(found.pending)} rows wait for computations "
                f"still under way: {_listed(found.pending)}. Run the check again once they "
                "have finished.",
                returncode=PENDING,
            )
        self.stdout.write(
            f"OK: event {event.pk} ({event.name}): {verdict.entries} entries, "
            f"digest {verdict.digest}"
        )


def _listed(names: list[str]) -> str:
    return ", ".join(names[:20]) + (f" and {len(names) - 20} more" if len(names) > 20 else "")
