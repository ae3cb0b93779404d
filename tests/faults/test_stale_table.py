"""A round is re-drawn while a stale client still holds the old table: a clear error, and nothing
is stored against any table. Runs on every backend (no real processes needed)."""

from __future__ import annotations

import json

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matches.api import results as results_api
from matches.draw import service as draw
from matches.models import Deal, DealReport, Round
from tests.personas import make_setup
from tests.results.conftest import SUMMARY

pytestmark = pytest.mark.django_db


def client_with(authorization: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=authorization)
    return client


def submit(client, table_id, number=1):
    return client.post(
        f"/api/v1/tables/{table_id}/deals/{number}/reports",
        data=json.dumps({"summary": SUMMARY}),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="stale-1",
    )


def test_a_client_of_the_old_draw_gets_a_clear_error_after_a_redraw(swiss):
    organiser = swiss.organiser  # results need no confirmation in this event
    round4 = draw.create_round(swiss.stage, seed=4)
    old_table = round4.tables.order_by("number").first()
    old_link = swiss.people.for_table(old_table).referee_link
    by_token = client_with("Token " + Token.objects.create(user=organiser).key)
    by_link = client_with("Referee " + old_link.token)
    assert by_token.get(f"/api/v1/tables/{old_table.pk}").status_code == 200

    draw.redraw_round(round4, seed=5)
    draw.publish_round(round4)

    response = submit(by_token, old_table.pk)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert "re-drawn" in response.json()["error"]["message"]
    response = submit(by_link, old_table.pk)
    assert response.status_code == 401
    assert "re-drawn" in response.json()["error"]["message"]
    assert not DealReport.objects.filter(deal__match__round=round4).exists()
    assert not Deal.objects.filter(match__round=round4).exists()


def test_a_redraw_landing_mid_request_stores_nothing(db, monkeypatch):
    """The re-draw commits after the API found the table but before the deal row exists: the
    deal would hang off a deleted match. The client gets a 409, not a 500."""
    setup = make_setup(result_confirmation="none")
    round_, table, organiser = setup.round, setup.table, setup.organiser
    found = results_api._visible_table

    def found_then_redrawn(table_id, actor):
        table = found(table_id, actor)
        Round.objects.get(pk=round_.pk).matches.all().delete()  # what the re-draw's _clear does
        return table

    monkeypatch.setattr(results_api, "_visible_table", found_then_redrawn)
    response = submit(client_with("Token " + Token.objects.create(user=organiser).key), table.pk)
    assert response.status_code == 409, response.content
    assert response.json()["error"]["code"] in ("deal_gone", "table_gone")
    assert not Deal.objects.exists() and not DealReport.objects.exists()
