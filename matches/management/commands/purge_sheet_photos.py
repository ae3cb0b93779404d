"""Delete the score sheets' photos older than SHEET_PHOTO_RETENTION_DAYS (or --days)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from matches.sheets import service as sheets


class Command(BaseCommand):
    help = "Delete photographed score sheets older than the retention (docs/scoresheets.md)."

    def add_arguments(self, parser):
        parser.add_argument("--days", type=int, default=None)

    def handle(self, *args, **options):
        count = sheets.purge(options["days"])
        self.stdout.write(f"{count} photos deleted")
