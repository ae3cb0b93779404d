from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from matches.draw import explanations, refusals
from matches.draw import service as draw
from matches.models import Event

from ._seating import describe, user_named


class Command(BaseCommand):
    help = "Draw the next round of an event as a draft (earlier rounds must be closed)."

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int)
        parser.add_argument("--stage", type=int, help="stage order (default: the last stage)")
        parser.add_argument("--seed", type=int, help="random seed (default: a fresh one)")
        parser.add_argument("--silent", action="store_true", help="results not shown to the public")
        parser.add_argument("--user", help="username recorded in the audit log")

    def handle(self, event_id, stage=None, seed=None, silent=False, user=None, **options):
        try:
            event = Event.objects.get(pk=event_id)
        except Event.DoesNotExist as error:
            raise CommandError(f"no event with id {event_id}") from error
        stages = event.stages.order_by("order")
        chosen = stages.filter(order=stage).first() if stage else stages.last()
        if chosen is None:
            raise CommandError("the event has no such stage")
        try:
            round_ = draw.create_round(chosen, seed=seed, silent=silent, user=user_named(user))
        except refusals.SeatingRefused as error:
            raise CommandError(str(error)) from error
        self.stdout.write(describe(round_))
        for line in explanations.explain_round(round_):
            if line["reasons"]:
                self.stdout.write(f"  table {line['table']}: {'; '.join(line['reasons'])}")
