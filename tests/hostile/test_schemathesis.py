"""Fuzz the whole API from its own OpenAPI schema (schemathesis, in-process on the WSGI app).

Every operation of /api/schema/ gets generated requests, valid and invalid: anonymous, as an
organiser (DRF token) and with a referee link. Path ids point at real rows of a published event, so the fuzzer reaches
the code behind the 404s. Checked on every response: no 5xx, the status code is documented, the
content type and the body match the documented response schema.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from matches.models import DealReport
from matches.permissions import Actor
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from tests.personas import make_setup
from tests.results.conftest import SUMMARY

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def api_operations():
    from gouji_tournament.wsgi import application

    schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
    return [result.ok() for result in schema.get_all_operations()]


@pytest.fixture
def in_process_requests():
    """Schemathesis calls the WSGI app directly, so Django's request signals run; like Django's
    test client, keep them from closing the test's connection (on PostgreSQL, inside the test's
    transaction, close_old_connections would close it)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def world(db, settings, in_process_requests):
    """A published event with a table, a final and a pending report, and an organiser."""
    settings.RATE_LIMITS = {
        "api_token_failures": {"limit": 10**6},
        "referee_token_requests": {"limit": 10**6},
    }
    setup = make_setup(published=True, result_confirmation="referee")
    round_, table, match, event = setup.round, setup.table, setup.match, setup.event
    organiser, referee, link = setup.organiser, setup.referee, setup.link
    final = setup.builder.result(match, 1, SUMMARY)  # reported, then confirmed by the link
    pending, _ = submit_report(deal_for(match, 2), SUMMARY, None, Actor(user=referee), "seed-2")
    return {
        "ids": {
            "event_id": event.pk,
            "table_id": table.pk,
            "deal_id": final.deal_id,
            "report_id": pending.pk,
            "number": round_.number,
        },
        "final": final,
        "token": Token.objects.create(user=organiser).key,
        "link": link.token,
    }


def aim_at_real_rows(case, world) -> None:
    for name in list(case.path_parameters or {}):
        if name in world["ids"] and name != "number":
            case.path_parameters[name] = world["ids"][name]


HYPOTHESIS = settings(
    max_examples=15, deadline=None, suppress_health_check=list(HealthCheck), database=None
)


def fuzz(world, headers: dict) -> list[str]:
    """Run every operation's generated cases; return the operations it ran."""
    ran, failures = [], []
    for operation in api_operations():

        @given(case=operation.as_strategy())
        @HYPOTHESIS
        def run(case):
            aim_at_real_rows(case, world)
            case.call_and_validate(headers=headers, checks=CHECKS)

        try:
            run()
        except Exception as failure:  # collect every operation's failures, then report them all
            failures.append(f"{operation.label}: {failure}")
        ran.append(operation.label)
    assert not failures, "\n\n".join(failures)
    return ran


@pytest.mark.django_db
def test_api_anonymous(world):
    assert len(fuzz(world, {})) >= 12


@pytest.mark.django_db
def test_api_as_organiser(world):
    assert len(fuzz(world, {"Authorization": "Token " + world["token"]})) >= 12
    # Whatever was sent, at most one final result per deal.
    for deal_id in DealReport.objects.values_list("deal_id", flat=True).distinct():
        assert DealReport.objects.final().filter(deal_id=deal_id).count() <= 1


@pytest.mark.django_db
def test_api_with_a_referee_link(world):
    assert len(fuzz(world, {"Authorization": "Referee " + world["link"]})) >= 12
