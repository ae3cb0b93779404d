"""Issue 17, finding 1: unpublished events and silent rounds do not leak through the result API
(tables, reports) or through the public pages' changing ETags."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches.models import Event
from matches.permissions import Actor
from matches.public import stamps
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from tests.results.conftest import SUMMARY

pytestmark = pytest.mark.django_db


def _final_report(setup):
    deal = deal_for(setup.match, 1)
    report, _ = submit_report(deal, SUMMARY, None, Actor(user=setup.referee))
    if report.state != "final":
        report = setup.builder.confirm(report)  # both captains (issue 16)
    return report


def test_an_unpublished_event_s_table_and_reports_are_not_found_anonymously(setup):
    report = _final_report(setup)
    assert not setup.event.published
    anonymous = APIClient()
    table = anonymous.get(f"/api/v1/tables/{setup.table.pk}")
    assert table.status_code == 404
    assert setup.event.name not in table.content.decode()
    assert anonymous.get(f"/api/v1/reports/{report.pk}").status_code == 404
    # An outsider with an account sees no more than anyone.
    outsider = APIClient()
    outsider.force_authenticate(setup.outsider)
    assert outsider.get(f"/api/v1/tables/{setup.table.pk}").status_code == 404
    assert outsider.get(f"/api/v1/reports/{report.pk}").status_code == 404
    # The table's own people still see it: its referee link, its referees, the organisers.
    link = APIClient()
    link.credentials(HTTP_AUTHORIZATION="Referee " + setup.link.token)
    assert link.get(f"/api/v1/tables/{setup.table.pk}").status_code == 200
    for user in (setup.referee, setup.organiser, setup.captain_a):
        client = APIClient()
        client.force_authenticate(user)
        assert client.get(f"/api/v1/tables/{setup.table.pk}").status_code == 200
        assert client.get(f"/api/v1/reports/{report.pk}").status_code == 200
    # Once published, anyone reads the table and the final report.
    Event.objects.filter(pk=setup.event.pk).update(published=True)
    assert anonymous.get(f"/api/v1/tables/{setup.table.pk}").status_code == 200
    assert anonymous.get(f"/api/v1/reports/{report.pk}").status_code == 200


def test_a_silent_round_shows_no_progress_to_the_public(setup):
    Event.objects.filter(pk=setup.event.pk).update(published=True)
    setup.round.silent = True
    setup.round.save(update_fields=["silent"])
    anonymous = APIClient()
    before = anonymous.get(f"/api/v1/tables/{setup.table.pk}").json()
    _final_report(setup)
    after = anonymous.get(f"/api/v1/tables/{setup.table.pk}").json()
    assert after["current_deal"] is None and after["state"] is None and after["deals"] == []
    assert before == after
    # The referee still sees the progress.
    link = APIClient()
    link.credentials(HTTP_AUTHORIZATION="Referee " + setup.link.token)
    assert link.get(f"/api/v1/tables/{setup.table.pk}").json()["current_deal"] == 2


def test_a_silent_round_s_results_do_not_change_the_public_etag(setup, settings):
    settings.PUBLIC_VERSION_SECONDS = 0  # no cached stamp: compare what is computed
    Event.objects.filter(pk=setup.event.pk).update(published=True)
    setup.round.silent = True
    setup.round.save(update_fields=["silent"])
    event = Event.objects.get(pk=setup.event.pk)
    client = Client()
    url = f"/events/{event.pk}/rounds/{setup.round.number}/"
    before = (stamps.event_version(event), client.get(url)["ETag"])
    _final_report(setup)
    after = (stamps.event_version(event), client.get(url)["ETag"])
    assert before == after
    # When the round stops being silent, the stamp changes.
    setup.round.silent = False
    setup.round.save(update_fields=["silent"])
    assert stamps.event_version(event) != before[0]


def test_a_silent_round_s_table_fragment_shows_no_deals(setup):
    """The htmx fragment of a table page (polled every 5 s) must hide what the full page hides."""
    Event.objects.filter(pk=setup.event.pk).update(published=True)
    setup.round.silent = True
    setup.round.save(update_fields=["silent"])
    _final_report(setup)
    url = f"/events/{setup.event.pk}/rounds/{setup.round.number}/tables/{setup.table.number}/"
    for headers in ({}, {"HX-Request": "true"}):
        page = Client().get(url, headers=headers)
        assert page.status_code == 200
        html = page.content.decode()
        assert "本轮成绩不公开" in html
        assert "<tbody>\n<tr>" not in html and "未完成" not in html


# --- issue 27: the event's release settings hold the API's answers back too ----------------------


def _held(setup, **release):
    Event.objects.filter(pk=setup.event.pk).update(published=True, **release)
    setup.event.refresh_from_db()


def test_held_results_are_not_read_through_the_results_api(setup):
    """Finding 1: results held until the round closes: a signed-out reader of the table and
    of the report sees the seats but no result, as on the public pages."""
    _held(setup, release_results=Event.Release.AFTER_CLOSE)
    report = _final_report(setup)
    anonymous = APIClient()
    table = anonymous.get(f"/api/v1/tables/{setup.table.pk}").json()
    assert table["seats"] and table["deals"] == [] and table["state"] is None
    assert anonymous.get(f"/api/v1/reports/{report.pk}").status_code == 404
    # The table's referee still reads it all.
    referee = APIClient()
    referee.force_authenticate(setup.referee)
    assert referee.get(f"/api/v1/reports/{report.pk}").status_code == 200
    assert referee.get(f"/api/v1/tables/{setup.table.pk}").json()["deals"][0]["final"]


def test_a_held_draw_is_not_read_through_the_results_api(setup):
    """Finding 2: the draw held until the end: the table and its reports do not exist for the
    public, as the round pages and the pairings API already said."""
    _held(setup, release_draw=Event.Release.AT_END)
    report = _final_report(setup)
    anonymous = APIClient()
    table = anonymous.get(f"/api/v1/tables/{setup.table.pk}")
    assert table.status_code == 404 and setup.union_a.name not in table.content.decode()
    assert anonymous.get(f"/api/v1/reports/{report.pk}").status_code == 404
    assert Client().get(f"/events/{setup.event.pk}/rounds/{setup.round.number}/").status_code == 404


def test_a_held_result_does_not_move_the_round_page_s_etag(setup, settings):
    """Finding 2, the smaller part: the page does not change, so neither does its ETag."""
    settings.PUBLIC_VERSION_SECONDS = 0
    _held(setup, release_results=Event.Release.AFTER_CLOSE)
    url = f"/events/{setup.event.pk}/rounds/{setup.round.number}/"
    before = Client().get(url)
    _final_report(setup)
    after = Client().get(url)
    assert before["ETag"] == after["ETag"]
