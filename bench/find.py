"""Issue 26: find my table at festival size, over HTTP, on PostgreSQL.

    /work/main/.venv/bin/python bench/find.py                 # 3,334 unions (10,002 players)
    /work/main/.venv/bin/python bench/find.py --unions 300 --seconds 10   # a short try

Builds the festival's event with `bench/festival.py`'s builder (its unions 联邦k, players 选手k),
writes its search terms (`matches.public.find_terms.reindex_event`, as a bulk import would), draws
and publishes round 1 (the draw service), and runs the app as `bench/festival.py` does
(gunicorn gthread workers, Redis, two Celery workers, a scratch PostgreSQL database).

Then `--searchers` people search at once for `--seconds`: each one a thread with a keep-alive
connection that types a query, waits for the answer, looks at it for a while (exponential think
time, mean `--think` seconds) and searches again: a union's name, its pinyin in full or by
initials, a player's name or pinyin, an entry number, a prefix. Half ask the JSON API
(`/api/v1/events/<id>/find?q=`), half the page's htmx fragment (what the page fetches as one
types). Printed: requests, answers per second, latency p50/p95/p99 (goal: p95 <= 50 ms), the
server's database queries per search, and, for comparison, the same searches with no think
time at all (`wrk`, `--searchers` connections: the saturated server).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from festival import Services, build_event, percentile  # noqa: E402  (this script's folder comes first on sys.path)


def queries(event, count: int, seed: int) -> list[str]:
    """Queries as people type them: names, pinyin (full, initials), numbers, prefixes."""
    from matches.models import Registration, UnionMember
    from matches.public.find_terms import _syllables

    rng = random.Random(seed)
    unions = list(event.registrations.values_list("union__name", "seed"))
    players = list(
        UnionMember.objects.filter(event=event, round__isnull=True).values_list(
            "player__name", flat=True
        )
    )
    assert Registration.objects.filter(event=event).count() == len(unions)
    out = []
    for _ in range(count):
        kind = rng.random()
        if kind < 0.3:
            name, _seed = rng.choice(unions)
        else:
            name = rng.choice(players)
        syllables = _syllables(name)
        way = rng.random()
        if way < 0.25:
            q = name
        elif way < 0.5:
            q = "".join(s if s.isdigit() else s[0] for s in syllables)  # initials
        elif way < 0.7:
            q = "".join(syllables)  # full pinyin
        elif way < 0.85:
            q = str(rng.choice(unions)[1])  # an entry number
        else:
            full = "".join(s if s.isdigit() else s[0] for s in syllables)
            q = full[: max(2, len(full) - 2)]  # still typing: a prefix
        out.append(q)
    return out


class Searchers:
    def __init__(self, base: str, event_id: int, qs: list[str], count: int, think: float):
        self.base, self.event_id, self.qs = base, event_id, qs
        self.count, self.think = count, think
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.hits = 0
        self.lock = threading.Lock()

    def run(self, seconds: float, seed: int) -> dict:
        stop = time.time() + seconds
        threads = [
            threading.Thread(target=self.searcher, args=(k, stop, seed + k), daemon=True)
            for k in range(self.count)
        ]
        started = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join(seconds + 60)
        elapsed = time.perf_counter() - started
        lat = self.latencies
        return {
            "requests": len(lat),
            "rps": len(lat) / elapsed,
            "p50": percentile(lat, 50),
            "p95": percentile(lat, 95),
            "p99": percentile(lat, 99),
            "max": max(lat) if lat else float("nan"),
            "errors": len(self.errors),
            "first_errors": self.errors[:3],
            "with_seat": self.hits,
        }

    def searcher(self, k: int, stop: float, seed: int) -> None:
        import requests

        rng = random.Random(seed)
        session = requests.Session()
        time.sleep(rng.uniform(0, self.think))  # people do not all start on the same second
        while time.time() < stop:
            q = rng.choice(self.qs)
            api = rng.random() < 0.5
            if api:
                url = f"{self.base}/api/v1/events/{self.event_id}/find"
                headers = {}
            else:
                url = f"{self.base}/events/{self.event_id}/find/"
                headers = {"HX-Request": "true"}
            t0 = time.perf_counter()
            try:
                response = session.get(url, params={"q": q}, headers=headers, timeout=30)
                ms = (time.perf_counter() - t0) * 1000
                ok = response.status_code == 200
                seat = ok and (
                    '"table":' in response.text if api else "data-table=" in response.text
                )
            except Exception as error:  # noqa: BLE001 - counted and shown
                with self.lock:
                    self.errors.append(repr(error)[:120])
                continue
            with self.lock:
                if ok:
                    self.latencies.append(ms)
                    self.hits += bool(seat)
                else:
                    self.errors.append(f"{response.status_code} {url}?q={q}")
            time.sleep(rng.expovariate(1 / self.think))


def wrk_saturated(base: str, event_id: int, qs: list[str], connections: int, seconds: int):
    """The same searches with no think time: `wrk`, every connection asking at once."""
    if not shutil.which("wrk"):
        return None
    workdir = Path(tempfile.mkdtemp(prefix="find-wrk-"))
    paths = [f"/api/v1/events/{event_id}/find?q={urllib.parse.quote(q)}" for q in qs[:2000]]
    (workdir / "paths.txt").write_text("\n".join(paths) + "\n")
    script = workdir / "find.lua"
    script.write_text(
        f"""
local paths = {{}}
for line in io.lines("{workdir / "paths.txt"}") do paths[#paths + 1] = line end
local k = 0
request = function()
  k = k + 1
  return wrk.format("GET", paths[(k % #paths) + 1])
end
done = function(summary, latency, requests)
  local seconds = summary.duration / 1e6
  io.write(string.format("FIND requests=%d rps=%.1f p50=%.2f p95=%.2f p99=%.2f errors=%d non2xx=%d\\n",
    summary.requests, summary.requests / seconds,
    latency:percentile(50) / 1000, latency:percentile(95) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status))
end
"""
    )
    out = subprocess.run(
        [
            "wrk",
            "-t2",
            f"-c{connections}",
            f"-d{seconds}s",
            "--timeout",
            "30s",
            "-s",
            str(script),
            base,
        ],
        capture_output=True,
        text=True,
    ).stdout
    shutil.rmtree(workdir, ignore_errors=True)
    line = next((x for x in out.splitlines() if x.startswith("FIND ")), "")
    return dict(kv.split("=") for kv in line.split()[1:]) if line else None


def queries_per_search(event, qs: list[str]) -> float:
    """Database queries per search through the whole stack (the API and the page's fragment),
    after a first search has read the event's index."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(HTTP_HOST="127.0.0.1")
    client.get(f"/api/v1/events/{event.pk}/find", {"q": qs[0]})
    total = 0
    sample = qs[:50]
    for k, q in enumerate(sample):
        if k % 2:
            url, headers = f"/events/{event.pk}/find/", {"HX-Request": "true"}
        else:
            url, headers = f"/api/v1/events/{event.pk}/find", {}
        with CaptureQueriesContext(connection) as ctx:
            client.get(url, {"q": q}, headers=headers)
        total += len(ctx.captured_queries)
    return total / len(sample)


def in_process(event_id: int, qs: list[str], count: int) -> dict:
    """The same searches through Django's whole stack in this process, one at a time (no
    network, no queueing): wall and CPU milliseconds per request. On a loaded machine the CPU
    figure is the steadier one."""
    from django.test import Client

    client = Client(HTTP_HOST="127.0.0.1")
    walls, cpus = [], []
    for k, q in enumerate(qs[:count]):
        if k % 2:
            url, headers = f"/events/{event_id}/find/", {"HX-Request": "true"}
        else:
            url, headers = f"/api/v1/events/{event_id}/find", {}
        w0, c0 = time.perf_counter(), time.process_time()
        response = client.get(url, {"q": q}, headers=headers)
        cpus.append((time.process_time() - c0) * 1000)
        walls.append((time.perf_counter() - w0) * 1000)
        assert response.status_code == 200, (url, q, response.status_code)
    return {
        "p50": percentile(walls, 50),
        "p95": percentile(walls, 95),
        "cpu_p50": percentile(cpus, 50),
        "cpu_p95": percentile(cpus, 95),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unions", type=int, default=3334)
    parser.add_argument("--searchers", type=int, default=200)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds between searches")
    parser.add_argument("--http-workers", type=int, default=3)
    parser.add_argument("--http-threads", type=int, default=8)
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--db-name", default="gouji_find", help="the scratch database (dropped)")
    parser.add_argument("--no-wrk", action="store_true", help="skip the saturated comparison")
    parser.add_argument("--env", action="append", default=[], help="NAME=value for the app")
    args = parser.parse_args()
    # What bench/festival.py's Services reads.
    args.faults, args.keep_db, args.db_prefix = False, False, ""
    args.no_standings_files = False  # the festival services write standings files (issue 28)

    workdir = Path(tempfile.mkdtemp(prefix="find-"))
    services = Services(args, workdir)
    services.db_name = args.db_name
    services.db_url = services.db_url.rsplit("/", 1)[0] + "/" + args.db_name
    services.env["DATABASE_URL"] = services.db_url
    os.environ.update(services.env)
    print(
        f"find: {args.unions} unions ({3 * args.unions} players), {args.searchers} searchers "
        f"for {args.seconds} s (think {args.think} s), logs in {workdir}",
        flush=True,
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    import psycopg

    with psycopg.connect(args.pg, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{args.db_name}" WITH (FORCE)')
    services.up()
    try:
        run(args, services)
    finally:
        services.stop()


def run(args, services) -> None:
    import django

    django.setup()
    from django.db import connection

    from matches.draw import service as draw
    from matches.public import find_terms

    t0 = time.perf_counter()
    event, stage = build_event(args.unions, 9, 4)
    built = time.perf_counter() - t0
    t0 = time.perf_counter()
    terms = find_terms.reindex_event(event)
    indexed = time.perf_counter() - t0
    t0 = time.perf_counter()
    round_ = draw.create_round(stage, seed=1001)
    draw.publish_round(round_)
    drawn = time.perf_counter() - t0
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE matches_searchterm")
    print(
        f"event {event.pk}: built in {built:.1f} s; {terms} search terms written in "
        f"{indexed:.1f} s; round 1 drawn and published in {drawn:.1f} s",
        flush=True,
    )
    qs = queries(event, 5000, 26)
    print(
        f"queries per search (server side, whole request): {queries_per_search(event, qs):.1f}",
        flush=True,
    )
    alone = in_process(event.pk, qs, 400)
    print(
        f"in process, one at a time (400 searches, half API, half page fragment): "
        f"wall p50={alone['p50']:.1f}ms p95={alone['p95']:.1f}ms; "
        f"CPU p50={alone['cpu_p50']:.1f}ms p95={alone['cpu_p95']:.1f}ms",
        flush=True,
    )
    connection.close()
    base = f"http://127.0.0.1:{services.http_port}"
    # Warm the workers (pypinyin is not loaded by a search; the first requests open connections).
    import requests

    for q in qs[:20]:
        requests.get(f"{base}/api/v1/events/{event.pk}/find", params={"q": q}, timeout=30)
    result = Searchers(base, event.pk, qs, args.searchers, args.think).run(args.seconds, 7)
    print(
        f"searchers={args.searchers} think={args.think}s requests={result['requests']} "
        f"rps={result['rps']:.1f} p50={result['p50']:.1f}ms p95={result['p95']:.1f}ms "
        f"p99={result['p99']:.1f}ms max={result['max']:.1f}ms errors={result['errors']} "
        f"answers_with_a_seat={result['with_seat']}"
        + (f" first errors: {result['first_errors']}" if result["errors"] else ""),
        flush=True,
    )
    print(
        f"goal p95 <= 50 ms: {'met' if result['p95'] <= 50 else 'NOT met'}",
        flush=True,
    )
    if not args.no_wrk:
        saturated = wrk_saturated(base, event.pk, qs, args.searchers, 10)
        if saturated:
            print(
                f"saturated (wrk, {args.searchers} connections, no think time, API): "
                f"rps={saturated['rps']} p50={saturated['p50']}ms p95={saturated['p95']}ms "
                f"p99={saturated['p99']}ms errors={saturated['errors']} non2xx={saturated['non2xx']}",
                flush=True,
            )


if __name__ == "__main__":
    main()
