"""A Celery worker killed with SIGKILL in the middle of the standings work loses nothing.

The test starts its own worker process on a Redis database and queue of its own (the shared CI
worker never sees these tasks), against pytest's PostgreSQL test database. It holds a row lock on
the last match so the worker is caught mid-way through a full recompute: some matches settled,
one waiting. Then SIGKILL:
- `child`: only the pool process running the task dies; the worker's main process sees the loss,
  `task_reject_on_worker_lost` puts the task back, and a fresh pool process runs it again;
- `worker`: the whole worker (main process and pool) dies; a new worker is started, and Redis
  hands out the unacknowledged task again after the visibility timeout (shortened here).
Afterwards the computation is done and its numbers equal a full recompute in this process.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from django.conf import settings
from django.db import connection
from kombu import Connection, Exchange, Queue

from matches import tasks
from matches.models import ComputationRun, DealTally, Match
from matches.standings import service as standings
from tests.builder import EventBuilder, computations_in_process
from tests.faults.conftest import wait_for
from tests.standings.test_tasks import derived_state, play_event, wipe

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
FAULTS_REDIS_DB = 13  # CI: broker 11, cache 12


def faults_broker_url() -> str:
    parts = urlsplit(settings.CELERY_BROKER_URL)
    return urlunsplit(parts._replace(path=f"/{FAULTS_REDIS_DB}"))


def database_url_of_tests() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class Worker:
    """A `celery worker` subprocess on its own queue, in its own process group."""

    def __init__(self, queue: str, log_path: Path):
        env = dict(
            os.environ,
            DATABASE_URL=database_url_of_tests(),
            DATABASE_CONN_MAX_AGE="0",
            PYTHONUNBUFFERED="1",
            CELERY_BROKER_URL=faults_broker_url(),
            CELERY_TASK_DEFAULT_QUEUE=queue,
            CELERY_BROKER_TRANSPORT_OPTIONS=json.dumps(
                {
                    "visibility_timeout": 3,
                    "unacked_restore_interval": 1,
                    "unacked_restore_throttle": 1,
                }
            ),
        )
        self.log = open(log_path, "ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "gouji_tournament",
                "worker",
                "--concurrency",
                "1",
                "--loglevel",
                "INFO",
                "-Q",
                queue,
                "-n",
                f"{queue}@%h",
                "--without-mingle",
                "--without-gossip",
                "--without-heartbeat",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def pool_children(self) -> list[int]:
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def kill_all(self) -> None:
        """SIGKILL to the main process and its pool: nothing gets to clean up."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill_all()
        self.log.close()


@pytest.fixture
def queue():
    name = f"faults-{uuid.uuid4().hex[:12]}"
    yield name
    import redis

    client = redis.Redis.from_url(faults_broker_url())
    client.delete(name)
    client.close()


@pytest.fixture
def workers(tmp_path, queue):
    started: list[Worker] = []

    def start() -> Worker:
        worker = Worker(queue, tmp_path / "worker.log")
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture
def match_lock():
    """Hold FOR UPDATE on a match row from a connection of our own, until released."""
    conn = psycopg.connect(database_url_of_tests().replace("postgres://", "postgresql://"))

    def take(match_id: int) -> None:
        conn.execute("SELECT id FROM matches_match WHERE id = %s FOR UPDATE", [match_id])

    take.release = conn.rollback
    yield take
    conn.rollback()
    conn.close()


def worker_waits_on_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE wait_event_type = 'Lock' AND datname = current_database()"
        )
        return cursor.fetchone()[0] > 0


@pytest.mark.parametrize("victim", ["child", "worker"])
def test_standings_survive_a_worker_killed_mid_recompute(
    require_services, queue, workers, match_lock, tmp_path, victim
):
    with computations_in_process():  # results queue computations: not to CI's worker
        b = play_event(
            lambda **kw: EventBuilder(**kw).register(),
            random.Random(17),
            rounds=2,
            unions=8,
            deals=2,
        )
    event = b.event
    # Expected: a full recompute here, then wiped so the worker must redo everything.
    standings.recompute_event(event.pk)
    expected = derived_state(event)
    wipe(event)
    match_ids = list(
        Match.objects.filter(round__event=event, table__isnull=False).values_list("pk", flat=True)
    )
    match_lock(match_ids[-1])  # the worker settles the matches in this order and waits here

    worker = workers()
    # Not through the app's own broker (CELERY_BROKER_URL is CI's): our Redis database.
    with Connection(faults_broker_url()) as broker:
        # Declared before the worker is up: Redis drops a message sent to an unbound exchange.
        Queue(queue, Exchange(queue, "direct"), routing_key=queue)(broker.default_channel).declare()
        tasks.recompute_event.apply_async(
            kwargs={"event_id": event.pk}, queue=queue, connection=broker
        )
    assert wait_for(worker_waits_on_lock, 30), (tmp_path / "worker.log").read_text()[-3000:]
    settled = DealTally.objects.filter(match__round__event=event).count()
    assert 0 < settled < len(expected["tallies"]), "the worker is not caught mid-way"

    if victim == "child":
        [child] = worker.pool_children()
        os.kill(child, signal.SIGKILL)
    else:
        worker.kill_all()
    match_lock.release()
    if victim == "worker":
        workers()

    def finished():
        run = ComputationRun.objects.filter(
            event=event, task="recompute_event", key="event"
        ).first()
        pending = ComputationRun.objects.filter(
            event=event, state__in=ComputationRun.PENDING
        ).exists()
        return run is not None and run.state == ComputationRun.State.DONE and not pending

    assert wait_for(finished, 90), (
        list(ComputationRun.objects.filter(event=event).values_list("task", "key", "state")),
        (tmp_path / "worker.log").read_text()[-3000:],
    )
    assert ComputationRun.objects.get(event=event, key="event").attempts >= 2
    assert derived_state(event) == expected
