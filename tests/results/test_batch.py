"""Batch submission (issue 19): several deals of one table in one request, all or nothing per
deal, each with its own idempotency key (matches/api/batch.py)."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from matches import tasks
from matches.models import DealReport, Event, RefereeLink

from .conftest import BAD_FINISH, STRING_THREE_A, SUMMARY
from .test_api import link_client, token_client

pytestmark = pytest.mark.django_db


def batch_url(table) -> str:
    return f"/api/v1/tables/{table.pk}/reports/batch"


def send(client, table, deals):
    return client.post(
        batch_url(table), data=json.dumps({"deals": deals}), content_type="application/json"
    )


def deal(number, key, summary=SUMMARY):
    return {"number": number, "idempotency_key": key, "summary": summary}


@pytest.fixture
def final_at_once(setup):
    """Results are final when reported, so that deal 2 may follow deal 1 in the same batch."""
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation=Event.Confirmation.NONE)
    return setup


def stored(setup) -> dict[int, list[str]]:
    rows = DealReport.objects.filter(deal__match=setup.match).order_by("deal__number", "pk")
    result: dict[int, list[str]] = {}
    for number, state in rows.values_list("deal__number", "state"):
        result.setdefault(number, []).append(state)
    return result


def test_a_batch_stores_every_deal_in_order_of_deal_number(final_at_once):
    setup = final_at_once
    # Sent out of order: deal 2 (R35: its previous deal must be final) is stored after deal 1.
    response = send(
        link_client(setup.link),
        setup.table,
        [deal(2, "b2", STRING_THREE_A), deal(1, "b1"), deal(3, "b3")],
    )
    assert response.status_code == 200, response.content
    results = response.json()["results"]
    assert [r["number"] for r in results] == [2, 1, 3]  # the answer keeps the order sent
    assert [r["status"] for r in results] == [201, 201, 201]
    assert all(r["report"]["state"] == "final" and not r["replayed"] for r in results)
    assert stored(setup) == {1: ["final"], 2: ["final"], 3: ["final"]}
    assert DealReport.objects.filter(idempotency_key="b2").get().deal.number == 2


def test_a_refused_deal_stores_nothing_and_the_others_stay(final_at_once):
    setup = final_at_once
    response = send(
        link_client(setup.link),
        setup.table,
        [deal(1, "p1"), deal(2, "p2", BAD_FINISH), deal(3, "p3")],
    )
    assert response.status_code == 200
    first, second, third = response.json()["results"]
    assert first["status"] == 201
    assert second["status"] == 422 and second["error"]["code"] == "inconsistent_result"
    # Deal 3's tributes come from deal 2, which has no result: refused too (R35).
    assert third["status"] == 409 and third["error"]["code"] == "previous_deal_open"
    assert third["error"]["rule"] == "R35"
    assert stored(setup) == {1: ["final"]}


def test_sending_the_same_batch_again_replays_the_stored_deals(final_at_once):
    setup = final_at_once
    client = link_client(setup.link)
    batch = [deal(1, "r1"), deal(2, "r2", BAD_FINISH)]
    send(client, setup.table, batch)
    # The phone never saw the answer and sends everything again, with deal 2 fixed.
    again = send(client, setup.table, [deal(1, "r1"), deal(2, "r2b", STRING_THREE_A)])
    first, second = again.json()["results"]
    assert first["status"] == 200 and first["replayed"] is True
    assert second["status"] == 201
    assert stored(setup) == {1: ["final"], 2: ["final"]}
    # A third time: both are replays, nothing new is stored.
    third = send(client, setup.table, [deal(1, "r1"), deal(2, "r2b", STRING_THREE_A)])
    assert [r["status"] for r in third.json()["results"]] == [200, 200]
    assert DealReport.objects.filter(deal__match=setup.match).count() == 2
    # A key sent again with another result is refused for that deal alone.
    reused = send(client, setup.table, [deal(1, "r1", STRING_THREE_A)])
    (answer,) = reused.json()["results"]
    assert answer["status"] == 422 and answer["error"]["code"] == "idempotency_key_reused"


def test_a_deal_follows_one_that_awaits_its_captains_in_the_same_batch(setup):
    # Captains confirm (the setup's event): deal 1 is pending, and deal 2 follows it (issue 28);
    # deal 4 has no deal 3 before it and is refused alone.
    response = send(
        token_client(setup.referee),
        setup.table,
        [deal(1, "c1"), deal(2, "c2", STRING_THREE_A), deal(4, "c4")],
    )
    first, second, fourth = response.json()["results"]
    assert first["status"] == 201 and first["report"]["state"] == "pending"
    assert second["status"] == 201 and second["report"]["state"] == "pending"
    assert fourth["status"] == 409 and fourth["error"]["code"] == "previous_deal_open"
    assert stored(setup) == {1: ["pending"], 2: ["pending"]}


@pytest.mark.tables(2)
def test_a_referee_reports_only_at_their_own_table(final_at_once):
    setup = final_at_once
    Event.objects.filter(pk=setup.event.pk).update(published=True)
    other_table = setup.match_at(2).table
    other_link = RefereeLink.objects.create(table=other_table, created_by=setup.organiser)
    # A link of another table, a referee account not assigned here, a stranger: refused whole.
    for client in (
        link_client(other_link),
        token_client(setup.outsider),
        token_client(setup.captain_a),
    ):
        for deals in ([deal(1, "x1")], [deal(9, "x9"), deal(2, "x2")]):
            response = send(client, setup.table, deals)
            assert response.status_code == 403, response.content
            assert response.json()["error"] == {
                "code": "permission_denied",
                "message": "you do not referee this table",
            }
    assert send(APIClient(), setup.table, [deal(1, "x1")]).status_code == 401
    assert stored(setup) == {}
    # The other table's own link reports there; the table's assigned referee account here.
    assert send(link_client(other_link), other_table, [deal(1, "o1")]).status_code == 200
    assert send(token_client(setup.referee), setup.table, [deal(1, "x1")]).status_code == 200
    assert stored(setup) == {1: ["final"]}


def test_an_unpublished_events_table_is_not_found_for_a_stranger(setup):
    response = send(link_client(setup.link), setup.match.table, [deal(1, "u1")])
    assert response.status_code == 200  # its own link: a participant
    stranger = send(token_client(setup.outsider), setup.table, [deal(1, "u2")])
    assert stranger.status_code == 404


@pytest.mark.parametrize(
    "body",
    [
        [],
        {"deals": []},
        {"deals": "1"},
        {"deals": [{"number": 1}]},  # no idempotency key
        {"deals": [{"number": 0, "idempotency_key": "k"}]},
        {"deals": [{"number": True, "idempotency_key": "k"}]},
        {"deals": [{"number": 1, "idempotency_key": "k", "extra": 1}]},
        {"deals": [{"number": 1, "idempotency_key": "k" * 101}]},
        {"deals": [deal(1, f"k{n}") for n in range(65)]},
        {"deals": [], "more": 1},
    ],
)
def test_a_malformed_batch_stores_nothing(setup, body):
    response = link_client(setup.link).post(
        batch_url(setup.table), data=json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["error"]["code"] == "malformed"
    assert stored(setup) == {}


def test_a_batch_costs_a_bounded_number_of_queries(final_at_once, monkeypatch):
    """Authentication once, then three queries a deal once its row exists (lock the deal, read
    its earlier reports with the previous deal's final result, insert the report) and two for
    its entry in the event's result chain (read the head, insert the entry: issue 27); the
    first report of a match also writes the match's deal rows."""
    setup = final_at_once
    monkeypatch.setattr(tasks, "enqueue", lambda *args, **kwargs: None)
    monkeypatch.setattr("matches.receivers.enqueue", lambda *args, **kwargs: None)
    client = link_client(setup.link)
    send(client, setup.table, [deal(1, "q1")])  # the match's deal rows now exist
    with CaptureQueriesContext(connection) as context:
        response = send(client, setup.table, [deal(2, "q2"), deal(3, "q3")])
    assert [r["status"] for r in response.json()["results"]] == [201, 201]
    work = [
        q
        for q in context.captured_queries
        if q["sql"].split()[0].upper()
        not in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE", "ROLLBACK")
    ]
    assert len(work) <= 1 + (3 + 2) * 2, "\n".join(q["sql"][:120] for q in work)
