"""Races between processes: however the requests interleave, a deal has one final result.

The threads use separate database connections, like separate web processes. SQLite serialises
all writes, so the row lock (`select_for_update`) only really works on PostgreSQL: these tests run
in CI's PostgreSQL pass and are skipped on the embedded default, unless
GOUJI_REQUIRE_INTEGRATION=1 says PostgreSQL must be there.
"""

from __future__ import annotations

import os
import threading

import pytest
from django.db import IntegrityError, connection, connections, transaction

from matches.kernel.reports import ResultError
from matches.models import Confirmation, DealReport, Event
from matches.permissions import Actor
from matches.results.confirm import confirm_report, confirm_report_by_id
from matches.results.correct import correct_result
from matches.results.deals import deal_for
from matches.results.submit import submit_report

from .conftest import STRING_THREE_A, SUMMARY

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def require_postgres():
    if connection.vendor != "postgresql":
        if os.environ.get("GOUJI_REQUIRE_INTEGRATION") == "1":
            pytest.fail("the concurrency tests need DATABASE_URL pointing at PostgreSQL")
        pytest.skip("needs PostgreSQL (row locks); set DATABASE_URL")


def race(*calls):
    """Run the calls at the same moment in threads; return each one's result or exception."""
    barrier = threading.Barrier(len(calls))
    outcomes: list = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            outcomes[index] = call()
        except Exception as exc:  # the outcome is what the test inspects
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return outcomes


def test_the_database_refuses_a_second_final_report(setup):
    """Holds on every backend: the partial unique index is the last line of defence."""
    # Rows written around the results service on purpose: the test is about what the database
    # itself refuses when a writer skips the service's lock and checks.
    deal = deal_for(setup.match, 1)
    DealReport.objects.create(deal=deal, state="final", summary=SUMMARY, verdict={})
    with pytest.raises(IntegrityError), transaction.atomic():
        DealReport.objects.create(deal=deal, state="final", summary=STRING_THREE_A, verdict={})
    DealReport.objects.create(deal=deal, state="superseded", summary=SUMMARY, verdict={})
    assert DealReport.objects.final().count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_two_confirmations_race_and_one_final_result_exists(require_postgres, setup, attempt):
    """The captain taps 'confirm' on two phones at once, while the second referee confirms too."""
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="captain")
    report, _ = submit_report(
        deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), "k"
    )
    confirm_report(report, Actor(user=setup.captain_a), True)  # union A has agreed
    outcomes = race(
        lambda: confirm_report(
            DealReport.objects.get(pk=report.pk), Actor(user=setup.captain_b), True
        ),
        lambda: confirm_report(
            DealReport.objects.get(pk=report.pk), Actor(user=setup.captain_b), True
        ),
    )
    assert all(isinstance(o, DealReport) for o in outcomes), outcomes
    assert DealReport.objects.final().filter(deal=report.deal).count() == 1
    assert Confirmation.objects.filter(report=report).count() == 2


@pytest.mark.parametrize("attempt", range(3))
def test_agree_and_disagree_race_and_the_first_one_wins(require_postgres, setup, attempt):
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="referee")
    report, _ = submit_report(
        deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee), "k"
    )
    outcomes = race(
        lambda: confirm_report(
            DealReport.objects.get(pk=report.pk), Actor(user=setup.second_referee), True
        ),
        lambda: confirm_report(
            DealReport.objects.get(pk=report.pk), Actor(user=setup.organiser), False
        ),
    )
    winners = [o for o in outcomes if isinstance(o, DealReport)]
    losers = [o for o in outcomes if isinstance(o, ResultError)]
    assert len(winners) == 1 and len(losers) == 1 and losers[0].code == "not_pending"
    report.refresh_from_db()
    assert report.state == winners[0].state
    assert Confirmation.objects.filter(report=report).count() == 1
    assert DealReport.objects.final().filter(deal=report.deal).count() == (report.state == "final")


@pytest.mark.parametrize("attempt", range(3))
def test_two_final_reports_race_and_one_is_refused(require_postgres, setup, attempt):
    """No confirmation needed: two referees submit different results at the same moment."""
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="none")
    deal = deal_for(setup.match, 1)
    outcomes = race(
        lambda: submit_report(deal, SUMMARY, None, Actor(user=setup.referee), "a"),
        lambda: submit_report(deal, STRING_THREE_A, None, Actor(user=setup.second_referee), "b"),
    )
    stored = [o for o in outcomes if isinstance(o, tuple)]
    refused = [o for o in outcomes if isinstance(o, ResultError)]
    assert len(stored) == 1 and len(refused) == 1, outcomes
    assert refused[0].status == 409 and refused[0].code == "already_final"
    assert DealReport.objects.final().filter(deal=deal).count() == 1
    assert DealReport.objects.filter(deal=deal).count() == 1


def test_a_double_tap_with_one_key_stores_one_report(require_postgres, setup):
    deal = deal_for(setup.match, 1)
    outcomes = race(
        *[
            (lambda: submit_report(deal, SUMMARY, None, Actor(user=setup.referee), "tap"))
            for _ in range(3)
        ]
    )
    reports = {o[0].pk for o in outcomes if isinstance(o, tuple)}
    assert len(reports) == 1, outcomes
    assert DealReport.objects.filter(deal=deal).count() == 1


@pytest.mark.parametrize("attempt", range(5))
def test_a_confirmation_and_a_fixed_report_race(require_postgres, setup, attempt):
    """Issue 19: a confirmation locks its report, not the deal. The referee sends a fixed report
    (which supersedes the pending one) while the second referee confirms the first: either the
    confirmation wins (the fixed report is refused: a final result exists) or the fixed report
    wins (the confirmation finds nothing pending). Never a pending report next to a final one."""
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="referee")
    deal = deal_for(setup.match, 1)
    report, _ = submit_report(deal, SUMMARY, None, Actor(user=setup.referee), "k1")
    outcomes = race(
        lambda: confirm_report_by_id(report.pk, Actor(user=setup.second_referee), True),
        lambda: submit_report(deal, STRING_THREE_A, None, Actor(user=setup.referee), "k2"),
    )
    confirmed, fixed = outcomes
    states = sorted(DealReport.objects.filter(deal=deal).values_list("state", flat=True))
    if isinstance(confirmed, DealReport):
        assert isinstance(fixed, ResultError) and fixed.code == "already_final", outcomes
        assert states == ["final"]
    else:
        assert isinstance(confirmed, ResultError) and confirmed.code == "not_pending", outcomes
        assert isinstance(fixed, tuple) and fixed[1] is True
        assert states == ["pending", "superseded"]
    assert DealReport.objects.final().filter(deal=deal).count() <= 1


@pytest.mark.parametrize("attempt", range(5))
def test_a_confirmation_and_a_correction_race(require_postgres, setup, attempt):
    """The organiser corrects while the second referee confirms: the correction is the final
    result either way, and it names the report it replaces when the confirmation came first."""
    Event.objects.filter(pk=setup.event.pk).update(result_confirmation="referee")
    deal = deal_for(setup.match, 1)
    report, _ = submit_report(deal, SUMMARY, None, Actor(user=setup.referee), "k1")
    confirmed, correction = race(
        lambda: confirm_report_by_id(report.pk, Actor(user=setup.second_referee), True),
        lambda: correct_result(
            deal, STRING_THREE_A, None, Actor(user=setup.organiser), "wrong finish"
        ),
    )
    assert isinstance(correction, DealReport), correction
    final = DealReport.objects.final().get(deal=deal)
    assert final.pk == correction.pk
    report.refresh_from_db()
    assert report.state == "superseded"
    if isinstance(confirmed, DealReport):
        assert final.replaces_id == report.pk
    else:
        assert isinstance(confirmed, ResultError) and confirmed.code == "not_pending"
