"""The real path: a task goes through Redis, runs in a worker process, and lands in PostgreSQL.

Runs when CELERY_BROKER_URL and DATABASE_URL are set (as `.ci/run` does, with a worker started
against this test database). On the embedded default it is skipped, unless
GOUJI_REQUIRE_INTEGRATION=1 says the services must be there.
"""

from __future__ import annotations

import os
import time
import uuid

import pytest
from django.conf import settings
from django.db import connection

from matches.models import WorkerProbe
from matches.tasks import probe_worker

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def require_services():
    real = not settings.CELERY_TASK_ALWAYS_EAGER and connection.vendor == "postgresql"
    if not real:
        if os.environ.get("GOUJI_REQUIRE_INTEGRATION") == "1":
            pytest.fail("integration tests need DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL")
        pytest.skip("needs PostgreSQL, Redis and a Celery worker (run .ci/run)")


def wait_for(predicate, seconds=30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    return predicate()


def test_a_task_runs_in_a_worker_process_and_reaches_postgres():
    token = uuid.uuid4().hex
    probe_worker.delay(token)
    probe = wait_for(lambda: WorkerProbe.objects.filter(token=token).first())
    assert probe is not None, "the worker never wrote the probe row"
    assert probe.worker_pid != os.getpid()


def test_running_the_probe_twice_changes_nothing():
    token = uuid.uuid4().hex
    probe_worker.delay(token)
    first = wait_for(lambda: WorkerProbe.objects.filter(token=token).first())
    probe_worker.delay(token)
    time.sleep(1)
    assert WorkerProbe.objects.filter(token=token).count() == 1
    assert WorkerProbe.objects.get(token=token).pk == first.pk
