"""Erase registrants' contacts once their event is over by the retention its organiser set
(docs/registration.md, "Personal data"). Run it daily (cron or a systemd timer, deploy/README.md);
`--dry-run` names the events without erasing, `--event N` erases one event's now."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from matches.events import privacy
from matches.models import SignupSettings


class Command(BaseCommand):
    help = "Erase the contacts registrants left, for events past their retention."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="only say what would go")
        parser.add_argument("--event", type=int, help="erase this event's contacts now")

    def handle(self, *args, **options):
        if options["event"]:
            found = SignupSettings.objects.filter(event_id=options["event"]).first()
            if found is None:
                raise CommandError(f"event {options['event']} takes no registrations")
            due = [found]
        else:
            due = privacy.due_for_erasure()
        for signup in due:
            if options["dry_run"]:
                self.stdout.write(f"would erase: event {signup.event_id} ({signup.event})")
                continue
            erased = privacy.erase_contacts(signup)
            self.stdout.write(f"erased {erased} contacts: event {signup.event_id} ({signup.event})")
        if not due:
            self.stdout.write("nothing to erase")
