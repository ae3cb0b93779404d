"""Who may do what, as a matrix: each actor against each action, on pages and the API.

Anonymous reads only published data; a referee acts only on their own tables; a captain confirms
only their own match; an organiser only their own events; admin everywhere; CSRF on every form.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token

from matches.models import DealReport, Event, Round
from matches.permissions import Actor
from matches.results.deals import deal_for
from matches.results.submit import submit_report

from .conftest import SUMMARY

pytestmark = [pytest.mark.django_db, pytest.mark.tables(3)]

ACTORS = [
    "anonymous",
    "outsider",
    "referee",
    "other_referee",
    "captain_a",
    "captain_b",
    "organiser",
    "other_organiser",
    "admin",
]


@pytest.fixture
def world(setup):
    # A published event: the matrix is about who may act, not about what is public (an
    # unpublished event's tables are 404 to outsiders, tests/hostile/test_visibility.py).
    Event.objects.filter(pk=setup.event.pk).update(published=True)
    setup.event.published = True
    other_organiser = setup.builder.people.other_organiser
    other_referee = setup.builder.people.for_table(setup.match_at(2).table).referee
    users = {
        "outsider": setup.outsider,
        "referee": setup.referee,
        "other_referee": other_referee,
        "captain_a": setup.captain_a,
        "captain_b": setup.captain_b,
        "organiser": setup.organiser,
        "other_organiser": other_organiser,
        "admin": setup.admin,
    }
    return setup, users


def client_for(world, actor: str) -> Client:
    client = Client()
    if actor != "anonymous":
        client.force_login(world[1][actor])
    return client


FORM = {"finish": "1,2,3,4,5,6", "idempotency_key": "matrix"}

# 200/302 = allowed; 403 = refused; "login" = sent to sign in.
ENTER_PAGE = {
    "anonymous": "login",
    "outsider": 403,
    "referee": 200,
    "other_referee": 403,
    "captain_a": 403,
    "captain_b": 403,
    "organiser": 200,
    "other_organiser": 403,
    "admin": 200,
}
MANAGE = {
    "anonymous": "login",
    "outsider": 403,
    "referee": 403,
    "other_referee": 403,
    "captain_a": 403,
    "captain_b": 403,
    "organiser": 200,
    "other_organiser": 403,
    "admin": 200,
}
# A referee reported: one captain alone leaves it pending (both unions must agree); the organisers
# accept alone; the second referee account of the table confirms alone (docs/results.md).
CONFIRMS = {"organiser", "admin"}
CORRECTS = {"organiser", "admin"}


def expect(response, expected):
    if expected == "login":
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    else:
        assert response.status_code == expected, response.status_code


@pytest.mark.parametrize("actor", ACTORS)
def test_referee_table_page(world, actor):
    setup, _ = world
    expect(client_for(world, actor).get(f"/referee/tables/{setup.table.pk}/"), ENTER_PAGE[actor])


@pytest.mark.parametrize("actor", ACTORS)
def test_submitting_a_deal(world, actor):
    setup, _ = world
    response = client_for(world, actor).post(
        f"/referee/tables/{setup.table.pk}/deals/1/submit", FORM
    )
    allowed = ENTER_PAGE[actor] == 200
    expect(response, 302 if allowed else ENTER_PAGE[actor])
    if allowed:
        assert "/accounts/login/" not in response["Location"]
    assert DealReport.objects.exists() == allowed


@pytest.mark.parametrize("actor", ACTORS)
def test_confirming_a_report(world, actor):
    setup, _ = world
    report, _ = submit_report(
        deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), ""
    )
    client_for(world, actor).post(f"/referee/reports/{report.pk}/", {"agrees": "yes"})
    report.refresh_from_db()
    assert (report.state == "final") == (actor in CONFIRMS)


@pytest.mark.parametrize("actor", ACTORS)
def test_the_organiser_pages(world, actor):
    setup, _ = world
    expect(client_for(world, actor).get(f"/manage/events/{setup.event.pk}/results/"), MANAGE[actor])
    table_page = f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/"
    expect(client_for(world, actor).get(table_page), MANAGE[actor])
    qr = f"/manage/events/{setup.event.pk}/results/links/{setup.link.pk}/qr.svg"
    expect(client_for(world, actor).get(qr), MANAGE[actor])


@pytest.mark.parametrize("actor", ACTORS)
def test_correcting_a_result(world, actor):
    setup, _ = world
    url = f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/deals/1/correct"
    client_for(world, actor).post(url, {**FORM, "finish": "1,3,5,2,4,6", "reason": "x"})
    assert DealReport.objects.filter(kind="correction").exists() == (actor in CORRECTS)


@pytest.mark.parametrize("actor", ACTORS)
def test_revoking_a_link(world, actor):
    setup, _ = world
    client_for(world, actor).post(
        f"/manage/events/{setup.event.pk}/results/links/{setup.link.pk}/revoke"
    )
    setup.link.refresh_from_db()
    assert (setup.link.revoked_at is not None) == (actor in CORRECTS)


@pytest.mark.parametrize("actor", ACTORS)
def test_api_submit_and_confirm(world, actor):
    setup, users = world
    headers = {}
    if actor != "anonymous":
        token = Token.objects.create(user=users[actor])
        headers = {"HTTP_AUTHORIZATION": f"Token {token.key}"}
    client = Client()
    response = client.post(
        f"/api/v1/tables/{setup.table.pk}/deals/1/reports",
        json.dumps({"summary": SUMMARY}),
        content_type="application/json",
        **headers,
    )
    allowed = ENTER_PAGE[actor] == 200
    assert response.status_code == (201 if allowed else 401 if actor == "anonymous" else 403)
    if not allowed:
        report, _ = submit_report(
            deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), ""
        )
    else:
        report = DealReport.objects.get()
    response = client.post(
        f"/api/v1/reports/{report.pk}/confirm",
        json.dumps({"agrees": True}),
        content_type="application/json",
        **headers,
    )
    report.refresh_from_db()
    assert (report.state == "final") == (actor in CONFIRMS), response.content


@pytest.mark.parametrize(
    "state,public",
    [(Round.State.DRAFT, False), (Round.State.PUBLISHED, True), (Round.State.CLOSED, True)],
)
def test_anonymous_sees_only_published_rounds(world, state, public):
    setup, _ = world
    Round.objects.filter(pk=setup.round.pk).update(state=state)
    response = Client().get(f"/api/v1/tables/{setup.table.pk}")
    assert response.status_code == (200 if public else 404)
    Event.objects.filter(pk=setup.event.pk).update(published=False)
    assert Client().get(f"/api/v1/tables/{setup.table.pk}").status_code == 404


def test_a_referee_link_acts_on_its_own_table_only(world):
    setup, _ = world
    other_link = setup.builder.people.for_table(setup.match_at(3).table).referee_link
    # Its own table: allowed. Another table's deal through this link's URL: nothing to reach.
    assert Client().post(f"/ref/{setup.link.token}/deals/1/submit", FORM).status_code == 302
    report = DealReport.objects.get()
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="referee")
    response = Client().post(
        f"/ref/{other_link.token}/reports/{report.pk}/confirm", {"agrees": "yes"}
    )
    assert response.status_code == 404
    report.refresh_from_db()
    assert report.state == "pending"


@pytest.mark.parametrize(
    "url,data",
    [
        ("/ref/{token}/deals/1/submit", FORM),
        ("/ref/{token}/deals/1/check", FORM),
        ("/referee/tables/{table}/deals/1/submit", FORM),
        ("/referee/reports/{report}/", {"agrees": "yes"}),
        ("/manage/events/{event}/results/tables/{table}/deals/1/correct", {**FORM, "reason": "x"}),
        ("/manage/events/{event}/results/tables/{table}/links", {}),
        ("/manage/events/{event}/results/links/{link}/revoke", {}),
    ],
)
def test_every_form_needs_its_csrf_token(world, url, data):
    setup, _ = world
    report, _ = submit_report(
        deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), "first"
    )
    client = Client(enforce_csrf_checks=True)
    client.force_login(setup.admin)
    target = url.format(
        token=setup.link.token,
        table=setup.table.pk,
        report=report.pk,
        event=setup.event.pk,
        link=setup.link.pk,
    )
    assert client.post(target, data).status_code == 403
    report.refresh_from_db()
    assert report.state == "pending" and DealReport.objects.count() == 1
    setup.link.refresh_from_db()
    assert setup.link.revoked_at is None
