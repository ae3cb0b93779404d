"""Issue 8: a whole festival on PostgreSQL + Redis + gunicorn + 2 Celery workers, over HTTP.

    /work/main/.venv/bin/python bench/festival.py --quick      # 120 unions, 2 rounds
    /work/main/.venv/bin/python bench/festival.py              # 3,334 unions (10,002 players), 9 rounds
    /work/main/.venv/bin/python bench/festival.py --quick --faults   # issue 27's fault drills

`--faults` (bench/festival_faults.py) runs the app on a private PostgreSQL cluster and a Redis
with an append-only file, kills a Celery worker, restarts Redis and PostgreSQL while round 1 is
reported, keeps one table's phone offline for the whole match, and prints the deals lost and
duplicated and whether the standings equal a full recompute.

Needs `apt-get install -y nginx wrk` (Debian) and gunicorn (requirements.txt). Starts what it
needs on 127.0.0.1 and stops it at the end: a fresh PostgreSQL database (on the
local server, `--pg` gives its admin URL), its own redis-server, gunicorn (gthread workers) for
the app, two `celery -A gouji_tournament worker` processes. For each Swiss round it draws and
publishes the round (service), then `--clients` simulated referees (threads, one keep-alive
HTTP session each) report every deal through the API with one referee link per table and
confirm it with a second referee link (event setting `result_confirmation = referee`); a tenth
of the deals are reported as full self-play logs. Meanwhile `wrk` reads the public standings
page with `--readers` connections, through nginx running the production configuration
(deploy/nginx.conf: the standings page from the file the Celery workers write after each
standings run, issue 28, `--no-standings-files` turns them off; other anonymous public pages
shared for a second; `--no-front-cache` sends the readers to gunicorn directly). It waits until the standings snapshot of the round has every
match, then closes the round.

Printed per round: time to draw, deals/s, submission latency p50/p95/p99 (submit and confirm),
the lag from the last confirmation to the complete standings, and the readers' figures. At the
end, two raw limits for comparison: plain psycopg inserts of the same report rows (single rows,
and whole deals as the API commits them), and nginx serving the rendered standings page as a
static file.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import queue
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
PYTHON = sys.executable
BIN = Path(PYTHON).parent
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 60) -> None:
    end = time.time() + timeout
    while time.time() < end:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * len(values)) - 1))
    return values[k]


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu(match) -> float:
    """Seconds of CPU (user + system) of the live processes for which `match(pid, stat, cmdline)`
    is true, read from /proc (Linux). Taken before and after a stretch of work, the difference
    is what those processes spent on it."""
    total = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # ended meanwhile
        fields = stat.rsplit(")", 1)[1].split()
        # fields[0] is the state (stat field 3): utime, stime are fields 14, 15; session 6.
        if match(int(entry), fields, cmdline):
            total += int(fields[11]) + int(fields[12])
    return total / CLOCK_TICKS


class Services:
    """The processes the benchmark starts; `stop()` ends exactly those."""

    def __init__(self, args, workdir: Path):
        self.args = args
        self.workdir = workdir
        self.procs: list[tuple[str, subprocess.Popen]] = []
        self.commands: dict[str, list[str]] = {}  # to start a process again (fault drills)
        self.cluster = None
        if args.faults:
            # The drill restarts PostgreSQL: a server of its own, never the machine's.
            from tests.faults.cluster import PrivateCluster

            self.cluster = PrivateCluster()
            args.pg = self.cluster.url("postgres").replace("postgres://", "postgresql://")
        self.db_name = f"{args.db_prefix}festival_{os.getpid()}"
        self.admin_url = args.pg
        self.db_url = re.sub(r"/[^/]*$", "/" + self.db_name, args.pg)
        self.redis_port = free_port()
        self.http_port = free_port()
        self.live_port = free_port()  # the live streams' ASGI server (issue 28)
        self.env = dict(os.environ)
        self.env.update(
            {
                "DATABASE_URL": self.db_url,
                "CELERY_BROKER_URL": f"redis://127.0.0.1:{self.redis_port}/0",
                "CACHE_URL": f"redis://127.0.0.1:{self.redis_port}/1",
                # Live push notices through Redis (pub/sub is not per database; matches/push.py)
                "LIVE_REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/2",
                "DEBUG": "False",
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "SECRET_KEY": "festival-bench-" + os.urandom(8).hex(),
                "DJANGO_SETTINGS_MODULE": "gouji_tournament.settings",
                "PYTHONPATH": str(ROOT),
                "LOG_LEVEL": "ERROR",
                # Issue 28: the workers write the public standings page there after each
                # standings run, and the front nginx serves it (deploy/nginx.conf).
                "STANDINGS_FILES_DIR": ""
                if args.no_standings_files
                else str(self.workdir / "standings"),
            }
        )
        if args.faults:
            # A killed worker's unacknowledged task is handed out again after this long.
            self.env["CELERY_BROKER_TRANSPORT_OPTIONS"] = json.dumps({"visibility_timeout": 15})
        self.env.update(dict(kv.split("=", 1) for kv in args.env))

    def start(self, name: str, cmd: list[str]) -> subprocess.Popen:
        self.commands[name] = cmd
        log = open(self.workdir / f"{name}.log", "a")
        proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append((name, proc))
        return proc

    def up(self) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.db_name}"')
        self.start(
            "redis",
            [
                "redis-server",
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.redis_port),
                "--save",
                "",
                *(
                    # The drill restarts the broker: queued tasks are kept on disk, as a
                    # deployment's broker must (deploy/README.md).
                    ["--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.workdir)]
                    if self.args.faults
                    else ["--appendonly", "no"]
                ),
            ],
        )
        wait_port(self.redis_port)
        subprocess.run(
            [PYTHON, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=self.env, check=True
        )
        self.start(
            "gunicorn",
            [
                str(BIN / "gunicorn"),
                "gouji_tournament.wsgi",
                "-b",
                f"127.0.0.1:{self.http_port}",
                "-w",
                str(self.args.http_workers),
                "-k",
                "gthread",
                "--threads",
                str(self.args.http_threads),
                "--keep-alive",
                "75",
                "--backlog",
                "2048",
            ],
        )
        # The live streams (/live/, server-sent events) as deploy/README.md runs them: an
        # ASGI server of its own beside the WSGI pages, reached through nginx's /live/.
        self.start(
            "live",
            [
                str(BIN / "gunicorn"),
                "gouji_tournament.asgi:application",
                "-b",
                f"127.0.0.1:{self.live_port}",
                "-w",
                "1",
                "-k",
                "uvicorn.workers.UvicornWorker",
                "--backlog",
                "4096",
            ],
        )
        for k in (1, 2):
            self.start(
                f"celery{k}",
                [
                    str(BIN / "celery"),
                    "-A",
                    "gouji_tournament",
                    "worker",
                    "-n",
                    f"festival{k}@%h",
                    "-P",
                    "solo",
                    "-l",
                    "WARNING",
                    "--without-gossip",
                    "--without-mingle",
                    "--without-heartbeat",
                ],
            )
        wait_port(self.http_port)
        self.wait_warm()

    def wait_warm(self, timeout: float = 90) -> None:
        """Wait until gunicorn's workers and the Celery workers have finished starting (their
        imports and the WSGI warm-up, gouji_tournament/wsgi.py): the master listens before its
        workers are ready, and a worker's start (about a second of CPU each) counted in round 1
        made the first round's CPU a deal a third higher than the second's. One-off start costs
        are not a deal's."""
        end = time.time() + timeout
        last = self.cpu()
        quiet = 0
        while time.time() < end and quiet < 2:
            time.sleep(0.5)
            now = self.cpu()
            busy = sum(now.get(k, 0.0) - last.get(k, 0.0) for k in ("gunicorn", "celery"))
            quiet = quiet + 1 if busy < 0.03 else 0
            last = now

    def restart(self, name: str, kill: bool = False) -> None:
        """End one process (SIGKILL: a crash) and start it again with the same command."""
        index, proc = next((k, p) for k, (n, p) in enumerate(self.procs) if n == name)
        os.killpg(proc.pid, signal.SIGKILL if kill else signal.SIGTERM)
        proc.wait(timeout=30)
        del self.procs[index]
        self.start(name, self.commands[name])
        if name == "redis":
            wait_port(self.redis_port)

    def cpu(self) -> dict:
        """CPU seconds so far of the app's processes (gunicorn's master and workers, each Celery
        worker: every process of their sessions) and of this database's PostgreSQL backends."""
        sessions = {
            proc.pid: name.rstrip("0123456789")
            for name, proc in self.procs
            if name.startswith(("gunicorn", "celery"))
        }
        result: dict[str, float] = {}
        for sid, name in sessions.items():
            result[name] = result.get(name, 0.0) + process_cpu(
                lambda pid, fields, cmdline, sid=sid: int(fields[3]) == sid
            )
        result["postgres"] = process_cpu(
            lambda pid, fields, cmdline: (
                cmdline.startswith("postgres: ") and f" {self.db_name} " in cmdline
            )
        )
        return result

    def front(self) -> int:
        """nginx in front of gunicorn with the production configuration, deploy/nginx.conf:
        anonymous public pages are shared for a second, everything else goes to the app."""
        root = self.workdir / "front"
        for sub in ("tmp", "cache"):
            (root / sub).mkdir(parents=True, exist_ok=True)
            (root / sub).chmod(0o777)  # nginx's workers are not root
        port = free_port()
        site = (ROOT / "deploy" / "nginx.conf").read_text()
        for name, value in {
            "__LISTEN__": f"127.0.0.1:{port}",
            "__SERVER_NAME__": "127.0.0.1",
            "__APP__": f"127.0.0.1:{self.http_port}",
            "__LIVE__": f"127.0.0.1:{self.live_port}",
            "__STATIC_ROOT__": str(ROOT / "static"),
            "__CACHE_DIR__": str(root / "cache"),
            "__STANDINGS_DIR__": str(self.workdir / "standings"),
            "__LOG_DIR__": str(root),
            "__TLS__": "",  # plain http on loopback
        }.items():
            site = site.replace(name, value)
        (root / "gouji.conf").write_text(site)
        temp = root / "tmp"
        # The main configuration a server's /etc/nginx/nginx.conf would give, on one worker
        # (as bench/festival-nginx.conf for the static-file limit).
        (root / "nginx.conf").write_text(f"""
worker_processes 1;
daemon off;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    sendfile on;  # as Debian's /etc/nginx/nginx.conf
    keepalive_requests 100000;
    client_body_temp_path {temp};
    proxy_temp_path {temp};
    fastcgi_temp_path {temp};
    uwsgi_temp_path {temp};
    scgi_temp_path {temp};
    include {root}/gouji.conf;
}}
""")
        self.start("front", ["nginx", "-p", str(root), "-c", str(root / "nginx.conf")])
        wait_port(port)
        return port

    def stop(self) -> None:
        for _name, proc in reversed(self.procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for _name, proc in reversed(self.procs):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        self.procs.clear()
        if not self.args.keep_db:
            import psycopg

            with psycopg.connect(self.admin_url, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        if self.cluster is not None and not self.args.keep_db:
            self.cluster.destroy()


# --- the event ----------------------------------------------------------------------------------


def build_event(unions: int, rounds: int, deals: int):
    from django.contrib.auth.models import User

    from matches.models import Event, Registration, Stage, Union, UnionMember
    from players.models import Player

    organiser, _ = User.objects.get_or_create(username="festival-organiser")
    event = Event.objects.create(
        name="青岛够级节（模拟）",
        start_date=datetime.date(2026, 7, 1),
        published=True,
        deals_per_match=deals,
        result_confirmation=Event.Confirmation.REFEREE,
    )
    event.organisers.add(organiser)
    stage = Stage.objects.create(
        event=event, order=1, name="瑞士制", format=Stage.Format.SWISS, planned_rounds=rounds
    )
    union_rows = Union.objects.bulk_create(
        [Union(event=event, name=f"联邦{k}") for k in range(1, unions + 1)], batch_size=2000
    )
    players = Player.objects.bulk_create(
        [Player(name=f"选手{k}") for k in range(1, 3 * unions + 1)], batch_size=2000
    )
    UnionMember.objects.bulk_create(
        [
            UnionMember(
                union=u, event=event, player=players[3 * i + k], order=k + 1, is_captain=k == 0
            )
            for i, u in enumerate(union_rows)
            for k in range(3)
        ],
        batch_size=2000,
    )
    Registration.objects.bulk_create(
        [
            Registration(event=event, union=u, seed=i + 1, status=Registration.Status.CHECKED_IN)
            for i, u in enumerate(union_rows)
        ],
        batch_size=2000,
    )
    return event, stage


def documents(count: int, seed: int) -> tuple[list[dict], list[dict]]:
    """Self-played deals: their records are play logs, their replays give valid summaries."""
    from matches.games.gouji.engine.replay import replay_verdict
    from matches.games.gouji.engine.sequence import outcome_from_replay
    from matches.kernel.games.registry import get_game

    game = get_game("gouji")
    logs, summaries = [], []
    for record in game.selfplay(count, seed):
        verdict = replay_verdict(record)
        if not (verdict.valid and verdict.complete):
            continue
        record = dict(record)
        record.pop("claimed", None)
        logs.append(record)
        summaries.append(outcome_from_replay(record, verdict))
    return logs, summaries


# --- one round ----------------------------------------------------------------------------------


class Referees:
    """`clients` threads, each a keep-alive session, reporting and confirming whole tables."""

    def __init__(
        self,
        port: int,
        clients: int,
        logs: list,
        summaries: list,
        log_share: float,
        seed: int,
        patient: bool = False,
    ):
        self.base = f"http://127.0.0.1:{port}"
        self.clients = clients
        self.logs, self.summaries = logs, summaries
        self.log_share = log_share
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        # Fault drills: an outage is waited out (connection refused, 5xx), as a phone would.
        self.patient = patient
        self.progress = 0  # deals reported and confirmed so far in the running round

    def run(self, tables: list[tuple[int, str, str]], deals: int) -> dict:
        import requests

        work: queue.Queue = queue.Queue()
        # Play logs go on deal 1 (a self-played record starts with no tributes owed): deal 1 of
        # `log_share * deals` of the tables makes `log_share` of all deals.
        log_tables = set(
            self.rng.sample(
                range(len(tables)), round(len(tables) * min(1.0, self.log_share * deals))
            )
        )
        for index, table in enumerate(tables):
            work.put((index, table))
        submit_ms, confirm_ms, errors = [], [], []
        last_confirm = [0.0]
        counts = {"deals": 0, "logs": 0, "retries": 0, "server_errors": 0}

        def post(session, path, token, body, key=None):
            headers = {"Authorization": f"Referee {token}", "Content-Type": "application/json"}
            if key:
                headers["Idempotency-Key"] = key
            data = json.dumps(body)
            for attempt in range(200 if self.patient else 20):
                started = time.perf_counter()
                try:
                    response = session.post(
                        self.base + path, data=data, headers=headers, timeout=120
                    )
                except requests.ConnectionError:
                    if not self.patient:
                        raise
                    counts["retries"] += 1
                    time.sleep(0.5)
                    continue
                elapsed = (time.perf_counter() - started) * 1000
                if self.patient and response.status_code >= 500:
                    counts["retries"] += 1
                    counts["server_errors"] += response.status_code == 500
                    if response.status_code == 500:
                        errors.append(f"{path}: 500 (retried)")
                    time.sleep(0.5)
                    continue
                if response.status_code in (429, 502, 503):
                    counts["retries"] += 1
                    time.sleep(float(response.headers.get("Retry-After", "0.5") or 0.5))
                    continue
                if response.status_code >= 500 and attempt < 3:
                    # Counted and shown: a 500 is a bug to fix, the retry only keeps the round
                    # going (the Idempotency-Key makes it safe).
                    counts["server_errors"] += 1
                    errors.append(f"{path}: {response.status_code} (retried)")
                    continue
                return response, elapsed
            return response, elapsed

        def client(number: int) -> None:
            session = requests.Session()
            rng = random.Random(number)
            while True:
                try:
                    index, (table_id, token_a, token_b) = work.get_nowait()
                except queue.Empty:
                    return
                for deal in range(1, deals + 1):
                    if deal == 1 and index in log_tables:
                        body = {"play_log": rng.choice(self.logs)}
                    else:
                        body = {"summary": rng.choice(self.summaries)}
                    response, ms = post(
                        session,
                        f"/api/v1/tables/{table_id}/deals/{deal}/reports",
                        token_a,
                        body,
                        key=f"t{table_id}d{deal}",
                    )
                    if response.status_code not in (200, 201):
                        errors.append(
                            f"submit {table_id}/{deal}: {response.status_code} {response.text[:300]}"
                        )
                        break
                    report_id = response.json()["report"]["id"]
                    response2, ms2 = post(
                        session, f"/api/v1/reports/{report_id}/confirm", token_b, {"agrees": True}
                    )
                    if response2.status_code != 200:
                        errors.append(
                            f"confirm {report_id}: {response2.status_code} {response2.text[:300]}"
                        )
                        break
                    with self.lock:
                        submit_ms.append(ms)
                        confirm_ms.append(ms2)
                        counts["deals"] += 1
                        self.progress += 1
                        counts["logs"] += "play_log" in body
                        last_confirm[0] = max(last_confirm[0], time.time())

        started = time.perf_counter()
        self.progress = 0
        threads = [threading.Thread(target=client, args=(k,)) for k in range(self.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = time.perf_counter() - started
        return {
            "seconds": seconds,
            "submit_ms": submit_ms,
            "confirm_ms": confirm_ms,
            "errors": errors,
            "last_confirm": last_confirm[0],
            **counts,
        }


class OpenLoop:
    """Issue 28's open loop: deals arrive at a fixed `rate` a second, whatever the server does,
    instead of as fast as `--clients` threads can push them. Deal k of the round is due at
    t0 + k / rate; the tables take turns (deal 1 of every table, then deal 2, ...), so a
    table's next deal is due len(tables) / rate seconds after its previous one, and waits for
    that one to be final if it is not (a table reports its deals in order). A pool of threads
    sends what is due; a deal's submit latency is counted from when it was due, so a server
    that falls behind shows it (no coordinated omission), and from the moment it was sent.

    Standings lag: a sampler reads the round's standings snapshot (its `unfinished` matches
    and `computed_at`) every 50 ms; the k-th match to become final (the confirmation of its
    last deal, as the referee got it) shows in the standings when a snapshot counts k finished
    matches. Lag = that snapshot's `computed_at` minus the match's final time."""

    def __init__(self, port, rate, logs, summaries, log_share, seed, pool=64):
        self.base = f"http://127.0.0.1:{port}"
        self.rate = rate
        self.logs, self.summaries = logs, summaries
        self.log_share = log_share
        self.rng = random.Random(seed)
        self.pool = pool
        self.progress = 0

    def run(self, tables: list[tuple[int, str, str]], deals: int, round_) -> dict:
        import concurrent.futures

        import requests

        local = threading.local()
        lock = threading.Lock()
        submit_ms, submit_sent_ms, confirm_ms, errors = [], [], [], []
        match_final: list[float] = []
        counts = {"deals": 0, "logs": 0, "retries": 0, "server_errors": 0}
        log_tables = set(
            self.rng.sample(
                range(len(tables)), round(len(tables) * min(1.0, self.log_share * deals))
            )
        )
        done = {(t[0], 0): threading.Event() for t in tables}
        for event in done.values():
            event.set()
        for table in tables:
            for deal in range(1, deals + 1):
                done[(table[0], deal)] = threading.Event()

        def session():
            if not hasattr(local, "session"):
                local.session = requests.Session()
            return local.session

        def post(path, token, body, key=None):
            headers = {"Authorization": f"Referee {token}", "Content-Type": "application/json"}
            if key:
                headers["Idempotency-Key"] = key
            data = json.dumps(body)
            for _attempt in range(20):
                started = time.perf_counter()
                response = session().post(self.base + path, data=data, headers=headers, timeout=120)
                if response.status_code in (429, 502, 503):
                    with lock:
                        counts["retries"] += 1
                    time.sleep(float(response.headers.get("Retry-After", "0.5") or 0.5))
                    continue
                return response, (time.perf_counter() - started) * 1000
            return response, (time.perf_counter() - started) * 1000

        def job(index, table, deal, due):
            table_id, token_a, token_b = table
            try:
                done[(table_id, deal - 1)].wait()
                rng = random.Random(table_id * 100 + deal)
                if deal == 1 and index in log_tables:
                    body = {"play_log": rng.choice(self.logs)}
                else:
                    body = {"summary": rng.choice(self.summaries)}
                response, ms = post(
                    f"/api/v1/tables/{table_id}/deals/{deal}/reports",
                    token_a,
                    body,
                    key=f"t{table_id}d{deal}",
                )
                late_ms = (time.perf_counter() - due) * 1000
                if response.status_code not in (200, 201):
                    with lock:
                        errors.append(
                            f"submit {table_id}/{deal}: {response.status_code} {response.text[:300]}"
                        )
                    return
                report_id = response.json()["report"]["id"]
                response2, ms2 = post(
                    f"/api/v1/reports/{report_id}/confirm", token_b, {"agrees": True}
                )
                if response2.status_code != 200:
                    with lock:
                        errors.append(
                            f"confirm {report_id}: {response2.status_code} {response2.text[:300]}"
                        )
                    return
                with lock:
                    submit_ms.append(late_ms)
                    submit_sent_ms.append(ms)
                    confirm_ms.append(ms2)
                    counts["deals"] += 1
                    counts["logs"] += "play_log" in body
                    self.progress += 1
                    if deal == deals:
                        match_final.append(time.time())
            except Exception as exc:  # counted, not raised: the round goes on
                with lock:
                    errors.append(f"deal {table_id}/{deal}: {type(exc).__name__}: {exc}")
            finally:
                done[(table_id, deal)].set()

        snapshots: list[tuple[float, int]] = []  # (computed_at as a Unix time, unfinished)
        sampling = threading.Event()

        def sampler():
            from django.db import connection

            from matches.models import StandingsSnapshot

            seen = None
            try:
                while not sampling.is_set():
                    row = (
                        StandingsSnapshot.objects.filter(round=round_, kind="unions", scope="event")
                        .values_list("computed_at", "unfinished")
                        .first()
                    )
                    if row and row != seen:
                        seen = row
                        snapshots.append((row[0].timestamp(), row[1]))
                    time.sleep(0.05)
            finally:
                connection.close()

        watcher = threading.Thread(target=sampler, daemon=True)
        watcher.start()
        schedule = [
            (index, table, deal)
            for deal in range(1, deals + 1)
            for index, table in enumerate(tables)
        ]
        self.progress = 0
        started = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.pool) as executor:
            for k, (index, table, deal) in enumerate(schedule):
                due = started + k / self.rate
                wait = due - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                executor.submit(job, index, table, deal, due)
        seconds = time.perf_counter() - started
        # The standings of the round's last matches: wait for the snapshot that counts them.
        end = time.time() + 60
        while time.time() < end and not (snapshots and snapshots[-1][1] == 0):
            time.sleep(0.05)
        sampling.set()
        watcher.join()
        lags = []
        total = len(tables)
        for k, final in enumerate(sorted(match_final), start=1):
            shown = next((at for at, unfinished in snapshots if total - unfinished >= k), None)
            lags.append(max(0.0, shown - final) if shown is not None else float("inf"))
        return {
            "seconds": seconds,
            "submit_ms": submit_ms,
            "submit_sent_ms": submit_sent_ms,
            "confirm_ms": confirm_ms,
            "errors": errors,
            "last_confirm": max(match_final, default=0.0),
            "lags": lags,
            **counts,
        }


def run_wrk(url: str, connections: int, seconds: int, threads: int = 2) -> dict:
    out = subprocess.run(
        [
            "wrk",
            "-t",
            str(threads),
            "-c",
            str(connections),
            "-d",
            f"{seconds}s",
            "--timeout",
            "30s",
            "-s",
            str(BENCH / "festival-wrk.lua"),
            url,
        ],
        capture_output=True,
        text=True,
    )
    match = re.search(r"FESTIVAL (.*)", out.stdout)
    if not match:
        return {"error": out.stdout + out.stderr}
    return {k: float(v) for k, v in (kv.split("=") for kv in match.group(1).split())}


class Readers(threading.Thread):
    """wrk on the public standings page, in windows of `window` s, while the round runs."""

    def __init__(self, url: str, connections: int, window: int):
        super().__init__(daemon=True)
        self.url, self.connections, self.window = url, connections, window
        self.results: list[dict] = []
        self.stopping = threading.Event()

    def run(self):
        while self.connections and not self.stopping.is_set():
            self.results.append(run_wrk(self.url, self.connections, self.window))

    def stop(self) -> dict:
        self.stopping.set()
        self.join()
        good = [r for r in self.results if "rps" in r]
        if not good:
            return {"error": self.results[-1] if self.results else "no run"}
        total = sum(r["requests"] for r in good)
        seconds = sum(r["seconds"] for r in good)
        return {
            "rps": total / seconds,
            "p95": max(r["p95"] for r in good),
            "p50": statistics.median(r["p50"] for r in good),
            "requests": total,
            "errors": sum(r["errors"] for r in good),
            "non2xx": sum(r["non2xx"] for r in good),
            "windows": len(good),
        }


def wait_for_standings(round_, timeout: float) -> tuple[float | None, float]:
    """Seconds from the round's last confirmation to a snapshot of the round with every match,
    both as the database recorded them (the server's clock), and the seconds this waited."""
    from django.db.models import Max

    from matches.models import Confirmation, StandingsSnapshot

    started = time.time()
    last = Confirmation.objects.filter(report__deal__match__round=round_).aggregate(last=Max("at"))[
        "last"
    ]
    while time.time() < started + timeout:
        snap = (
            StandingsSnapshot.objects.filter(round=round_, kind="unions", scope="event")
            .values("unfinished", "computed_at")
            .first()
        )
        if snap and snap["unfinished"] == 0 and last and snap["computed_at"] >= last:
            return (snap["computed_at"] - last).total_seconds(), time.time() - started
        time.sleep(0.05)
    return None, time.time() - started


# --- raw limits ---------------------------------------------------------------------------------


def raw_inserts(db_url: str, rows: int, clients: int, summary: dict) -> dict:
    """Plain psycopg, what the database alone can take: the report rows a deal stores, one row
    per transaction from `clients` connections, and the same rows in one batched transaction;
    then whole deals as the API commits them (the report in one transaction; its confirmation
    and the report's new state in a second)."""
    import psycopg
    from psycopg.types.json import Jsonb

    with psycopg.connect(db_url, autocommit=True) as conn:
        for table in ("report", "confirmation"):
            conn.execute(f"DROP TABLE IF EXISTS bench_raw_{table}")
            # Same columns, defaults, identity and indexes as the real table (no foreign keys).
            conn.execute(
                f"CREATE TABLE bench_raw_{table} (LIKE matches_{table.replace('report', 'dealreport')} INCLUDING ALL)"
            )
        row = conn.execute("SELECT min(id) FROM matches_deal").fetchone()
        assert row is not None  # an aggregate gives one row
        deal_id = row[0]
    columns = (
        "deal_id, kind, state, summary, play_log, verdict, score_a, score_b, via, "
        "idempotency_key, created_at, state_changed_at, reason, request_digest"
    )
    sql = (
        f"INSERT INTO bench_raw_report ({columns}) VALUES "
        "(%s, 'report', 'pending', %s, NULL, %s, 1, -1, 'referee_link', %s, now(), now(), '', '')"
    )
    confirm_sql = (
        "INSERT INTO bench_raw_confirmation (report_id, role, agrees, note, at, by_pin, reason) "
        "VALUES (%s, 'referee', true, '', now(), false, '')"
    )
    final_sql = (
        "UPDATE bench_raw_report SET state = 'final', state_changed_at = now() WHERE id = %s"
    )
    verdict = {"valid": True, "union_scores": {"A": 1, "B": -1}, "errors": [], "tributes": []}

    def in_parallel(work) -> float:
        counter = iter(range(rows))
        lock = threading.Lock()

        def worker():
            with psycopg.connect(db_url, autocommit=True) as conn:
                while True:
                    with lock:
                        k = next(counter, None)
                    if k is None:
                        return
                    work(conn, k)

        started = time.perf_counter()
        threads = [threading.Thread(target=worker) for _ in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return rows / (time.perf_counter() - started)

    def one_row(conn, k):
        conn.execute(sql, (deal_id, Jsonb(summary), Jsonb(verdict), f"raw{k}"))

    def one_deal(conn, k):
        # A deal of its own (no foreign key here): one final report per deal is a unique index.
        report_id = conn.execute(
            sql + " RETURNING id", (10**9 + k, Jsonb(summary), Jsonb(verdict), f"deal{k}")
        ).fetchone()[0]
        with conn.transaction():
            conn.execute(confirm_sql, (report_id,))
            conn.execute(final_sql, (report_id,))

    single = in_parallel(one_row)
    deals = in_parallel(one_deal)
    with psycopg.connect(db_url) as conn:
        started = time.perf_counter()
        with conn.cursor() as cur:
            cur.executemany(
                sql, [(deal_id, Jsonb(summary), Jsonb(verdict), f"batch{k}") for k in range(rows)]
            )
        conn.commit()
        batched = rows / (time.perf_counter() - started)
        conn.execute("DROP TABLE bench_raw_report")
        conn.execute("DROP TABLE bench_raw_confirmation")
        conn.commit()
    return {"per_commit": single, "batched": batched, "deals": deals}


def static_limit(html: bytes, workdir: Path, connections: int, seconds: int) -> dict:
    root = workdir / "nginx"
    (root / "www").mkdir(parents=True, exist_ok=True)
    (root / "tmp").mkdir(exist_ok=True)
    (root / "tmp").chmod(0o777)
    (root / "www" / "standings.html").write_bytes(html)
    port = free_port()
    conf = (
        (BENCH / "festival-nginx.conf")
        .read_text()
        .replace("__ROOT__", str(root))
        .replace("__PORT__", str(port))
    )
    (root / "nginx.conf").write_text(conf)
    proc = subprocess.Popen(
        ["nginx", "-p", str(root), "-c", str(root / "nginx.conf")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_port(port)
        return run_wrk(f"http://127.0.0.1:{port}/standings.html", connections, seconds)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=20)


def file_share(access_log: Path, path: str) -> tuple[int, int]:
    """The readers' GETs of `path` in the front nginx's access log, and how many of them nginx
    answered from the standings file: logged with the file's name (`$uri` after try_files) and
    no upstream, so no cache status (the last field is "-"; deploy/nginx.conf's format)."""
    total = from_file = 0
    needle = f'"GET {path}'
    try:
        with open(access_log, errors="replace") as log:
            for line in log:
                if needle in line:
                    total += 1
                    from_file += line.rstrip().endswith(" -") and f'"GET {path} ' not in line
    except OSError:
        pass
    return total, from_file


# --- main ---------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="120 unions, 2 rounds")
    parser.add_argument("--unions", type=int, default=None, help="3334 (120 with --quick)")
    parser.add_argument("--rounds", type=int, default=None, help="9 (2 with --quick)")
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--readers", type=int, default=200)
    parser.add_argument("--read-window", type=int, default=15, help="seconds of each wrk run")
    parser.add_argument("--log-share", type=float, default=0.1)
    parser.add_argument("--http-workers", type=int, default=3)
    parser.add_argument("--http-threads", type=int, default=8)
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--env", action="append", default=[], help="NAME=value for the app")
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument(
        "--db-prefix", default="", help="prefix of the scratch database's name (festival_<pid>)"
    )
    parser.add_argument(
        "--no-front-cache",
        action="store_true",
        help="readers go to gunicorn directly, not through nginx with deploy/nginx.conf",
    )
    parser.add_argument(
        "--no-standings-files",
        action="store_true",
        help="the workers write no standings files (STANDINGS_FILES_DIR empty): nginx sends "
        "every reader to the app and its one-second cache, as before issue 28's files",
    )
    parser.add_argument("--standings-timeout", type=float, default=180)
    parser.add_argument(
        "--rate",
        type=float,
        default=0,
        help="open loop (issue 28): deals arrive at this many a second (e.g. 25) instead of "
        "as fast as --clients threads push them",
    )
    parser.add_argument(
        "--pool", type=int, default=64, help="with --rate: threads sending the deals that are due"
    )
    parser.add_argument(
        "--faults",
        action="store_true",
        help="issue 27's fault drills in round 1 (a private PostgreSQL cluster; see the top)",
    )
    parser.add_argument(
        "--offline-hold",
        type=float,
        default=1800,
        help="with --faults: seconds one table's phone keeps its whole match offline",
    )
    args = parser.parse_args()
    args.unions = args.unions or (120 if args.quick else 3334)
    args.rounds = args.rounds or (2 if args.quick else 9)

    workdir = Path(tempfile.mkdtemp(prefix="festival-"))
    workdir.chmod(0o755)  # nginx's workers (not root) read and write under it
    services = Services(args, workdir)
    os.environ.update(services.env)
    print(
        f"festival: {args.unions} unions ({3 * args.unions} players), {args.rounds} rounds, "
        f"{args.deals} deals a match, {args.clients} referee clients, {args.readers} readers; "
        f"logs in {workdir}",
        flush=True,
    )
    # `kill` ends the run like Ctrl-C: the services it started are stopped.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    services.up()
    try:
        run(args, services)
    finally:
        services.stop()
        shutil.rmtree(workdir / "nginx", ignore_errors=True)


def run(args, services: Services) -> None:
    import django

    django.setup()
    from django.db import connection

    from matches.draw import refusals
    from matches.draw import service as draw
    from matches.models import RefereeLink, Table

    started = time.perf_counter()
    event, stage = build_event(args.unions, args.rounds, args.deals)
    print(f"event {event.pk} built in {time.perf_counter() - started:.1f} s", flush=True)
    logs, summaries = documents(60, 2026)
    referees = Referees(
        services.http_port, args.clients, logs, summaries, args.log_share, 8, patient=args.faults
    )
    open_loop = (
        OpenLoop(services.http_port, args.rate, logs, summaries, args.log_share, 8, args.pool)
        if args.rate
        else None
    )
    if open_loop is not None:
        print(
            f"open loop: {args.rate:g} deals/s due (submit latency from when a deal is due; "
            f"{args.pool} sending threads)",
            flush=True,
        )
    acknowledged = 0  # deals a referee was told were stored and confirmed
    drill = None
    page = f"http://127.0.0.1:{services.http_port}/events/{event.pk}/standings/"
    read_page = page
    if not args.no_front_cache:
        read_page = f"http://127.0.0.1:{services.front()}/events/{event.pk}/standings/"
        print(f"readers through nginx with deploy/nginx.conf: {read_page}", flush=True)
    header = (
        "round  draw_s  tables  deals  logs  seconds  deals/s  submit_p50/p95/p99_ms  "
        "confirm_p50/p95/p99_ms  standings_lag_s  readers_rps  readers_p95_ms  cpu_ms/deal  errors"
    )
    print(header, flush=True)
    totals: dict[str, Any] = {
        "deals": 0,
        "seconds": 0.0,
        "submit": [],
        "lags": [],
        "readers": [],
        "cpu": {},
        "open_lags": [],
        "sent": [],
        "errors": 0,
    }
    for number in range(1, args.rounds + 1):
        t0 = time.perf_counter()
        round_ = draw.create_round(stage, seed=1000 + number)
        draw.publish_round(round_)
        draw_s = time.perf_counter() - t0
        tables = list(
            Table.objects.filter(round=round_, match__isnull=False).values_list("pk", flat=True)
        )
        links = RefereeLink.objects.bulk_create(
            [RefereeLink(table_id=t, label=label) for t in tables for label in ("A", "B")]
        )
        by_table: dict[int, list[str]] = {}
        for link in links:
            by_table.setdefault(link.table_id, []).append(link.token)
        jobs = [(t, by_table[t][0], by_table[t][1]) for t in tables]  # links A and B
        connection.close()  # the referees' wait may outlast CONN_MAX_AGE
        readers = Readers(read_page, args.readers, args.read_window)
        readers.start()
        cpu_before = services.cpu()
        phone = None
        if args.faults and number == 1:
            from festival_faults import Drill, OfflinePhone

            # One table's phone keeps its whole match offline; the rest report as usual while
            # the drill's faults fire.
            phone = OfflinePhone(referees.base, jobs[0], args.deals, summaries, args.offline_hold)
            phone.start()
            jobs = jobs[1:]
            drill = Drill(services, total_deals=len(jobs) * args.deals)
            drill.watch(lambda: referees.progress)
        if open_loop is not None:
            result = open_loop.run(jobs, args.deals, round_)
        else:
            result = referees.run(jobs, args.deals)
        read = readers.stop()  # not through the offline phone's wait
        if phone is not None:
            phone.join()
            print(
                f"   offline phone (table {phone.table_id}): {len(phone.acknowledged)}/"
                f"{args.deals} deals stored after {args.offline_hold:.0f} s offline, "
                f"{phone.requests} requests; the whole match sent once more: "
                f"{phone.replayed_at_end}/{args.deals} answered as replays"
                + (f"; errors {phone.errors[:3]}" if phone.errors else ""),
                flush=True,
            )
            result["deals"] += len(phone.acknowledged)
            result["last_confirm"] = time.time()
        acknowledged += result["deals"]
        connection.close()  # a restarted database ended this process's connection too
        lag, observed = wait_for_standings(round_, args.standings_timeout)
        # The app's CPU for the round: both requests of every deal, the settlement tasks and the
        # standings runs up to the complete snapshot (plus the readers' few cache misses).
        cpu_after = services.cpu()
        cpu = {k: cpu_after[k] - cpu_before.get(k, 0.0) for k in cpu_after}
        for k, v in cpu.items():
            totals["cpu"][k] = totals["cpu"].get(k, 0.0) + v
        app_ms = 1000 * (cpu["gunicorn"] + cpu["celery"]) / max(1, result["deals"])
        s, c = result["submit_ms"], result["confirm_ms"]
        rate = result["deals"] / result["seconds"]
        lag_text = f"{lag:.2f}" if lag is not None else f">{observed:.0f}"
        print(
            f"{number:>5}  {draw_s:6.2f}  {len(tables):>6}  {result['deals']:>5}  {result['logs']:>4}  "
            f"{result['seconds']:7.1f}  {rate:7.1f}  "
            f"{percentile(s, 50):6.0f}/{percentile(s, 95):.0f}/{percentile(s, 99):.0f}  "
            f"{percentile(c, 50):6.0f}/{percentile(c, 95):.0f}/{percentile(c, 99):.0f}  "
            f"{lag_text:>15}  {read.get('rps', 0):11.1f}  {read.get('p95', 0):14.1f}  "
            f"{app_ms:11.1f}  {len(result['errors'])}"
            + (f" (429/502/503 retries {result['retries']})" if result["retries"] else "")
            + (f" (500s retried: {result['server_errors']})" if result["server_errors"] else ""),
            flush=True,
        )
        for error in result["errors"][:5]:
            print("   error:", error, flush=True)
        if open_loop is not None:
            lags_r = result["lags"]
            print(
                f"   open loop: due {args.rate:g}/s, done {rate:.1f}/s; submit from due "
                f"p50/p95 {percentile(s, 50):.0f}/{percentile(s, 95):.0f} ms, from sent "
                f"p50/p95 {percentile(result['submit_sent_ms'], 50):.0f}/"
                f"{percentile(result['submit_sent_ms'], 95):.0f} ms; standings lag a match "
                f"p50/p95/max {percentile(lags_r, 50):.2f}/{percentile(lags_r, 95):.2f}/"
                f"{max(lags_r, default=float('nan')):.2f} s",
                flush=True,
            )
            totals["open_lags"] += lags_r
            totals["sent"] += result["submit_sent_ms"]
        totals["errors"] += len(result["errors"])
        if drill is not None and number == 1:
            print("\n".join(drill.report()), flush=True)
        try:
            draw.close_round(round_)
        except refusals.SeatingRefused as refused:
            print(f"   round {number} not closed: {refused}", flush=True)
            break
        if "error" in read or read.get("non2xx") or read.get("errors"):
            print("   readers:", read, flush=True)
        totals["deals"] += result["deals"]
        totals["seconds"] += result["seconds"]
        totals["submit"] += s
        totals["lags"].append(lag)
        totals["readers"].append(read)

    if drill is not None:
        from festival_faults import count_lost_and_duplicated, equals_full_recompute

        counts = count_lost_and_duplicated(event.pk, acknowledged)
        equal, how = equals_full_recompute(event.pk)
        print("\nfault drills (round 1):", flush=True)
        print(
            f"  deals acknowledged to referees {acknowledged}, with a final result "
            f"{counts['final']}: lost {counts['lost']}, duplicated {counts['duplicated']}; "
            f"derived rows v a full recompute after recovery: {how}",
            flush=True,
        )
        print(
            f"  drill {'passed' if equal and not counts['lost'] and not counts['duplicated'] else 'FAILED'}",
            flush=True,
        )

    import requests

    html = requests.get(page, timeout=60).content
    rate = totals["deals"] / totals["seconds"]
    good = [r for r in totals["readers"] if "rps" in r]
    reader_rps = (
        (sum(r["requests"] for r in good) / sum(r["requests"] / r["rps"] for r in good))
        if good
        else 0
    )
    reader_p95 = max((r["p95"] for r in good), default=float("nan"))
    print(
        f"\nall rounds: {totals['deals']} deals in {totals['seconds']:.0f} s of reporting: "
        f"{rate:.1f} deals/s ({2 * rate:.1f} requests/s); submit p50/p95/p99 "
        f"{percentile(totals['submit'], 50):.0f}/{percentile(totals['submit'], 95):.0f}/"
        f"{percentile(totals['submit'], 99):.0f} ms",
        flush=True,
    )
    deals = max(1, totals["deals"])
    cpu = {k: 1000 * v / deals for k, v in totals["cpu"].items()}
    print(
        f"server CPU per deal (process CPU over the rounds: submit + confirm + settlement + "
        f"standings): app {cpu['gunicorn'] + cpu['celery']:.1f} ms (gunicorn "
        f"{cpu['gunicorn']:.1f}, celery {cpu['celery']:.1f}); PostgreSQL backends of the "
        f"database {cpu['postgres']:.1f} ms",
        flush=True,
    )
    lags = [lag for lag in totals["lags"] if lag is not None]
    print(
        f"standings lag after the last confirmation: max {max(lags, default=float('nan')):.2f} s "
        f"({sum(lag <= 5 for lag in lags)}/{len(totals['lags'])} rounds within 5 s)"
    )
    print(
        f"standings page ({len(html) / 1024:.0f} KiB) under {args.readers} readers: "
        f"{reader_rps:.0f} req/s, p95 {reader_p95:.0f} ms (worst window)",
        flush=True,
    )

    raw = raw_inserts(
        services.db_url, 20000 if not args.quick else 5000, args.clients, summaries[0]
    )
    print(
        f"raw limit, psycopg inserts of report rows: {raw['per_commit']:.0f} rows/s "
        f"(one commit each, {args.clients} connections); {raw['batched']:.0f} rows/s batched; "
        f"whole deals as the API commits them (report; confirmation + state): "
        f"{raw['deals']:.0f} deals/s",
        flush=True,
    )
    static = static_limit(html, services.workdir, args.readers or 200, args.read_window)
    print(
        f"raw limit, nginx static standings page: {static.get('rps', 0):.0f} req/s, "
        f"p95 {static.get('p95', 0):.1f} ms ({args.readers} connections; "
        f"non-2xx {static.get('non2xx', 'n/a'):.0f}, socket errors {static.get('errors', 0):.0f})",
        flush=True,
    )
    if static.get("non2xx"):
        print("  (nginx answered errors: the static figure is not valid)", flush=True)
    quiet: dict = {}
    if not args.no_front_cache:
        # The readers' own URL again, now that the rounds are over: the same nginx (the
        # production configuration), the same bytes, the app idle, as the static figure above.
        quiet = run_wrk(read_page, args.readers or 200, args.read_window)
        print(
            f"the readers' page through nginx with deploy/nginx.conf after the rounds (app "
            f"idle): {quiet.get('rps', 0):.0f} req/s, p95 {quiet.get('p95', 0):.1f} ms "
            f"(non-2xx {quiet.get('non2xx', 'n/a'):.0f}, socket errors {quiet.get('errors', 0):.0f})",
            flush=True,
        )
        total, from_file = file_share(
            services.workdir / "front" / "gouji-access.log", urlsplit(read_page).path
        )
        print(
            f"readers' requests answered from the standings file (not the app): {from_file} of "
            f"{total} ({100 * from_file / max(1, total):.1f}%)",
            flush=True,
        )
    if open_loop is not None:
        ol = totals["open_lags"]
        p95 = percentile(totals["submit"], 95)
        worst_lag = percentile(ol, 95)
        print(f"\ngoals (issue 28, open loop at {args.rate:g} deals/s, {args.readers} readers):")
        print(
            f"  submit p95 <= 200 ms (from when due): {p95:.0f} ms (from sent "
            f"{percentile(totals['sent'], 95):.0f} ms) -> {'met' if p95 <= 200 else 'NOT met'}"
        )
        print(f"  0 errors: {totals['errors']} -> {'met' if not totals['errors'] else 'NOT met'}")
        print(
            f"  standings lag <= 2 s (p95 of the matches): {worst_lag:.2f} s, max "
            f"{max(ol, default=float('nan')):.2f} s -> {'met' if worst_lag <= 2 else 'NOT met'}"
        )
    print(
        f"  server CPU per deal <= 10 ms (issue 28): {cpu['gunicorn'] + cpu['celery']:.1f} ms -> "
        f"{'met' if cpu['gunicorn'] + cpu['celery'] <= 10 else 'NOT met'}"
    )
    if open_loop is None:
        print(
            f"  closed loop within 20x of the raw whole-deal limit (issue 28): "
            f"{raw['deals'] / rate:.1f}x -> {'met' if raw['deals'] / rate <= 20 else 'NOT met'}"
        )
    sratio28 = static.get("rps", 0) / reader_rps if reader_rps else float("inf")
    print(
        f"  public standings within 1.5x of nginx static (issue 28): {sratio28:.2f}x -> "
        f"{'met' if sratio28 <= 1.5 else 'NOT met'}"
    )
    if quiet.get("rps"):
        qratio = static.get("rps", 0) / quiet["rps"]
        print(
            f"    (the readers' rate is during the rounds, sharing the cores with the app; the "
            f"same page with the app idle: {qratio:.2f}x -> {'met' if qratio <= 1.5 else 'NOT met'})"
        )
    print("\ngoals (issue 19):")
    ratio = raw["deals"] / rate
    print(
        f"  results within 10x of the raw whole-deal limit: {rate:.1f} deals/s vs "
        f"{raw['deals']:.0f} whole deals/s = {ratio:.1f}x -> {'met' if ratio <= 10 else 'NOT met'}"
        f" (vs {raw['per_commit']:.0f} single report rows/s: {raw['per_commit'] / rate:.1f}x)"
    )
    p95 = percentile(totals["submit"], 95)
    print(
        f"  submit p95 <= 300 ms at {args.clients} clients: {p95:.0f} ms -> "
        f"{'met' if p95 <= 300 else 'NOT met'}"
    )
    app = cpu["gunicorn"] + cpu["celery"]
    print(f"  server CPU per deal <= 5 ms: {app:.1f} ms -> {'met' if app <= 5 else 'NOT met'}")
    sratio = static.get("rps", 0) / reader_rps if reader_rps else float("inf")
    print(
        f"  standings page within 2x of static: {reader_rps:.0f} vs {static.get('rps', 0):.0f} "
        f"req/s = {sratio:.2f}x -> {'met' if sratio <= 2 else 'NOT met'}"
    )
    worst = max(lags, default=float("inf")) if len(lags) == len(totals["lags"]) else float("inf")
    print(
        f"  standings within 5 s of the last confirmation: worst {worst:.2f} s -> "
        f"{'met' if worst <= 5 else 'NOT met'}"
    )
    print(
        f"  {args.rounds} rounds complete: {len(totals['lags'])} rounds, {totals['deals']} deals",
        flush=True,
    )


if __name__ == "__main__":
    main()
