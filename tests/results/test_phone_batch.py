"""The phone's batch (issue 28): what a table's phone queued offline, several deals in one
request, each through the results service with its own idempotency key, all or nothing per
deal (matches/views/referee/batch.py `submit_batch`)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from matches.models import DealReport, RefereeLink

pytestmark = pytest.mark.django_db


def fields(key, finish="1,2,3,4,5,6"):
    return [["idempotency_key", key], ["finish", finish], ["point_3", "1"]]


def link_batch(link) -> str:
    return reverse("referee:link-batch", kwargs={"token": link.token})


def send(client, url, deals):
    return client.post(url, json.dumps({"deals": deals}), content_type="application/json")


def stored(setup):
    return sorted(
        DealReport.objects.filter(deal__match=setup.match).values_list("deal__number", "state")
    )


def test_several_deals_in_one_request_in_deal_order(setup):
    client = Client()
    deals = [
        {"number": 2, "fields": fields("p2")},
        {"number": 1, "fields": fields("p1")},
        {"number": 3, "fields": fields("p3", finish="1,1,3,4,5,6")},  # not a finishing order
        {"number": 5, "fields": fields("p5")},  # deal 4 has no report: R35
    ]
    response = send(client, link_batch(setup.link), deals)
    assert response.status_code == 200
    answers = response.json()["results"]
    assert [a["number"] for a in answers] == [2, 1, 3, 5]  # the order sent
    assert [a["status"] for a in answers] == [201, 201, 422, 409]
    assert answers[0]["state"] == answers[1]["state"] == "pending"  # captains confirm
    assert answers[3]["code"] == "previous_deal_open" and "第 4 局" in answers[3]["message"]
    assert answers[2]["message"]  # the engine's refusal, in the page's words
    assert stored(setup) == [(1, "pending"), (2, "pending")]
    # The phone never saw the answer and sends it all again: replays, nothing new.
    again = send(client, link_batch(setup.link), deals[:2]).json()["results"]
    assert [a["status"] for a in again] == [200, 200]
    assert stored(setup) == [(1, "pending"), (2, "pending")]


@pytest.mark.parametrize(
    "body",
    [
        "",
        "[]",
        '{"deals": []}',
        '{"deals": [1]}',
        '{"deals": [{"number": "1", "fields": []}]}',
        '{"deals": [{"number": 1, "fields": [["a"]]}]}',
        '{"deals": [{"number": 1, "fields": [[1, 2]]}]}',
        json.dumps({"deals": [{"number": 1, "fields": []}] * 65}),
    ],
)
def test_a_malformed_batch_stores_nothing(setup, body):
    response = Client().post(link_batch(setup.link), body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed"
    assert not DealReport.objects.exists()


@pytest.mark.tables(2)
def test_only_the_tables_own_referees_send_its_deals(setup):
    other = RefereeLink.objects.create(table=setup.match_at(2).table, created_by=setup.organiser)
    deals = [{"number": 1, "fields": fields("x1")}]
    # Another table's link reports at its own table, never at this one: the link names the table.
    assert send(Client(), link_batch(other), deals).status_code == 200
    assert not stored(setup)
    # A stranger signed in, and nobody: refused; a revoked or unknown link: gone.
    stranger = Client()
    stranger.force_login(setup.outsider)
    url = reverse("referee:table-batch", kwargs={"table_id": setup.table.pk})
    assert send(stranger, url, deals).status_code == 403
    assert send(Client(), url, deals).status_code == 302  # to the sign-in page
    assert send(Client(), "/ref/" + "x" * 32 + "/deals/batch", deals).status_code == 404
    assert not stored(setup)
    # The table's referee, signed in: stored.
    referee = Client()
    referee.force_login(setup.referee)
    assert send(referee, url, deals).json()["results"][0]["status"] == 201
    assert stored(setup) == [(1, "pending")]


def test_a_get_is_refused(setup):
    assert Client().get(link_batch(setup.link)).status_code == 405
