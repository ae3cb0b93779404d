"""The rating list, the series and the organisers' season pages are reached from the pages
people start on (the home page, the organiser's event list), not only by typing an address."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from matches.models import Event

pytestmark = pytest.mark.django_db


def test_the_home_page_links_the_rating_list_and_the_series():
    body = Client().get(reverse("home")).content.decode()
    assert f'href="{reverse("seasons:ratings")}"' in body
    assert f'href="{reverse("seasons:series-list")}"' in body


def test_the_organisers_event_list_links_the_series_and_the_player_records():
    user = get_user_model().objects.create_user("linker", password="pw-links-1")
    event = Event.objects.create(name="链接杯", start_date=datetime.date(2026, 5, 1))
    event.organisers.add(user)  # the merge page is for organisers of events
    client = Client()
    client.force_login(user)
    body = client.get(reverse("manage:events")).content.decode()
    assert f'href="{reverse("seasons-manage:series-list")}"' in body
    assert f'href="{reverse("seasons-manage:players")}"' in body
