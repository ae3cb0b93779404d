from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser

from matches.models import Event
from matches.permissions import can_manage_event, events_managed_by


@pytest.mark.django_db
def test_an_organiser_manages_only_their_own_events_and_an_admin_all():
    users = get_user_model().objects
    alice, bob = users.create_user("alice"), users.create_user("bob")
    admin = users.create_superuser("root", password="x")
    mine = Event.objects.create(name="A", start_date=datetime.date(2026, 5, 1))
    theirs = Event.objects.create(name="B", start_date=datetime.date(2026, 5, 1))
    mine.organisers.add(alice)
    theirs.organisers.add(bob)

    assert can_manage_event(alice, mine) and not can_manage_event(alice, theirs)
    assert can_manage_event(admin, theirs)
    assert not can_manage_event(AnonymousUser(), mine)
    assert list(events_managed_by(alice)) == [mine]
    assert set(events_managed_by(admin)) == {mine, theirs}
    assert not events_managed_by(AnonymousUser()).exists()
