"""Giog tests run their computations in-process. Events: tests/builder.py (`giog`, `build`)."""

from __future__ import annotations

import pytest


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """`with committed():` runs what the block queued for commit (signal, Celery tasks)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture(autouse=True)
def computations_in_process(eager_tasks):
    """The Giog tests read tallies and standings straight after a commit, so the Celery
    computations run in-process here, also in CI's pass with a real worker (`eager_tasks`)."""
