"""Load the demo event used by `make demo`. Safe to run again: it changes nothing the second time."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create the demo organiser account and the demo event."

    def handle(self, *args, **options):
        User = get_user_model()
        organiser, created = User.objects.get_or_create(
            username="demo", defaults={"is_staff": True, "is_superuser": True}
        )
        if created:
            organiser.set_password("demo")
            organiser.save()
        self.stdout.write("Demo organiser: user 'demo', password 'demo' (local use only).")
