"""Standings tests run their computations in-process. Events: tests/builder.py (`build`)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def eager_celery(request):
    """Run tasks in-process for these tests, also in CI's pass with a real broker: the tests
    hold their data in an uncommitted transaction that a worker could not see. The integration
    test (marked) uses the real worker."""
    if "integration" in request.keywords:
        yield
        return
    from gouji_tournament.celery import app

    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved
