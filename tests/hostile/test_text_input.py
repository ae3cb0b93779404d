"""Text input (issue 38, findings 6 and 8): NUL and control characters never reach the database
(they gave 500s on PostgreSQL), and ids past a column's range answer 404 (they gave 500s on
SQLite). Run on both databases: CI's second pass runs this file on PostgreSQL.

Held by `gouji_tournament/middleware.py` (`CleanTextMiddleware`): a path with a control
character is a 404, query parameters and form fields lose their control characters (tab and
line breaks kept in form fields), an `<int:…>` path parameter past a 64-bit id is a 404, and an
id past the database's range met in a query is a 404.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import Event
from seasons.models import Series
from tests.builder import EventBuilder
from tests.personas import make_user

pytestmark = pytest.mark.django_db

HUGE = "9" * 30


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    "url", ["/entry/%00/", "/manage/join/%00/", "/me/%00/", "/ref/%00/", "/entry/a%07b/"]
)
def test_a_token_with_a_control_character_is_not_found(url):
    assert Client().get(url).status_code == 404
    assert Client().post(url).status_code in (403, 404)  # CSRF refuses first, or not found


def test_a_search_with_a_nul_is_answered():
    for query in ("q=%00", "q=a%00b", "q=%07", "club=%00", "q=%00&club=1"):
        assert Client().get("/season/ratings/?" + query).status_code == 200, query


def test_an_id_past_the_column_s_range_is_not_found():
    b = EventBuilder(unions=4, deals=1).register()
    Event.objects.filter(pk=b.event.pk).update(published=True)
    assert Client().get(f"/season/ratings/?club={HUGE}").status_code == 404
    assert Client().get(f"/events/{HUGE}/").status_code == 404
    assert Client().get(f"/season/players/{HUGE}/").status_code == 404
    assert Client().get(f"/api/v1/public/events/{HUGE}/").status_code == 404
    organiser = signed_in(b.people.organiser)
    assert organiser.get(f"/manage/events/{HUGE}/").status_code == 404
    assert organiser.get(f"/manage/events/{b.event.pk}/entries/?union={HUGE}").status_code in (
        200,
        404,
    )


def test_a_series_with_a_nul_in_its_name_or_a_huge_event_id():
    user = make_user("series-owner")
    client = signed_in(user)
    answer = client.post(reverse("seasons-manage:series-list"), {"name": "岛城\x00联赛\x07"})
    assert answer.status_code == 302
    series = Series.objects.get(name="岛城联赛")
    url = reverse("seasons-manage:series", args=[series.pk])
    edit = {"name": "a\x00b", "scoring": "placing", "place_points": "3 2\x00 1"}
    assert client.post(url, edit).status_code in (200, 302)
    series.refresh_from_db()
    assert "\x00" not in series.name and "\x00" not in str(series.place_points)
    answer = client.post(url, {**edit, "events": [HUGE]})
    assert answer.status_code == 400 and HUGE in answer.content.decode()  # the form's refusal
    add = reverse("seasons-manage:series-organisers", args=[series.pk])
    for username in ("\x00", "x\x00y", "\x07"):
        assert client.post(add, {"username": username}).status_code in (200, 302, 400)


def test_zone_names_lose_their_control_characters():
    b = EventBuilder(unions=12, deals=1).register()
    b.draw()
    client = signed_in(b.people.organiser)
    url = reverse("manage:zones", args=[b.event.pk])
    answer = client.post(url, {"action": "zones", "zones": "A\x00\x07 1-3\nB\x1b 4-6"})
    assert answer.status_code == 302
    assert sorted(b.event.zones.values_list("name", flat=True)) == ["A", "B"]
