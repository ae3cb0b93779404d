"""What the fault drills (`bench/festival.py --quick --faults`) found, held on every backend:

- a Redis restart made a referee's submission answer 500 after its result was committed (the
  on-commit cache invalidation raised): the cache now misses instead of failing;
- a database restart made the public pages answer 500: they answer 503 with Retry-After, like
  the API.
"""

from __future__ import annotations

import socket

import pytest
from django.core.cache import caches
from django.db import OperationalError
from django.test import override_settings

from matches.models import DealReport
from tests.personas import make_setup
from tests.results.conftest import SUMMARY


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens there once the socket is closed


def unreachable_redis() -> dict:
    return {
        "default": {
            "BACKEND": "gouji_tournament.cache.TolerantRedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port()}/0",
        }
    }


def test_the_cache_misses_instead_of_failing_while_redis_is_away():
    with override_settings(CACHES=unreachable_redis()):
        cache = caches.create_connection("default")
        assert cache.get("stamp", "missing") == "missing"
        assert cache.get_many(["a", "b"]) == {}
        assert cache.add("counter", 0, 10) is False
        assert cache.incr("counter") == 1  # a rate limit counts from one
        cache.set("stamp", "v1", 2)
        cache.delete_many(["stamp"])
        assert cache.delete("stamp") is False


@pytest.mark.django_db(transaction=True)
def test_a_submission_is_answered_while_redis_is_away(client):
    setup = make_setup()
    table = setup.table
    with override_settings(CACHES=unreachable_redis()):
        response = client.post(
            f"/api/v1/tables/{table.pk}/deals/1/reports",
            data={"summary": SUMMARY},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Referee {setup.link.token}",
            HTTP_IDEMPOTENCY_KEY="during-redis-restart",
        )
    assert response.status_code == 201, response.content
    assert DealReport.objects.filter(deal__match__table=table).count() == 1


@pytest.mark.django_db
def test_a_page_answers_503_while_the_database_is_away(client, monkeypatch):
    def database_down(*args, **kwargs):
        raise OperationalError("connection to server failed: Connection refused")

    monkeypatch.setattr("matches.views.public.visibility.public_events", database_down)
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert b"reconnecting to its database" in response.content
