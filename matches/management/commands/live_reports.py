"""Submit the reports of feature tables' completed deals whose delay has passed.

Normally a task queued with a countdown does it (matches/receivers.py); run this from cron
where tasks run in-process or the broker lost them (docs/live-tables.md)."""

from django.core.management.base import BaseCommand

from matches.results import live


class Command(BaseCommand):
    help = "Submit the reports of feature tables' deals whose delay has passed"

    def handle(self, *args, **options):
        count = live.submit_due_reports()
        self.stdout.write(f"{count} report(s) submitted")
