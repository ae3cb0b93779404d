"""The first organiser account of a real event: `python manage.py create_organiser NAME`.

Any signed-in account may create events (and becomes their organiser), but the site has no
open sign-up: the first account is made here, on the server, with DEBUG on or off. Staff
join later through the organiser's invitations (/manage/join/). The password is asked twice,
or read from ORGANISER_PASSWORD when there is no terminal (a deployment script)."""

from __future__ import annotations

import getpass
import os
import sys

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

PASSWORD_VARIABLE = "ORGANISER_PASSWORD"


class Command(BaseCommand):
    help = (
        "Create an organiser account (who signs in and creates events at /manage/new/). "
        f"The password is asked, or read from {PASSWORD_VARIABLE}."
    )

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--email", default="")
        parser.add_argument(
            "--admin",
            action="store_true",
            help="also a site administrator: sees every event and the Django admin",
        )

    def handle(self, *args, username: str, email: str, admin: bool, **options):
        User = get_user_model()
        username = username.strip()
        if not username:
            raise CommandError("give a user name")
        if User.objects.filter(username=username).exists():
            raise CommandError(f"the account {username!r} exists already: sign in with it")
        password = self._password()
        user = User(username=username, email=email, is_staff=admin, is_superuser=admin)
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise CommandError("; ".join(error.messages))
        user.set_password(password)
        user.save()
        self.stdout.write(
            self.style.SUCCESS(
                f"Organiser {username!r} created. Sign in at /accounts/login/, then create "
                "your event at /manage/new/ and invite its staff from the event's staff page."
            )
        )

    def _password(self) -> str:
        from_environment = os.environ.get(PASSWORD_VARIABLE)
        if from_environment:
            return from_environment
        if not sys.stdin.isatty():
            raise CommandError(f"no terminal to ask the password on: set {PASSWORD_VARIABLE}")
        first = getpass.getpass("Password: ")
        if first != getpass.getpass("Password (again): "):
            raise CommandError("the two passwords differ")
        return first
