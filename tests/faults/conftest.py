"""Fault tests: real processes, PostgreSQL and Redis (CI's second pass).

Skipped on the embedded default (SQLite, eager Celery) unless GOUJI_REQUIRE_INTEGRATION=1 says
the services must be there, as `.ci/run` does in its second pass.
"""

from __future__ import annotations

import os
import time

import pytest
from django.conf import settings
from django.db import connection


@pytest.fixture
def require_services(db):
    real = (
        not settings.CELERY_TASK_ALWAYS_EAGER
        and connection.vendor == "postgresql"
        and settings.CELERY_BROKER_URL.startswith("redis://")
    )
    if not real:
        if os.environ.get("GOUJI_REQUIRE_INTEGRATION") == "1":
            pytest.fail("fault tests need DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis)")
        pytest.skip("needs PostgreSQL, Redis and real processes (run .ci/run)")


def wait_for(predicate, seconds=60.0, step=0.1):
    """The first truthy value of `predicate()` within `seconds`, else its last value."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    return predicate()


@pytest.fixture(autouse=True)
def no_kept_connections():
    """Live-server threads close their connection after each request here, so pytest-django can
    drop the test database at the end (a kept connection would block DROP DATABASE)."""
    from django.db import connections

    saved = connections.settings["default"].get("CONN_MAX_AGE", 0)
    connections.settings["default"]["CONN_MAX_AGE"] = 0
    yield
    connections.settings["default"]["CONN_MAX_AGE"] = saved
