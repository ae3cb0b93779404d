"""PostgreSQL restarts while referees submit: every deal is recorded exactly once.

The restart must not disturb anybody else on the machine, so the test runs a PostgreSQL server
of its own (initdb into a temporary directory, as the `postgres` user when run as root), migrates
it, seeds tables with referee links, and serves the app from a `runserver --nothreading`
subprocess: one thread, one database connection kept between requests (CONN_MAX_AGE), so the
server has to notice the dead connection after the restart (CONN_HEALTH_CHECKS).

Referee clients (one thread per table) submit their deals in order; every request carries an
Idempotency-Key and is sent again, same key, after a connection error or a 5xx. Meanwhile the
server's database is stopped hard (`-m immediate`, like a crash), started again, then restarted
cleanly. Afterwards each deal has exactly one report, and it is final.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import psycopg
import pytest

from tests.faults.cluster import PrivateCluster, free_port
from tests.faults.conftest import wait_for

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
TABLES = 6
DEALS = 4
SUMMARY = {"format": "gouji-outcome/1", "finish": [1, 2, 3, 4, 5, 6], "points": [3]}

SEED = """
import json
from tests.builder import EventBuilder
b = EventBuilder(name="restart", unions=2 * {tables}, deals={deals}, confirmation="none",
                 published=False).register()
round_ = b.round([(2 * k, 2 * k + 1) for k in range({tables})])
tables = [{{"table": m.table.pk, "token": b.people.for_table(m.table).referee_link.token}}
          for m in b.matches(round_)]
print("SEEDED " + json.dumps(tables))
"""


@pytest.fixture
def cluster():
    if os.environ.get("GOUJI_REQUIRE_INTEGRATION") != "1" and not os.environ.get("DATABASE_URL"):
        pytest.skip("restarts a PostgreSQL server (run .ci/run)")
    cluster = PrivateCluster()
    yield cluster
    cluster.destroy()


def app_env(database_url: str) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CELERY_BROKER_URL", "CACHE_URL", "DATABASE_CONN_MAX_AGE")
    }
    # Eager computations in the server process; a connection kept between requests.
    return dict(
        env,
        DATABASE_URL=database_url,
        DATABASE_CONN_MAX_AGE="600",
        DEBUG="False",
        PYTHONUNBUFFERED="1",
    )


@pytest.fixture
def server(cluster, tmp_path):
    with psycopg.connect(
        cluster.url("postgres").replace("postgres://", "postgresql://"), autocommit=True
    ) as conn:
        conn.execute("CREATE DATABASE gouji")
    env = app_env(cluster.url("gouji"))
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    seeded = subprocess.run(
        [*manage, "shell", "-c", SEED.format(tables=TABLES, deals=DEALS)],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    tables = json.loads(seeded.split("SEEDED ", 1)[1])
    port = free_port()
    log = open(tmp_path / "server.log", "wb")
    process = subprocess.Popen(
        [*manage, "runserver", "--noreload", "--nothreading", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"

    def up():
        try:
            urllib.request.urlopen(base + "/api/schema/", timeout=5)
            return True
        except (urllib.error.URLError, OSError):
            return False

    assert wait_for(up, 60, 0.2), (tmp_path / "server.log").read_text()[-2000:]
    yield base, tables, cluster
    process.terminate()
    process.wait(timeout=20)
    log.close()


class Referee(threading.Thread):
    """Submits deals 1..DEALS of one table; resends with the same key until it gets an answer."""

    def __init__(self, base: str, table: dict):
        super().__init__(daemon=True)
        self.base, self.table = base, table
        self.answers: list[int] = []  # final status per deal
        self.retries = 0
        self.statuses: list[int | str] = []  # every failed attempt

    def submit(self, number: int) -> int:
        url = f"{self.base}/api/v1/tables/{self.table['table']}/deals/{number}/reports"
        key = uuid.uuid4().hex
        body = json.dumps({"summary": SUMMARY}).encode()
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            request = urllib.request.Request(
                url,
                data=body,
                method="POST",
                headers={
                    "Content-Type": "application/json",
                    "Idempotency-Key": key,
                    "Authorization": "Referee " + self.table["token"],
                },
            )
            try:
                with urllib.request.urlopen(request, timeout=15) as response:
                    return response.status
            except urllib.error.HTTPError as error:
                if error.code < 500:
                    return error.code
                self.statuses.append(error.code)
            except (urllib.error.URLError, OSError) as error:
                self.statuses.append(type(error).__name__)
            self.retries += 1
            time.sleep(0.2)
        return 0

    def run(self):
        for number in range(1, DEALS + 1):
            self.answers.append(self.submit(number))
            time.sleep(0.3)  # the referee writes the next deal down


def test_every_deal_is_recorded_once_across_postgres_restarts(server):
    base, tables, cluster = server
    referees = [Referee(base, table) for table in tables]
    for referee in referees:
        referee.start()
    reports = f"{cluster.url('gouji')}".replace("postgres://", "postgresql://")

    def stored() -> int:
        try:
            with psycopg.connect(reports) as conn:
                row = conn.execute("SELECT count(*) FROM matches_dealreport").fetchone()
                return row[0] if row else 0
        except psycopg.OperationalError:
            return 0

    assert wait_for(lambda: stored() >= TABLES, 60, 0.05)
    cluster.stop("immediate")  # a crash: every connection dies at once
    time.sleep(1.5)  # referees keep trying meanwhile
    cluster.start()
    assert wait_for(lambda: stored() >= TABLES * 2, 60, 0.05)
    cluster.restart()  # a clean restart under load
    for referee in referees:
        referee.join(timeout=120)

    assert all(not referee.is_alive() for referee in referees)
    for referee in referees:
        # 201 created, or 200 when a resend found the report already stored.
        assert all(status in (200, 201) for status in referee.answers), (
            referee.answers,
            referee.statuses,
        )
        assert len(referee.answers) == DEALS
        # The outage was seen as 503 or a refused connection, never as a 500 page.
        assert 500 not in referee.statuses, referee.statuses
    assert sum(referee.retries for referee in referees) > 0, "the restarts went unnoticed"

    with psycopg.connect(reports) as conn:
        rows = conn.execute("""
            SELECT d.match_id, d.number, count(r.id),
                   count(r.id) FILTER (WHERE r.state = 'final')
            FROM matches_deal d LEFT JOIN matches_dealreport r ON r.deal_id = d.id
            GROUP BY d.match_id, d.number""").fetchall()
    assert len(rows) == TABLES * DEALS
    assert all(count == 1 and final == 1 for _match, _number, count, final in rows), rows
