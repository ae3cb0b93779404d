"""Seasons tests read ratings straight after a round's standings refresh, which queues the
rating task after commit: the computations run in-process here, also in CI's pass with a real
worker (`eager_tasks`, tests/conftest.py), or the worker would answer after the assertion."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def computations_in_process(eager_tasks):
    """Every seasons test: Celery tasks run eagerly (see the module's docstring)."""
