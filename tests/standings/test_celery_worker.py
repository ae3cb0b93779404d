"""The computations through Redis in a real worker process, on PostgreSQL (CI's second pass).

A final result's signal queues the settlement; the worker settles the match, queues the
standings and writes the snapshots. The incremental numbers equal a full recompute done here.
Skipped on the embedded default, required when GOUJI_REQUIRE_INTEGRATION=1 (see .ci/run).
"""

from __future__ import annotations

import os
import random
import time

import pytest
from django.conf import settings
from django.db import connection

from matches import tasks
from matches.models import ComputationRun, Match, StandingsSnapshot
from matches.signals import deal_result_changed
from matches.standings import service as standings
from tests.standings.test_tasks import derived_state, random_finish, wipe

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def require_services():
    real = not settings.CELERY_TASK_ALWAYS_EAGER and connection.vendor == "postgresql"
    if not real:
        if os.environ.get("GOUJI_REQUIRE_INTEGRATION") == "1":
            pytest.fail("integration tests need DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL")
        pytest.skip("needs PostgreSQL, Redis and a Celery worker (run .ci/run)")


def wait_until_idle(event, seconds=60.0):
    """Until every computation of the event has run (none queued, running or retrying)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        runs = ComputationRun.objects.filter(event=event)
        if runs.exists() and not runs.filter(state__in=ComputationRun.PENDING).exists():
            return True
        time.sleep(0.2)
    return False


def test_the_worker_settles_results_and_writes_standings(build):
    rng = random.Random(5)
    b = build(unions=4, deals=2)
    round_ = b.round([(0, 1), (2, 3)])
    for match in round_.matches.all():
        for number in (1, 2):
            report = b.final(match, number, random_finish(rng), points=[1])
            deal_result_changed.send(sender=None, deal_id=report.deal_id)  # autocommit: sent now
    assert wait_until_idle(b.event), list(
        ComputationRun.objects.values_list("task", "key", "state")
    )
    failed = ComputationRun.objects.filter(event=b.event, state="failed")
    assert not failed.exists(), list(failed.values_list("task", "error"))
    assert not Match.objects.filter(round=round_, points_a__isnull=True).exists()
    snapshot = StandingsSnapshot.objects.get(round=round_, kind="unions", scope="event")
    assert snapshot.unfinished == 0 and len(snapshot.rows) == 4
    from_worker = derived_state(b.event)

    # The same numbers from a full recompute here, in the test process.
    wipe(b.event)
    standings.recompute_event(b.event.pk)
    assert derived_state(b.event) == from_worker

    # Queued twice more through the broker: nothing changes.
    tasks.enqueue(tasks.recompute_event, b.event.pk, "event", {"event_id": b.event.pk})
    tasks.enqueue(
        tasks.update_standings, b.event.pk, "standings", {"event_id": b.event.pk, "from_round": 1}
    )
    assert wait_until_idle(b.event)
    assert derived_state(b.event) == from_worker
