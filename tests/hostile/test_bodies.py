"""Hostile request bodies: oversized, deeply nested, not UTF-8, NUL characters and unpaired
surrogates, and 10,000-action play logs. A clear 4xx (or a verdict), never a 500."""

from __future__ import annotations

import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches.kernel.games.registry import get_game
from matches.models import DealReport, Event
from matches.permissions import Actor
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from tests.cpu import least_cpu_seconds
from tests.results.conftest import SUMMARY

pytestmark = pytest.mark.django_db

DEAL = next(iter(get_game("gouji").selfplay(1, 3)))


@pytest.fixture
def referee(setup):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + Token.objects.create(user=setup.referee).key)
    return client


def submit_url(setup, number=1):
    return f"/api/v1/tables/{setup.table.pk}/deals/{number}/reports"


def post(client, url, body: bytes | str | dict):
    data = json.dumps(body) if isinstance(body, dict) else body
    return client.post(url, data=data, content_type="application/json")


def error_code(response) -> str:
    assert response["Content-Type"].startswith("application/json"), response.content[:200]
    return response.json()["error"]["code"]


HOSTILE = {
    "oversized": (b'{"summary": "' + b"x" * (3 * 1024 * 1024) + b'"}', 413, "too_large"),
    "nested-lists": ("[" * 100_000 + "]" * 100_000, 400, "bad_document"),
    "nested-objects": ('{"a":' * 50_000 + "1" + "}" * 50_000, 400, "bad_document"),
    "nested-in-a-field": (
        json.dumps({"summary": json.loads("[" * 40 + "]" * 40)}),
        400,
        "bad_document",
    ),
    "latin-1": ('{"summary": "Zhöu"}'.encode("latin-1"), 400, "bad_document"),
    "utf-16": ('{"summary": {}}'.encode("utf-16"), 400, "bad_document"),
    "nul": ('{"summary": {"format": "gouji-outcome/1\\u0000"}}', 400, "bad_document"),
    "surrogate": ('{"summary": {"format": "\\ud800"}}', 400, "bad_document"),
    "nul-in-a-key": ('{"summary": {"\\u0000": 1}}', 400, "bad_document"),
    "empty": (b"", 400, "bad_document"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_bodies_on_the_result_endpoint(setup, referee, name):
    body, status, code = HOSTILE[name]
    response = post(referee, submit_url(setup), body)
    assert response.status_code == status, response.content[:300]
    assert error_code(response) == code
    assert not DealReport.objects.exists()


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_bodies_on_the_rules_endpoints(client, name):
    body, status, _code = HOSTILE[name]
    for url in ("/api/v1/rules/replay", "/api/v1/rules/settle"):
        response = post(client, url, body)
        assert response.status_code == status, (url, response.content[:300])


@pytest.mark.parametrize("note", ["\u0000", "\ud800", "a\u0000b"])
def test_a_confirmation_note_with_nul_or_a_surrogate_is_refused(setup, note):
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="captain")
    report, _ = submit_report(
        deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), "k"
    )
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + Token.objects.create(user=setup.captain_b).key)
    raw = json.dumps({"agrees": False, "note": note})  # \u escapes: valid JSON, hostile text
    response = post(client, f"/api/v1/reports/{report.pk}/confirm", raw)
    assert response.status_code == 400 and error_code(response) == "bad_document"
    report.refresh_from_db()
    assert report.state == "pending"


def test_a_referee_form_with_a_nul_or_bad_bytes_is_not_a_500(setup, client):
    client.force_login(setup.referee)
    url = f"/referee/tables/{setup.table.pk}/deals/1/submit"
    for body in (b"finish=1%002&points=\xff\xfe", b"\xff" * 100):
        response = client.post(url, data=body, content_type="application/x-www-form-urlencoded")
        assert response.status_code < 500, response.status_code


def long_log(extra_actions: int) -> dict:
    """A real deal's record with passes appended until it holds `extra_actions` more actions."""
    doc = json.loads(json.dumps(DEAL))
    seats = [str(s) for s in range(1, 7)]
    doc["actions"] = doc["actions"] + [
        {"seat": int(seats[k % 6]), "pass": True} for k in range(extra_actions)
    ]
    return doc


# A long log must cost in proportion to its length: 10,000 actions about ten times 1,000 (here
# 7-10 times: the replay stops at the first action after the deal's end, the document is still
# read whole). A replay or a check that grew with the square of the log would cost 100 times.
# Measured against each other in one run, never against seconds: CI's machine is shared and
# loaded (bench/hostile.py has the figures).
LINEAR = 30


def test_a_10000_action_log_gets_a_verdict_in_proportion_to_its_length():
    long, short = long_log(10_000 - len(DEAL["actions"])), long_log(1_000 - len(DEAL["actions"]))
    assert len(long["actions"]) == 10_000
    verdict = get_game("gouji").replay(long)
    assert verdict["valid"] is False and verdict["error"]["rule"] == "R30"
    ratio = least_cpu_seconds(lambda: get_game("gouji").replay(long)) / least_cpu_seconds(
        lambda: get_game("gouji").replay(short)
    )
    print(f"\n10,000 actions: {ratio:.1f} times 1,000")
    assert ratio < LINEAR, f"10,000 actions cost {ratio:.1f} times 1,000"


def test_a_10000_action_log_through_the_api(setup, referee):
    long, short = long_log(10_000 - len(DEAL["actions"])), long_log(1_000 - len(DEAL["actions"]))
    response = post(referee, submit_url(setup), {"play_log": long})
    assert response.status_code in (400, 422), response.content[:300]
    assert error_code(response) in ("bad_document", "inconsistent_result")
    ratio = least_cpu_seconds(lambda: post(referee, submit_url(setup), {"play_log": long})) / (
        least_cpu_seconds(lambda: post(referee, submit_url(setup), {"play_log": short}))
    )
    print(f"\n10,000 actions through the API: {ratio:.1f} times 1,000")
    assert ratio < LINEAR, f"10,000 actions cost {ratio:.1f} times 1,000 through the API"
    assert not DealReport.objects.exists()
    response = post(APIClient(), "/api/v1/rules/replay", long)
    assert response.status_code == 200 and response.json()["valid"] is False


@pytest.mark.parametrize(
    "path", ["/ref/%00/", "/ref/a%00b/", "/ref/%ED%A0%80/", "/ref/%FF/", "/ref/" + "a" * 300 + "/"]
)
def test_a_hostile_referee_link_url_is_not_a_500(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize(
    "header",
    [
        "Referee a\x00b",
        "Token a\x00b",
        "Referee \x7f",
        "Token " + "f" * 500,
        "Referee " + "a" * 500,
    ],
)
def test_a_hostile_authorization_header_is_a_401(client, header):
    response = client.get("/api/v1/public/events/", HTTP_AUTHORIZATION=header)
    assert response.status_code < 500
    response = client.get("/api/v1/tables/1", HTTP_AUTHORIZATION=header)
    assert response.status_code == 401 and error_code(response) == "authentication_failed"


@pytest.mark.parametrize(
    "query",
    ["?kind=%00", "?round=%00", "?round=99999999999999999999", "?kind=players&scope=%ff&round=-1"],
)
def test_hostile_query_strings_on_public_pages(client, query):
    assert client.get("/api/v1/public/events/1/standings/" + query).status_code < 500
    assert client.get("/events/1/standings/" + query).status_code < 500
