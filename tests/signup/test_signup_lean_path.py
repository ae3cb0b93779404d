"""The registration rush's short path (bench/registration.py, issue 48): an entry accepted at
once writes its players, union, members, search terms and fee row in a few statements, and the
empty form's fields are drawn once. What it writes is what the long path writes; what is drawn
once follows the settings and the known clubs."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.events import signup
from matches.models import EntryFee, EntryRequest, SearchTerm, SignupSettings
from matches.public import find, find_terms
from players.models import Club
from tests.builder import EventBuilder
from tests.signup.helpers import open_event, submit
from tests.signup.test_signup_pages import send

pytestmark = pytest.mark.django_db


def _terms(event) -> set[tuple]:
    return set(
        SearchTerm.objects.filter(event=event).values_list("term", "weight", "union", "player")
    )


def test_an_entry_made_at_once_has_the_terms_the_long_path_writes_and_is_found():
    b = open_event(review=False, fee_fen=6000)
    club = Club.objects.create(name="黄岛俱乐部")
    request = submit(b.event, 1, club_name=club.name)
    entry = request.registration
    assert request.status == EntryRequest.Status.ACCEPTED and entry is not None
    assert entry.private_token == request.token
    assert EntryFee.objects.get(registration=entry).owed_fen == 6000
    written = _terms(b.event)
    assert written
    find_terms.index_union(entry.union)  # the long path, from scratch
    assert _terms(b.event) == written
    _round, hits = find.search(b.event, find.parse_query("sqlb1"))  # 申请联邦1's initials
    assert [h.name for h in hits if h.kind == "union"] == ["申请联邦1"]
    _round, hits = find.search(b.event, find.parse_query("报名1-2"))
    assert [h.name for h in hits if h.kind == "player"] == ["报名1-2"]


def test_a_registration_accepted_at_once_takes_a_bounded_number_of_queries():
    """The rush's budget (bench/RESULTS-registration.md): about 50 queries before."""
    b = open_event(review=False)
    submit(b.event, 1)
    with CaptureQueriesContext(connection) as queries:
        submit(b.event, 2)
    assert len(queries) <= 24, [q["sql"][:80] for q in queries]


def test_the_places_count_typed_in_entries_and_the_waiting_list():
    b = EventBuilder(unions=1).register(check_in=False)  # one entry the organiser typed in
    SignupSettings.objects.create(
        event=b.event, is_open=True, review=False, capacity=2, waitlist_limit=5
    )
    assert signup.places(b.event) == (1, 0)
    submit(b.event, 1)
    waiting = submit(b.event, 2)
    assert waiting.status == EntryRequest.Status.WAITLISTED
    assert signup.places(b.event) == signup.places(b.event, making=None) == (2, 1)
    typed_in = b.event.registrations.get(entry_request__isnull=True)
    assert signup.places(b.event, making=typed_in.pk) == (1, 1)
    typed_in.status = typed_in.Status.WITHDRAWN
    typed_in.save()
    assert signup.places(b.event) == (1, 1)


def _datalist(client: Client, event) -> str:
    page = client.get(reverse("public:signup", args=[event.pk])).content.decode()
    found = re.search(r'<datalist id="club-choices">(.*?)</datalist>', page, re.S)
    return found.group(1) if found else ""


def test_the_drawn_form_follows_a_new_club_and_the_fields_asked():
    b = open_event()
    client = Client()
    assert "李沧俱乐部" not in _datalist(client, b.event)
    Club.objects.create(name="李沧俱乐部")
    assert '<option value="李沧俱乐部">' in _datalist(client, b.event)
    url = reverse("public:signup", args=[b.event.pk])
    assert 'name="member1"' not in client.get(url).content.decode()
    SignupSettings.objects.filter(event=b.event).update(
        ask_member_number=SignupSettings.Ask.REQUIRED, ask_club=SignupSettings.Ask.HIDDEN
    )
    page = client.get(url).content.decode()
    assert 'name="member1"' in page and 'name="club"' not in page


def test_a_club_registered_from_the_page_is_offered_to_the_next_registrant():
    b = open_event(review=False)  # accepted at once: its club is made with its entry
    client = Client()
    _datalist(client, b.event)  # drawn and kept
    answer = send(client, b.event, 1, club="崂山新俱乐部", new_club="on")
    assert answer.status_code == 302
    assert '<option value="崂山新俱乐部">' in _datalist(Client(), b.event)
