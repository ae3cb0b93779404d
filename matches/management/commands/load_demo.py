"""Load the demo event used by `make demo`. Safe to run again: it changes nothing the second time."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the demo organiser account and the demo event (results through the results service)."

    def handle(self, *args, **options):
        from matches.demo_live import DEMO_NAME, build_live_demo
        from matches.models import Event

        User = get_user_model()
        organiser, created = User.objects.get_or_create(
            username="demo", defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            organiser.set_password("demo")
            organiser.save()
        self.stdout.write("Demo organiser: user 'demo', password 'demo' (local use only).")
        if Event.objects.filter(name=DEMO_NAME, organisers=organiser).exists():
            self.stdout.write("The demo event is already loaded.")
            return
        event = build_live_demo(organiser)
        self.stdout.write(f"Demo event: /events/{event.pk}/ (public), /manage/events/{event.pk}/ (organiser)")
