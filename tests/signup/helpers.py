"""Events that take registrations, and requests made as the public page makes them."""

from __future__ import annotations

import itertools

from matches.events import signup
from matches.models import SignupSettings
from tests.builder import EventBuilder
from tests.personas import make_user

_keys = itertools.count(1)


def open_event(game: str = "gouji", organiser=None, **settings) -> EventBuilder:
    """An event with no entries yet, its registration open (review on, no fee unless given)."""
    b = EventBuilder(game, players=8) if game == "giog" else EventBuilder(game)
    user = organiser or make_user("organiser")
    b.event.organisers.add(user)
    b.organiser_user = user  # type: ignore[attr-defined]
    SignupSettings.objects.update_or_create(
        event=b.event, defaults={"is_open": True, "review": True, **settings}
    )
    return b


def union(k: int, club: str = "", contact: str = "") -> dict:
    return {
        "union_name": f"申请联邦{k}",
        "club_name": club,
        "players": [{"name": f"报名{k}-{n}", "member_number": ""} for n in (1, 2, 3)],
        "captain": 1,
        "contact": contact or f"1380000{k:04d}",
    }


def submit(event, k: int, **extra):
    """Request number `k` (its own form key), as the page sends it."""
    fields = {**union(k), **extra}
    return signup.submit(event, form_key=f"form-{k}-{next(_keys)}", **fields)[0]
