"""Two referees at the same deal at the same moment, through HTTP to a live server on PostgreSQL:
one final result, the other gets a 409 (tests/results/test_concurrency.py races the service)."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest
from rest_framework.authtoken.models import Token

from matches.models import DealReport, Event
from tests.results.conftest import STRING_THREE_A, SUMMARY

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def token_of(user) -> str:
    return "Token " + Token.objects.get_or_create(user=user)[0].key


def post(url: str, body: dict, authorization: str, key: str = "") -> tuple[int, dict]:
    headers = {"Content-Type": "application/json", "Authorization": authorization}
    if key:
        headers["Idempotency-Key"] = key
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def race(*calls):
    barrier = threading.Barrier(len(calls))
    answers: list = [None] * len(calls)

    def run(index, call):
        barrier.wait()
        answers[index] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return answers


@pytest.fixture
def postgres(require_services):
    """Row locks are what is tested: PostgreSQL only (CI's second pass)."""


@pytest.mark.parametrize("attempt", range(3))
def test_two_referees_submit_the_same_deal_at_once(postgres, live_server, setup, attempt):
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="none")
    url = f"{live_server.url}/api/v1/tables/{setup.table.pk}/deals/1/reports"
    first, second = token_of(setup.referee), token_of(setup.second_referee)
    answers = race(
        lambda: post(url, {"summary": SUMMARY}, first, "first"),
        lambda: post(url, {"summary": STRING_THREE_A}, second, "second"),
    )
    statuses = sorted(status for status, _body in answers)
    assert statuses == [201, 409], answers
    refused = next(body for status, body in answers if status == 409)
    assert refused["error"]["code"] == "already_final"
    assert DealReport.objects.filter(deal__match=setup.match).count() == 1
    assert DealReport.objects.final().filter(deal__match=setup.match).count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_two_referees_confirm_the_same_report_at_once(postgres, live_server, setup, attempt):
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="referee")
    status, body = post(
        f"{live_server.url}/api/v1/tables/{setup.table.pk}/deals/1/reports",
        {"summary": SUMMARY},
        token_of(setup.referee),
        "k",
    )
    assert status == 201 and body["report"]["state"] == "pending"
    url = f"{live_server.url}/api/v1/reports/{body['report']['id']}/confirm"
    second, organiser = token_of(setup.second_referee), token_of(setup.organiser)
    answers = race(
        lambda: post(url, {"agrees": True}, second),
        lambda: post(url, {"agrees": True}, organiser),
    )
    statuses = sorted(status for status, _body in answers)
    assert statuses == [200, 409], answers
    refused = next(body for status, body in answers if status == 409)
    assert refused["error"]["code"] == "not_pending"
    assert DealReport.objects.final().filter(deal__match=setup.match).count() == 1
