"""`manage.py verify_results <event id>`: recompute the event's result chain from the stored rows
(matches/store/chain.py), then every derived row (match results, deal tallies, standings) from
the results (in a transaction rolled back). Exit 0 and the head digest when everything holds;
exit 1 naming the first entry whose row was changed behind the application's back, or every
derived row that differs from its recompute."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from matches.models import Event
from matches.standings import verify
from matches.store import chain


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
        differ = verify.recompute_differences(event)
        if differ:
            shown = ", ".join(differ[:20]) + (
                f" and {len(differ) - 20} more" if len(differ) > 20 else ""
            )
            raise CommandError(
                f"CHANGED: the chain holds (digest {verdict.digest}), but {len(differ)} derived "
                f"rows differ from a recompute of the chained results: {shown}",
                returncode=1,
            )
        self.stdout.write(
            f"OK: event {event.pk} ({event.name}): {verdict.entries} entries, "
            f"digest {verdict.digest}"
        )
