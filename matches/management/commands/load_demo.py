"""Load the demo event used by `make demo`. Safe to run again: it changes nothing the second time."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Create the demo organiser account and the demo event (results through the results service)."

    def handle(self, *args, **options):
        from matches.demo.builder import load_demo
        from matches.kernel.games.registry import ADAPTERS

        if not settings.DEBUG:
            # A superuser demo/demo on a reachable server is an open door.
            raise CommandError(
                "load_demo creates the superuser demo/demo: it runs with DEBUG=True "
                "only, on a machine of your own (make demo does so)"
            )
        User = get_user_model()
        organiser, created = User.objects.get_or_create(
            username="demo", defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            organiser.set_password("demo")
            organiser.save()
        self.stdout.write("Demo organiser: user 'demo', password 'demo' (local use only).")
        for name in ADAPTERS:  # each game's demo event, once
            event, made = load_demo(name, organiser)
            if event is None:
                continue
            if not made:
                self.stdout.write(f"The {name} demo event is already loaded.")
            else:
                self.stdout.write(
                    f"{name} demo event: /events/{event.pk}/ (public), "
                    f"/manage/events/{event.pk}/ (organiser)"
                )
