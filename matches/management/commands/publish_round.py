from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from matches.draw import refusals
from matches.draw import service as draw

from ._seating import describe, round_by_id, user_named


class Command(BaseCommand):
    help = "Publish a draft round (its draw can no longer change)."

    def add_arguments(self, parser):
        parser.add_argument("round_id", type=int)
        parser.add_argument("--user")

    def handle(self, round_id, user=None, **options):
        try:
            round_ = draw.publish_round(round_by_id(round_id), user=user_named(user))
        except refusals.SeatingRefused as error:
            raise CommandError(str(error)) from error
        self.stdout.write(describe(round_))
