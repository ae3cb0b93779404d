"""API: every endpoint, every error shape, and the three ways to authenticate."""

from __future__ import annotations

import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches.models import Deal, DealReport, Event, Round
from matches.permissions import Actor
from matches.results.confirm import confirm_report
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from matches.standings import service as standings

from .conftest import BAD_FINISH, STRING_THREE_A, SUMMARY

pytestmark = pytest.mark.django_db


def token_client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + Token.objects.get_or_create(user=user)[0].key)
    return client


def link_client(link) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Referee " + link.token)
    return client


def submit_url(setup, number=1):
    return f"/api/v1/tables/{setup.table.pk}/deals/{number}/reports"


def post(client, url, body, **headers):
    return client.post(
        url,
        data=json.dumps(body) if not isinstance(body, bytes) else body,
        content_type="application/json",
        **headers,
    )


def test_a_referee_token_submits_and_the_other_captain_confirms(setup):
    response = post(
        token_client(setup.referee),
        submit_url(setup),
        {"summary": SUMMARY},
        HTTP_IDEMPOTENCY_KEY="k1",
    )
    assert response.status_code == 201, response.json()
    report = response.json()["report"]
    assert report["state"] == "pending" and report["union_scores"] == {"A": 2, "B": -2}
    assert report["via"] == "api_token"
    url = f"/api/v1/reports/{report['id']}/confirm"
    confirm = post(token_client(setup.captain_b), url, {"agrees": True})
    assert confirm.status_code == 200 and confirm.json()["report"]["state"] == "pending"
    confirm = post(token_client(setup.captain_a), url, {"agrees": True})
    assert confirm.status_code == 200 and confirm.json()["report"]["state"] == "final"
    answers = confirm.json()["report"]["confirmations"]
    assert {(a["role"], a["union"]) for a in answers} == {
        ("captain", setup.union_a.pk),
        ("captain", setup.union_b.pk),
    }


def test_captains_confirm_by_pin_over_the_api_with_a_referee_link(setup):
    link = APIClient()
    link.credentials(HTTP_AUTHORIZATION=f"Referee {setup.link.token}")
    report = post(link, submit_url(setup), {"summary": SUMMARY}).json()["report"]
    url = f"/api/v1/reports/{report['id']}/confirm"
    # Without a PIN the link confirms nothing (captain mode).
    assert post(link, url, {"agrees": True}).status_code == 403
    wrong = post(link, url, {"agrees": True, "side": "B", "pin": "0"})
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "wrong_pin"
    ok = post(link, url, {"agrees": True, "side": "B", "pin": setup.union_b.captain_pin})
    assert ok.json()["report"]["state"] == "pending"
    # The reporter's union again: still pending; the other union: final.
    again = post(link, url, {"agrees": True, "side": "B", "pin": setup.union_b.captain_pin})
    assert again.json()["report"]["state"] == "pending"
    ok = post(link, url, {"agrees": True, "side": "A", "pin": setup.union_a.captain_pin})
    assert ok.json()["report"]["state"] == "final"
    for _ in range(5):
        post(link, url, {"agrees": True, "side": "A", "pin": "1"})
    locked = post(link, url, {"agrees": True, "side": "A", "pin": "1"})
    assert locked.status_code == 429 and int(locked["Retry-After"]) > 0


@pytest.mark.tables(2)
def test_the_referee_link_header_authenticates_for_its_table_only(setup):
    response = post(link_client(setup.link), submit_url(setup), {"summary": SUMMARY})
    assert response.status_code == 201
    assert response.json()["report"]["via"] == "referee_link"
    other = setup.match_at(2).table
    response = post(
        link_client(setup.link), f"/api/v1/tables/{other.pk}/deals/1/reports", {"summary": SUMMARY}
    )
    # Another table of an unpublished event does not exist for this link (issue 17)...
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"
    type(setup.event).objects.filter(pk=setup.event.pk).update(published=True)
    response = post(
        link_client(setup.link), f"/api/v1/tables/{other.pk}/deals/1/reports", {"summary": SUMMARY}
    )
    # ...and of a published one, it may not report.
    assert response.status_code == 403 and response.json()["error"]["code"] == "permission_denied"
    setup.link.revoke()
    response = post(link_client(setup.link), submit_url(setup), {"summary": SUMMARY})
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "authentication_failed"


def test_only_the_service_refuses_a_report_and_no_deal_rows_are_made_for_it(setup):
    """Whether the actor referees the table is asked by the results service alone; the API
    answers its refusal as any other: 403 `permission_denied`, worded in the request's language,
    the service's text in `detail`. No deal row is made for a refused report, whether the deal
    is one the match plays, one it does not (deal 9) or none at all (deal 0)."""
    Event.objects.filter(pk=setup.event.pk).update(published=True)
    assert not Deal.objects.filter(match__table=setup.table).exists()
    for number in (1, 9, 0):
        response = post(
            token_client(setup.outsider),
            submit_url(setup, number),
            {"summary": SUMMARY},
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert response.status_code == 403, (number, response.content)
        assert response.json()["error"] == {
            "code": "permission_denied",
            "message": "You do not referee this table, so you cannot submit results for it.",
            "detail": "you do not referee this table",
        }
    assert not Deal.objects.filter(match__table=setup.table).exists()


def test_the_same_idempotency_key_creates_one_report(setup):
    client = token_client(setup.referee)
    first = post(client, submit_url(setup), {"summary": SUMMARY}, HTTP_IDEMPOTENCY_KEY="tap")
    second = post(client, submit_url(setup), {"summary": SUMMARY}, HTTP_IDEMPOTENCY_KEY="tap")
    assert (first.status_code, second.status_code) == (201, 200)
    assert second["Idempotent-Replayed"] == "true"
    assert first.json()["report"]["id"] == second.json()["report"]["id"]
    assert DealReport.objects.count() == 1


def test_an_inconsistent_report_is_422_with_every_rule(setup):
    response = post(token_client(setup.referee), submit_url(setup), {"summary": BAD_FINISH})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "inconsistent_result" and error["rule"] == "R30"
    assert error["errors"][0]["code"] == "finish_not_permutation"
    assert not DealReport.objects.exists()


@pytest.mark.parametrize(
    "body,code",
    [
        (b"{not json", "bad_document"),
        (b"[1, 2]", "malformed"),
        (b'{"summary": 5}', "bad_document"),
        (b'{"summary": {"finish": [1,2,3,4,5,6], "colour": "red"}}', "bad_document"),
        (b'{"verdict": {}}', "malformed"),
        (b"{}", "bad_document"),
        (b'{"summary": null, "play_log": {"format": "gouji-deal/1"}}', "bad_document"),
        (b"\xff\xfe", "bad_document"),
        (b"[" * 100 + b"]" * 100, "bad_document"),
    ],
)
def test_malformed_bodies_are_400(setup, body, code):
    response = post(token_client(setup.referee), submit_url(setup), body)
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == code


def test_a_second_final_report_is_a_409(setup):
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="none")
    client = token_client(setup.referee)
    assert post(client, submit_url(setup), {"summary": SUMMARY}).status_code == 201
    response = post(client, submit_url(setup), {"summary": STRING_THREE_A})
    assert response.status_code == 409 and response.json()["error"]["code"] == "already_final"
    assert DealReport.objects.final().count() == 1


@pytest.mark.parametrize(
    "url_number,status,code", [(99, 404, "no_such_deal"), (2, 409, "previous_deal_open")]
)
def test_deals_out_of_range_or_order(setup, url_number, status, code):
    response = post(
        token_client(setup.referee), submit_url(setup, url_number), {"summary": SUMMARY}
    )
    assert response.status_code == status and response.json()["error"]["code"] == code


def test_a_stale_table_or_an_unpublished_round(setup):
    client = token_client(setup.referee)
    Round.objects.filter(pk=setup.round.pk).update(state=Round.State.CLOSED)
    response = post(client, submit_url(setup), {"summary": SUMMARY})
    assert response.status_code == 409 and response.json()["error"]["code"] == "round_closed"
    response = post(client, "/api/v1/tables/999999/deals/1/reports", {"summary": SUMMARY})
    assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def test_anonymous_cannot_submit_or_confirm(setup):
    response = post(APIClient(), submit_url(setup), {"summary": SUMMARY})
    assert response.status_code in (401, 403)
    assert response.json()["error"]["code"] == "not_authenticated"
    report, _ = submit_report(
        deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), ""
    )
    response = post(APIClient(), f"/api/v1/reports/{report.pk}/confirm", {"agrees": True})
    assert response.status_code in (401, 403)


def test_confirm_errors(setup):
    report, _ = submit_report(
        deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), ""
    )
    url = f"/api/v1/reports/{report.pk}/confirm"
    captain_b = token_client(setup.captain_b)
    assert post(captain_b, url, {"agrees": "yes"}).json()["error"]["code"] == "malformed"
    assert post(token_client(setup.outsider), url, {"agrees": True}).status_code == 403
    assert post(captain_b, "/api/v1/reports/999999/confirm", {"agrees": True}).status_code == 404
    disputed = post(captain_b, url, {"agrees": False, "note": "第三名不对"})
    assert disputed.status_code == 200 and disputed.json()["report"]["state"] == "disputed"
    response = post(captain_b, url, {"agrees": True})
    assert response.status_code == 409 and response.json()["error"]["code"] == "not_pending"


def test_table_state_shows_seats_deals_and_tributes_owed(setup):
    client = token_client(setup.referee)
    post(client, submit_url(setup), {"summary": SUMMARY})
    deal = deal_for(setup.match, 1)
    report = deal.reports.get()
    confirm_report(report, Actor(user=setup.organiser), True)
    standings.settle_match(setup.match.pk)  # what the Celery computation does on commit
    owed = setup.match.deals.get(number=2).tributes_owed
    assert {"from": 6, "to": 1, "kind": "place", "cards": 2} in owed  # R38
    data = client.get(f"/api/v1/tables/{setup.table.pk}").json()
    assert [s["seat"] for s in data["seats"]] == [1, 2, 3, 4, 5, 6]
    assert data["current_deal"] == 2 and data["tributes_owed"] == owed
    assert data["deals"][0]["final"]["union_scores"] == {"A": 2, "B": -2}
    assert data["state"] == "waiting"


def test_anonymous_reads_only_published_final_results(setup):
    submit_report(deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), "")
    # An unpublished event's table does not exist for the public (issue 17)...
    assert APIClient().get(f"/api/v1/tables/{setup.table.pk}").status_code == 404
    Event.objects.filter(pk=setup.event.pk).update(published=True)  # ...a published one does
    data = APIClient().get(f"/api/v1/tables/{setup.table.pk}").json()
    assert data["deals"][0]["final"] is None and "open" not in data["deals"][0]
    pending = DealReport.objects.get()
    assert APIClient().get(f"/api/v1/reports/{pending.pk}").status_code == 404
    confirm_report(pending, Actor(user=setup.organiser), True)
    public = APIClient().get(f"/api/v1/reports/{pending.pk}").json()["report"]
    assert public["state"] == "final" and "summary" not in public
    Round.objects.filter(pk=setup.round.pk).update(silent=True)
    assert APIClient().get(f"/api/v1/reports/{pending.pk}").status_code == 404
    assert APIClient().get(f"/api/v1/tables/{setup.table.pk}").json()["deals"] == []
    Round.objects.filter(pk=setup.round.pk).update(state=Round.State.DRAFT, silent=False)
    assert APIClient().get(f"/api/v1/tables/{setup.table.pk}").status_code == 404
    assert token_client(setup.organiser).get(f"/api/v1/tables/{setup.table.pk}").status_code == 200


def test_organiser_corrects_over_the_api(setup):
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="none")
    post(token_client(setup.referee), submit_url(setup), {"summary": SUMMARY})
    deal = deal_for(setup.match, 1)
    url = f"/api/v1/deals/{deal.pk}/corrections"
    body = {"summary": STRING_THREE_A, "reason": "x"}
    assert post(token_client(setup.referee), url, body).status_code == 403
    assert post(link_client(setup.link), url, body).status_code == 403
    missing = post(token_client(setup.organiser), url, {"summary": STRING_THREE_A})
    assert missing.status_code == 400 and missing.json()["error"]["code"] == "reason_required"
    done = post(token_client(setup.organiser), url, {"summary": STRING_THREE_A, "reason": "记错"})
    assert done.status_code == 201 and done.json()["report"]["kind"] == "correction"
    final = DealReport.objects.final().get()
    assert setup.event.adapter.read_verdict(final.verdict).side_scores() == (12, -12)
    assert done.json()["report"]["union_scores"] == {"A": 12, "B": -12}
    assert (
        post(
            token_client(setup.organiser),
            "/api/v1/deals/999999/corrections",
            {"summary": SUMMARY, "reason": "x"},
        ).status_code
        == 404
    )


def test_the_openapi_schema_lists_the_result_endpoints(client):
    schema = client.get("/api/schema/?format=json").json()
    for path in (
        "/api/v1/tables/{table_id}/deals/{number}/reports",
        "/api/v1/reports/{report_id}/confirm",
        "/api/v1/tables/{table_id}",
        "/api/v1/deals/{deal_id}/corrections",
    ):
        assert path in schema["paths"]
    assert "refereeLink" in schema["components"]["securitySchemes"]
