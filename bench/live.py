"""Issue 28: live push at scale, over HTTP, on this machine.

    /work/main/.venv/bin/python bench/live.py                # 2,000 public streams, 20 results
    /work/main/.venv/bin/python bench/live.py --festival     # 10,002 private pages, a round published

Starts what it needs on 127.0.0.1 and stops it at the end: a fresh PostgreSQL database (on the
local server, `--pg` gives its admin URL), its own redis-server (cache and live notices), and the
live streams' ASGI server as deploy/README.md runs it (gunicorn with `--workers` uvicorn
workers). This process is the rest of the application: it makes results final and publishes
the round through the services (tasks eager, as with no broker), so its commits send the
notices exactly as a web or Celery process would (matches/events/notify.py).

Default: `--streams` clients (one asyncio process) hold `/live/events/<id>/` open, as the hall's
projectors, standings pages and phones do; `--results` times a deal's result becomes final
(one every `--gap` seconds) and each stream records when the public "version" notice reaches
it. Printed: the latency from the commit of the final result (its `deal_result_changed`, sent on
commit) to each stream (p50, p95, max, over every result and stream; a first result warms the
processes up and is not counted), and the streams that missed a notice. Goal: p95 <= 1 s.

`--festival`: an event of 3,334 unions (10,002 players), its round 1 drawn (not yet public);
10,002 simulated private pages hold their player's signed stream `/live/players/<signed>/`;
the round is published and each page records when it learns its table (`{"kind": "seat"}`),
checked against the draw. Goal: 95 % within 5 s. The design sends the table on the player's
own stream (no request per page); a page whose stream is down polls its private page.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
BIN = Path(sys.executable).parent

from festival import build_event, free_port, percentile, wait_port  # noqa: E402


class Services:
    def __init__(self, args, workdir: Path):
        import re

        self.args = args
        self.workdir = workdir
        self.procs: list[subprocess.Popen] = []
        self.db_name = f"gouji_live_bench_{os.getpid()}"
        self.db_url = re.sub(r"/[^/]*$", "/" + self.db_name, args.pg)
        self.redis_port = free_port()
        self.live_port = free_port()
        self.env = dict(os.environ)
        self.env.update(
            {
                "DATABASE_URL": self.db_url,
                "CACHE_URL": f"redis://127.0.0.1:{self.redis_port}/1",
                "LIVE_REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/2",
                "DEBUG": "False",
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "SECRET_KEY": "live-bench-" + os.urandom(8).hex(),
                "DJANGO_SETTINGS_MODULE": "gouji_tournament.settings",
                "PYTHONPATH": str(ROOT),
                "LOG_LEVEL": "ERROR",
                "LIVE_HEARTBEAT_SECONDS": "30",
                "LIVE_STREAM_SECONDS": "3600",
            }
        )

    def start(self, name: str, cmd: list[str]) -> None:
        log = open(self.workdir / f"{name}.log", "a")
        self.procs.append(
            subprocess.Popen(
                cmd,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )

    def up(self) -> None:
        import psycopg

        with psycopg.connect(self.args.pg, autocommit=True) as conn:
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
                "--appendonly",
                "no",
            ],
        )
        wait_port(self.redis_port)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=self.env, check=True
        )
        self.start(
            "live",
            [
                str(BIN / "gunicorn"),
                "gouji_tournament.asgi:application",
                "-b",
                f"127.0.0.1:{self.live_port}",
                "-w",
                str(self.args.workers),
                "-k",
                "uvicorn.workers.UvicornWorker",
                "--backlog",
                "4096",
            ],
        )
        wait_port(self.live_port)

    def stop(self) -> None:
        import signal

        import psycopg

        for proc in reversed(self.procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        from django.db import connections

        connections.close_all()
        with psycopg.connect(self.args.pg, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')


class Stream:
    """One simulated page: an open SSE connection; `seen` maps a notice's mark to the time."""

    def __init__(self, port: int, path: str, want: str):
        self.port, self.path, self.want = port, path, want
        self.open = asyncio.Event()
        self.hits: list[tuple[float, str]] = []
        self.failed = ""

    async def run(self) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port, limit=2**16)
            writer.write(
                f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            status = await reader.readline()
            if b" 200 " not in status:
                # The status line and the body's start: which 503 (no subscription, the
                # database) is worth knowing.
                rest = await asyncio.wait_for(reader.read(2048), 2)
                body = rest.split(b"\r\n\r\n", 1)[-1][:80]
                self.failed = f"{status.decode(errors='replace').strip()} {body!r}"
                self.open.set()
                return
            while True:
                line = await reader.readline()
                if not line:
                    self.failed = self.failed or "closed"
                    return
                if line.startswith(b"event: hello"):
                    self.open.set()
                elif line.startswith(b"data: ") and self.want.encode() in line:
                    self.hits.append((time.monotonic(), line[6:].decode().strip()))
        except (OSError, asyncio.IncompleteReadError) as error:
            self.failed = repr(error)
            self.open.set()


_TASKS: list[asyncio.Task] = []


async def open_streams(port: int, paths: list[str], want: str, batch: int = 500) -> list[Stream]:
    streams = [Stream(port, path, want) for path in paths]
    tasks = _TASKS  # the loop keeps only weak references to tasks
    started = time.monotonic()
    for k in range(0, len(streams), batch):
        for s in streams[k : k + batch]:
            tasks.append(asyncio.get_running_loop().create_task(s.run()))
        await asyncio.wait_for(
            asyncio.gather(*(s.open.wait() for s in streams[k : k + batch])), 120
        )
    failed = [s for s in streams if s.failed]
    print(
        f"{len(streams) - len(failed)} streams open in {time.monotonic() - started:.1f} s"
        + (f"; {len(failed)} failed, e.g. {failed[0].failed}" if failed else ""),
        flush=True,
    )
    return streams


def in_thread(fn):
    """Run a Django call in a thread of its own (the event loop keeps reading the streams)."""
    done = threading.Event()
    box: dict = {}

    def target():
        try:
            box["value"] = fn()
        except Exception as error:  # noqa: BLE001
            box["error"] = error
        finally:
            from django.db import connections

            connections.close_all()
            done.set()

    threading.Thread(target=target, daemon=True).start()
    return done, box


async def results_mode(args, services: Services) -> None:
    from matches.models import Event
    from tests.builder import EventBuilder

    tables = args.results // 2 + 2  # two deals a table, the warm-up result included

    def setup():
        b = EventBuilder(unions=2 * tables, deals=2, confirmation=Event.Confirmation.NONE)
        b.register()
        Event.objects.filter(pk=b.event.pk).update(published=True)
        round_ = b.round([(2 * k, 2 * k + 1) for k in range(tables)])
        return b, list(b.matches(round_))

    b, matches = await asyncio.to_thread(setup)
    await asyncio.sleep(2)  # the round's own notices pass first
    streams = await open_streams(
        services.live_port, [f"/live/events/{b.event.pk}/"] * args.streams, '"kind":"version"'
    )
    live = [s for s in streams if not s.failed]
    from matches.signals import deal_result_changed

    committed: list[float] = []

    def on_commit(sender, **kwargs):  # sent on commit of the final result (results/common.py)
        committed.append(time.monotonic())

    deal_result_changed.connect(on_commit, weak=False, dispatch_uid="bench-live")
    latencies: list[float] = []
    commits: list[float] = []
    missed = 0
    finishes = [[1, 2, 3, 4, 5, 6], [2, 1, 4, 3, 6, 5]]
    for k in range(args.results + 1):  # the first one warms the processes up, not counted
        match, deal = matches[k % len(matches)], 1 + k // len(matches)
        before = [len(s.hits) for s in live]
        first_commit = len(committed)
        t0 = time.monotonic()
        done, box = in_thread(lambda m=match, d=deal, f=finishes[k % 2]: b.final(m, d, f))
        while not done.is_set():
            await asyncio.sleep(0.005)
        if "error" in box:
            raise box["error"]
        commits.append(time.monotonic() - t0)
        t_commit = committed[first_commit]  # the result's first commit: it is final there
        end = time.monotonic() + 10
        while time.monotonic() < end and any(len(s.hits) == n for s, n in zip(live, before)):
            await asyncio.sleep(0.01)
        these = [s.hits[n][0] - t_commit for s, n in zip(live, before) if len(s.hits) > n]
        print(
            f"result {k}{' (warm-up)' if k == 0 else ''}: service call "
            f"{1000 * commits[-1]:.0f} ms; notice after commit p50/p95/max "
            f"{1000 * percentile(these, 50):.0f}/{1000 * percentile(these, 95):.0f}/"
            f"{1000 * max(these or [0]):.0f} ms; missed {len(live) - len(these)}",
            flush=True,
        )
        if k:
            latencies += these
            missed += len(live) - len(these)
        else:
            commits.clear()
        await asyncio.sleep(args.gap)
    print(
        f"\n{len(live)} streams x {args.results} results ({args.workers} uvicorn workers): "
        f"the service call {1000 * percentile(commits, 50):.0f} ms p50; "
        f"notice after the commit p50 {1000 * percentile(latencies, 50):.0f} ms, "
        f"p95 {1000 * percentile(latencies, 95):.0f} ms, max {1000 * max(latencies):.0f} ms; "
        f"missed {missed}",
        flush=True,
    )


async def festival_mode(args, services: Services) -> None:
    from matches.draw import service as draw
    from matches.models import TableSeat
    from matches.views.live import player_stream_url

    started = time.monotonic()

    def setup():
        event, stage = build_event(args.unions, 1, 1)
        round_ = draw.create_round(stage, seed=1001)
        seats = dict(
            TableSeat.objects.filter(round=round_).values_list("player_id", "table__number")
        )
        return event, round_, seats, {p: player_stream_url(p) for p in seats}

    event, round_, seats, urls = await asyncio.to_thread(setup)
    print(
        f"event {event.pk}: {3 * args.unions} players, round 1 drawn (draft) in "
        f"{time.monotonic() - started:.1f} s",
        flush=True,
    )
    players = sorted(seats)
    # A deployment's publish request only queues the standings (a Celery worker computes them
    # elsewhere); here tasks are eager and would run them inside the publish call first.
    from matches.signals import round_changed

    round_changed.disconnect(dispatch_uid="standings.round_changed")
    committed: list[float] = []
    round_changed.connect(
        lambda sender, **kw: committed.append(time.monotonic()), weak=False, dispatch_uid="b"
    )
    streams = await open_streams(
        services.live_port, [urls[p] for p in players], '"kind":"seat"', args.batch
    )
    t0 = time.monotonic()
    done, box = in_thread(lambda: draw.publish_round(round_))
    while not done.is_set():
        await asyncio.sleep(0.005)
    if "error" in box:
        raise box["error"]
    published = time.monotonic() - t0
    t0 = committed[0]  # the publication's commit (round_changed is sent on commit)
    end = time.monotonic() + args.wait
    while time.monotonic() < end and any(not s.hits for s in streams if not s.failed):
        await asyncio.sleep(0.05)
    latencies, wrong = [], 0
    for player, s in zip(players, streams):
        if s.hits:
            latencies.append(s.hits[0][0] - t0)
            if f'"table":{seats[player]},' not in s.hits[0][1]:
                wrong += 1
    within = sum(v <= 5 for v in latencies)
    missing = [k for k, s in enumerate(streams) if not s.hits and not s.failed]
    if missing:
        print(f"no table for {len(missing)} open streams, indices {missing[:5]}...{missing[-5:]}")
    print(
        f"\nround published ({len(players)} players, {args.workers} uvicorn workers): the "
        f"publish call {1000 * published:.0f} ms; from its commit, pages that learnt their table: "
        f"{len(latencies)}/{len(players)}, within 5 s {100 * within / len(players):.1f} %; "
        f"p50 {percentile(latencies, 50):.2f} s, p95 {percentile(latencies, 95):.2f} s, "
        f"max {max(latencies or [0]):.2f} s; wrong table {wrong}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--festival", action="store_true")
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--results", type=int, default=20)
    parser.add_argument("--gap", type=float, default=1.0, help="seconds between results")
    parser.add_argument("--unions", type=int, default=3334, help="--festival: 3 players each")
    parser.add_argument("--wait", type=float, default=30, help="--festival: seconds to wait")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn workers")
    parser.add_argument("--batch", type=int, default=500, help="streams opened at once")
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))  # servers inherit it too
    with tempfile.TemporaryDirectory(prefix="gouji-live-") as tmp:
        services = Services(args, Path(tmp))
        os.environ.update(services.env)
        try:
            services.up()
            import django

            django.setup()
            asyncio.run(
                festival_mode(args, services) if args.festival else results_mode(args, services)
            )
        finally:
            services.stop()
            log = (Path(tmp) / "live.log").read_text(errors="replace")
            if "Traceback" in log or "WARNING" in log:
                print("live server's log (tail):\n" + log[-3000:])


if __name__ == "__main__":
    main()
