"""Where each right to confirm stops (issue 16): a captain's PIN counts only on its own table's
device and only for its own union; a referee confirms only on their own table; an organiser
accepts and decides only on their own events; every answer is kept with who and when."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches.models import Confirmation, DealReport, Event
from matches.permissions import Actor
from matches.results.confirm import check_captain_pin, confirm_report
from matches.results.correct import uphold_report
from matches.results.deals import deal_for
from matches.results.submit import submit_report

from .conftest import SUMMARY

pytestmark = [pytest.mark.django_db, pytest.mark.tables(2)]


@pytest.fixture(autouse=True)
def fresh_limits():
    cache.clear()  # the PIN failures of one test do not lock the next
    yield
    cache.clear()


def api(user=None, link=None) -> APIClient:
    client = APIClient()
    if user is not None:
        key = Token.objects.get_or_create(user=user)[0].key
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    if link is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Referee {link.token}")
    return client


def post(client, url, body):
    return client.post(url, json.dumps(body), content_type="application/json")


def link_report(setup, match=None):
    match = match or setup.match
    link = setup.builder.people.for_table(match.table).referee_link
    return submit_report(deal_for(match, 1), SUMMARY, None, Actor.from_link(link), "")[0]


def test_a_pin_counts_only_on_its_own_tables_device(setup):
    report = link_report(setup)
    url = f"/api/v1/reports/{report.pk}/confirm"
    body = {"agrees": True, "side": "B", "pin": setup.union_b.captain_pin}
    other_table = setup.builder.people.for_table(setup.match_at(2).table)
    for client in (
        api(link=other_table.referee_link),  # the next table's phone
        api(user=other_table.referee),  # the next table's referee
        api(user=setup.outsider),
        api(user=setup.builder.people.other_organiser),
    ):
        answer = post(client, url, body)
        assert answer.status_code in (403, 404), answer.content
        assert answer.json()["error"]["code"] in ("permission_denied", "not_found")
    assert not report.confirmations.exists()
    # The refusals were not PIN failures: the table's own phone still gets its five tries.
    assert post(api(link=setup.link), url, body).json()["report"]["state"] == "pending"


def test_a_pin_confirms_only_its_own_union_of_this_table(setup):
    report = link_report(setup)
    url = f"/api/v1/reports/{report.pk}/confirm"
    other_match = setup.match_at(2)
    # Table 2's union A captain's PIN, given as this table's A or B: a wrong PIN.
    for side in ("A", "B"):
        answer = post(
            api(link=setup.link),
            url,
            {"agrees": True, "side": side, "pin": other_match.union_a.captain_pin},
        )
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "wrong_pin"
    # Union B's PIN named as union A's: wrong too (a PIN answers for its own union only).
    answer = post(api(link=setup.link), url, {"agrees": True, "side": "A", "pin": "x"})
    assert answer.json()["error"]["code"] == "wrong_pin"
    bad_side = post(
        api(link=setup.link), url, {"agrees": True, "side": "C", "pin": setup.union_a.captain_pin}
    )
    assert bad_side.status_code == 400 and bad_side.json()["error"]["code"] == "bad_side"
    assert "A or B" not in bad_side.json()["error"]["message"]  # the localized message
    assert not report.confirmations.exists()


def test_a_referee_confirms_only_on_their_own_table(setup):
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="referee")
    report = link_report(setup)
    other_referee = setup.builder.people.for_table(setup.match_at(2).table).referee
    answer = post(api(user=other_referee), f"/api/v1/reports/{report.pk}/confirm", {"agrees": True})
    assert answer.status_code in (403, 404)
    other_link = setup.builder.people.for_table(setup.match_at(2).table).referee_link
    answer = post(api(link=other_link), f"/api/v1/reports/{report.pk}/confirm", {"agrees": True})
    assert answer.status_code in (403, 404)
    report.refresh_from_db()
    assert report.state == "pending"
    # The table's own referee account (another person than the link) confirms alone.
    answer = post(api(user=setup.referee), f"/api/v1/reports/{report.pk}/confirm", {"agrees": True})
    assert answer.status_code == 200 and answer.json()["report"]["state"] == "final"


def test_an_organiser_accepts_and_decides_only_their_own_events(setup):
    report = link_report(setup)
    other = Client()
    other.force_login(setup.builder.people.other_organiser)
    base = f"/manage/events/{setup.event.pk}/results"
    assert other.get(f"{base}/queue/").status_code == 403
    assert other.post(f"{base}/reports/{report.pk}/decide").status_code == 403
    answer = post(
        api(user=setup.builder.people.other_organiser),
        f"/api/v1/reports/{report.pk}/confirm",
        {"agrees": True},
    )
    assert answer.status_code in (403, 404)
    report.refresh_from_db()
    assert report.state == "pending" and not report.confirmations.exists()
    # A report of another event's table cannot be decided through this event's URL either.
    mine = Client()
    mine.force_login(setup.organiser)
    assert mine.post(f"/manage/events/{setup.event.pk + 999}/results/reports/{report.pk}/decide")
    report.refresh_from_db()
    assert report.state == "pending"


def test_every_answer_is_kept_with_who_how_and_when(setup):
    report = link_report(setup)
    confirm_report(
        report,
        Actor.from_link(setup.link),
        True,
        pin_union=check_captain_pin(
            setup.match, "B", setup.union_b.captain_pin, "1.2.3.4", Actor.from_link(setup.link)
        ),
    )
    confirm_report(report, Actor(user=setup.captain_a), False, "3 号没开点", reason="points")
    uphold_report(report, Actor(user=setup.organiser), "看了牌谱，维持原判")
    answers = list(report.confirmations.order_by("at", "id"))
    assert [(a.role, a.agrees, a.by_pin) for a in answers] == [
        (Confirmation.Role.CAPTAIN, True, True),
        (Confirmation.Role.CAPTAIN, False, False),
        (Confirmation.Role.ORGANISER, True, False),
    ]
    assert answers[0].union_id == setup.union_b.pk and answers[0].referee_link == setup.link
    assert answers[1].user == setup.captain_a and answers[1].reason == "points"
    assert answers[2].user == setup.organiser and answers[2].note == "看了牌谱，维持原判"
    assert all(a.at is not None for a in answers)
    report.refresh_from_db()
    assert report.state == DealReport.State.FINAL
    # The organiser's table history shows every answer, the dispute's reason included.
    organiser = Client()
    organiser.force_login(setup.organiser)
    page = organiser.get(
        f"/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/"
    ).content.decode()
    assert "3 号没开点" in page and "看了牌谱，维持原判" in page and "开点" in page
