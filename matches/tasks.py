"""Celery tasks. Each takes ids (never objects), is idempotent and safe to re-run."""
from __future__ import annotations

import os

from celery import shared_task


@shared_task
def probe_worker(token: str) -> int:
    """Record that a worker ran this task; re-running with the same token changes nothing."""
    from matches.models import WorkerProbe

    probe, _ = WorkerProbe.objects.get_or_create(token=token, defaults={"worker_pid": os.getpid()})
    return probe.worker_pid
