from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from matches.permissions import can_manage_event, events_managed_by


def test_an_organiser_manages_only_their_own_events_and_an_admin_all(built):
    alice, bob = built.people.organiser, built.people.other_organiser
    mine, theirs = built.event, built.people.other_event
    admin = get_user_model().objects.create_superuser("root", password="x")

    assert can_manage_event(alice, mine) and not can_manage_event(alice, theirs)
    assert can_manage_event(admin, theirs)
    assert not can_manage_event(AnonymousUser(), mine)
    assert list(events_managed_by(alice)) == [mine]
    assert list(events_managed_by(bob)) == [theirs]
    assert set(events_managed_by(admin)) == {mine, theirs}
    assert not events_managed_by(AnonymousUser()).exists()
