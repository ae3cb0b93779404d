"""Write the find-my-table search terms of events afresh: after an upgrade (events
registered before the terms existed) or a bulk load that bypassed the registration service.

    manage.py find_reindex            # every event
    manage.py find_reindex 12 15      # events 12 and 15
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from matches.models import Event
from matches.public import find_terms


class Command(BaseCommand):
    help = "Write the find-my-table search terms of events afresh"

    def add_arguments(self, parser):
        parser.add_argument("event_ids", nargs="*", type=int)

    def handle(self, *args, event_ids, **options):
        events = Event.objects.order_by("pk")
        if event_ids:
            events = events.filter(pk__in=event_ids)
            missing = set(event_ids) - set(events.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"no event with id {sorted(missing)}")
        for event in events:
            rows = find_terms.reindex_event(event)
            self.stdout.write(f"event {event.pk}: {rows} search terms")
