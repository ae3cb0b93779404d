"""Issue 17, finding 5: a correction is never lost or replayed wrongly through its
Idempotency-Key."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from matches.models import DealReport
from matches.permissions import Actor
from matches.results import correct
from matches.results.common import by_key, lock_deal
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from tests.results.conftest import STRING_THREE_A, SUMMARY

FIXED = {"format": "gouji-outcome/1", "finish": [2, 1, 3, 4, 5, 6], "points": []}


def _organiser(setup) -> APIClient:
    client = APIClient()
    client.force_authenticate(setup.organiser)
    return client


def _reported(setup, key: str = ""):
    deal = deal_for(setup.match, 1)
    report, _ = submit_report(deal, SUMMARY, None, Actor(user=setup.referee), key)
    return deal, report


def _correct(client, deal, body, key):
    return client.post(
        f"/api/v1/deals/{deal.pk}/corrections", body, format="json", HTTP_IDEMPOTENCY_KEY=key
    )


@pytest.mark.django_db
def test_a_correction_with_the_original_report_s_key_is_refused_not_swallowed(setup):
    deal, report = _reported(setup, key="same-key")
    response = _correct(_organiser(setup), deal, {"summary": FIXED, "reason": "记错了"}, "same-key")
    assert response.status_code == 422, response.content
    assert response.json()["error"]["code"] == "idempotency_key_reused"
    # Nothing was claimed to be stored: the organiser knows to send again with a new key.
    assert DealReport.objects.filter(deal=deal).count() == 1
    response = _correct(_organiser(setup), deal, {"summary": FIXED, "reason": "记错了"}, "new")
    assert response.status_code == 201
    assert DealReport.objects.final().get(deal=deal).kind == DealReport.Kind.CORRECTION


@pytest.mark.django_db
def test_a_retried_correction_returns_the_first_and_a_different_body_is_a_422(setup):
    deal, _ = _reported(setup)
    client = _organiser(setup)
    body = {"summary": FIXED, "reason": "记错了"}
    first = _correct(client, deal, body, "fix-1")
    again = _correct(client, deal, body, "fix-1")
    assert (first.status_code, again.status_code) == (201, 200)
    assert again["Idempotent-Replayed"] == "true"
    assert first.json()["report"]["id"] == again.json()["report"]["id"]
    for other in (
        {"summary": STRING_THREE_A, "reason": "记错了"},
        {"summary": FIXED, "reason": "另一个原因"},
    ):
        response = _correct(client, deal, other, "fix-1")
        assert response.status_code == 422, response.content
        assert response.json()["error"]["code"] == "idempotency_key_reused"
    assert DealReport.objects.filter(deal=deal, kind="correction").count() == 1
    # The same key and body for a report (not a correction) is refused the same way.
    response = APIClient()
    response.force_authenticate(setup.referee)
    answer = response.post(
        f"/api/v1/tables/{setup.table.pk}/deals/2/reports",
        {"summary": SUMMARY},
        format="json",
        HTTP_IDEMPOTENCY_KEY="r",
    )
    assert answer.status_code == 201
    answer = response.post(
        f"/api/v1/tables/{setup.table.pk}/deals/2/reports",
        {"summary": STRING_THREE_A},
        format="json",
        HTTP_IDEMPOTENCY_KEY="r",
    )
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "idempotency_key_reused"


@pytest.mark.django_db
def test_a_key_stored_at_the_same_moment_is_a_replay_not_a_500(setup, monkeypatch):
    """The unique-key violation of a concurrent retry (the other request committed between this
    one's look-up and its insert) answers with the stored correction."""
    deal, _ = _reported(setup)
    client = _organiser(setup)
    body = {"summary": FIXED, "reason": "记错了"}
    assert _correct(client, deal, body, "race").status_code == 201
    real = by_key
    calls = []

    def blind_first(*args, **kwargs):  # the first look-up misses, as in the race
        calls.append(1)
        return None if len(calls) == 1 else real(*args, **kwargs)

    monkeypatch.setattr(correct, "by_key", blind_first)
    client.raise_request_exception = True
    response = _correct(client, deal, body, "race")
    assert response.status_code == 200, response.content
    assert DealReport.objects.filter(deal=deal, kind="correction").count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks: PostgreSQL only")
def test_two_identical_corrections_at_the_same_moment(setup, eager_tasks, monkeypatch):
    """Both requests pass every check before either takes the deal's lock; the second waits for
    the first, then answers with its correction (before: an uncaught unique violation, a 500)."""
    deal, _ = _reported(setup)
    barrier = threading.Barrier(2, timeout=20)
    real_lock = lock_deal

    def lock_together(deal_id):
        barrier.wait()
        return real_lock(deal_id)

    monkeypatch.setattr(correct, "lock_deal", lock_together)
    statuses = []

    def send():
        try:
            statuses.append(
                _correct(
                    _organiser(setup), deal, {"summary": FIXED, "reason": "记错了"}, "twin"
                ).status_code
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(statuses) == [200, 201]
    assert DealReport.objects.filter(deal=deal, kind="correction").count() == 1
