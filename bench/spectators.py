"""Issue 50: feature tables behind a delay, spectators on streams, over HTTP, on this machine.

    /work/main/.venv/bin/python bench/spectators.py                 # 10 tables, 2,000 streams
    /work/main/.venv/bin/python bench/spectators.py --streams 500 --actions 20

Starts what it needs as bench/live.py does (its own PostgreSQL database, redis-server, the
streams under gunicorn with uvicorn workers) and the API under gunicorn gthread, as
deploy/README.md runs them. `--tables`
feature tables (delay `--delay` minutes, all hands shown) each play a real six-seat deal (the
engine's bots) through the API, one action every `--pace` seconds per table, as a digital table
or an operator's phone sends them (`POST …/deals/<n>/actions`, the operator link's token);
`--streams` spectators, spread over the tables, hold `/live/events/<e>/features/<f>/` open.
Meanwhile the hall reports results: `--hall` other tables of the same round (no feature) each
submit `--hall-deals` deal summaries through the API (`POST …/deals/<n>/reports`, a referee
link's token), spread over the time the feature tables play, each going through the whole
chain (settlement, tallies, standings) as on the day.

Printed, and the goals of the issue:
- the operator's accept time: the POST of an action, request to answer, p50/p95 (<= 150 ms),
  while the hall reports (its reports' own answer times are printed too);
- each action's arrival on every spectator's stream beyond its delay: the first notice at or
  after the moment it may be seen, measured from the latest that moment can be (the answer's
  arrival + the delay), p50/p95/max (p95 <= 1 s), and the streams that missed one;
- early notices: a notice before the earliest moment any action of its table may be seen (the
  request's start + the delay). Must be none;
- the streams refused at opening (none: a burst of openings reads the database once,
  matches/public/limits.py `shared_reading`), and the machine's load average.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import resource
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from festival import free_port, percentile, wait_port  # noqa: E402
from live import BIN, Services, open_streams  # noqa: E402


def start_api(services: Services) -> int:
    """The API as deploy/README.md serves the pages: gunicorn gthread (WSGI), beside the
    streams' ASGI server."""
    port = free_port()
    services.start(
        "api",
        [
            str(BIN / "gunicorn"),
            "gouji_tournament.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            "2",
            "-k",
            "gthread",
            "--threads",
            "4",
            "--keep-alive",
            "75",
        ],
    )
    wait_port(port)
    return port


def setup(tables: int, delay: int, hall: int, hall_deals: int):
    from matches.events import features
    from matches.games.gouji.engine.selfplay import selfplay
    from matches.models import Event, RefereeLink
    from tests.builder import EventBuilder

    b = EventBuilder(unions=2 * (tables + hall), deals=max(hall_deals, 1)).register()
    Event.objects.filter(pk=b.event.pk).update(published=True)
    round_ = b.round([(2 * k, 2 * k + 1) for k in range(tables + hall)])
    rows = []
    records = selfplay(tables, 50)
    for k, record in zip(range(tables), records):
        table = b.match(round_, k + 1).table
        feature = features.feature_table(table, delay, "hands", b.organiser)
        link = feature.operator_link
        assert link is not None  # made with the feature table
        rows.append((feature.pk, table.pk, link.token, record))
    hall_rows = []
    for k in range(tables, tables + hall):
        table = b.match(round_, k + 1).table
        link = RefereeLink.objects.create(table=table, label="bench hall")
        hall_rows.append((table.pk, link.token))
    return b.event.pk, rows, hall_rows


def report_table(port: int, table_id: int, token: str, summaries: list, span: float, out: list):
    """One hall table's referee: its deals' summaries spread over `span` seconds; `out` gets
    (request start, answer, status) per report."""
    import random

    rng = random.Random(table_id)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    gap = span / max(len(summaries), 1)
    time.sleep(rng.uniform(0, gap))
    for deal, summary in enumerate(summaries, start=1):
        headers = {
            "Authorization": f"Referee {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": f"hall-{table_id}-{deal}",
        }
        path = f"/api/v1/tables/{table_id}/deals/{deal}/reports"
        start = time.time()
        status = 0
        for _attempt in range(5):
            try:
                conn.request("POST", path, body=json.dumps({"summary": summary}), headers=headers)
                response = conn.getresponse()
                response.read()
                status = response.status
                if status not in (429, 502, 503):
                    break
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            time.sleep(0.3)
        out.append((start, time.time(), status))
        time.sleep(max(gap - (time.time() - start), 0.0))
    conn.close()


retries: list[str] = []


def play_table(port: int, table_id: int, token: str, record: dict, args, out: list) -> None:
    """One table's deal at the given pace; `out` gets (request start, answer, status) per action."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Referee {token}", "Content-Type": "application/json"}

    def post(path: str, body: dict) -> tuple[float, float, int]:
        """Sent again on a lost connection, as a table's phone does: the same `seq` is
        answered as the first time (the API is idempotent by sequence number)."""
        nonlocal conn
        start = time.time()
        for _attempt in range(5):
            try:
                conn.request("POST", path, body=json.dumps(body), headers=headers)
                response = conn.getresponse()
                response.read()
                return start, time.time(), response.status
            except (OSError, http.client.HTTPException):
                retries.append(path)
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                time.sleep(0.2)
        return start, time.time(), 0

    base = f"/api/v1/tables/{table_id}/deals/1"
    setup_doc = {"hands": record["hands"], "leader": record["leader"]}
    out.append(("hands", *post(base + "/hands", setup_doc)))
    for seq, action in enumerate(record["actions"][: args.actions], start=1):
        time.sleep(args.pace)
        out.append(("action", *post(base + "/actions", {"seq": seq, **action})))
    conn.close()


async def run(args, services: Services) -> None:
    api_port = start_api(services)
    event_id, rows, hall_rows = await asyncio.to_thread(
        setup, args.tables, args.delay, args.hall, args.hall_deals
    )
    from festival import documents

    _logs, summaries = documents(max(args.hall_deals * 4, 8), 77)
    delay = 60.0 * args.delay
    paths = [
        f"/live/events/{event_id}/features/{rows[k % len(rows)][0]}/" for k in range(args.streams)
    ]
    opening = time.time()
    streams = await open_streams(services.live_port, paths, '"kind":"feature"', args.batch)
    # Each stream sends one spare notice a delay after it opened (it covers a row that arrived
    # while it subscribed: matches/views/live_features.py); the tables start a little later, so
    # those are told apart from an early one.
    opened = time.time()
    await asyncio.sleep(2)
    sent: dict[int, list] = {feature: [] for feature, *_ in rows}
    threads = [
        threading.Thread(
            target=play_table,
            args=(api_port, table_id, token, record, args, sent[feature]),
            daemon=True,
        )
        for feature, table_id, token, record in rows
    ]
    hall_sent: list = []
    span = args.actions * args.pace
    threads += [
        threading.Thread(
            target=report_table,
            args=(
                api_port,
                table_id,
                token,
                [summaries[(k + d) % len(summaries)] for d in range(args.hall_deals)],
                span,
                hall_sent,
            ),
            daemon=True,
        )
        for k, (table_id, token) in enumerate(hall_rows)
    ]
    # The streams' clock is monotonic; the actions' is the wall clock: one offset joins them.
    offset = time.time() - time.monotonic()
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads):
        await asyncio.sleep(0.2)
    await asyncio.sleep(delay + 3)
    # The actions' accept times (each table's hands, its first request, is left out: a warm-up)
    accepts = [
        1000 * (end - start)
        for rows_ in sent.values()
        for kind, start, end, _s in rows_
        if kind == "action"
    ]
    refused = [s for rows_ in sent.values() for _k, _a, _b, s in rows_ if s not in (200, 201)]
    hall_ms = [1000 * (end - start) for start, end, _s in hall_sent]
    hall_refused = [s for _a, _b, s in hall_sent if s not in (200, 201)]
    lateness: list[float] = []
    early = missed = spare = 0
    for stream, path in zip(streams, paths):
        if stream.failed:
            continue
        feature = int(path.rstrip("/").rsplit("/", 1)[1])
        frames = [t + offset for t, _text in stream.hits]
        for _kind, start, end, _status in sent[feature]:
            earliest, latest = start + delay, end + delay
            after = [t for t in frames if t >= earliest - 0.001]
            if not after:
                missed += 1
                continue
            lateness.append(max(after[0] - latest, 0.0))
        first_allowed = min(start for _k, start, _e, _s in sent[feature]) + delay
        spare += sum(opening + delay <= t <= opened + delay + 1 for t in frames)
        early += sum(
            t < first_allowed - 0.001 and not opening + delay <= t <= opened + delay + 1
            for t in frames
        )
    refused_streams = sum(bool(s.failed) for s in streams)
    print(
        f"\n{len(rows)} feature tables x {args.actions} actions (a {args.pace} s pace), delay "
        f"{args.delay} min, {sum(not s.failed for s in streams)} spectators' streams "
        f"({args.workers} uvicorn workers; {refused_streams} of {len(streams)} refused at "
        f"opening); load average (1 min) {LOAD_AT_START:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end:\n"
        f"  operator's action accepted: p50 {percentile(accepts, 50):.0f} ms, "
        f"p95 {percentile(accepts, 95):.0f} ms, max {max(accepts):.0f} ms; refused {len(refused)}, "
        f"sent again after a lost connection {len(retries)}\n"
        f"  the hall meanwhile: {len(hall_sent)} reports from {len(hall_rows)} tables, "
        f"answered p50 {percentile(hall_ms, 50):.0f} ms, p95 {percentile(hall_ms, 95):.0f} ms; "
        f"refused {len(hall_refused)} {sorted(set(hall_refused))}\n"
        f"  on the streams beyond the delay: p50 {1000 * percentile(lateness, 50):.0f} ms, "
        f"p95 {1000 * percentile(lateness, 95):.0f} ms, max {1000 * max(lateness or [0]):.0f} ms; "
        f"missed {missed}; early {early} (spare notices a delay after a stream opened: {spare})",
        flush=True,
    )


LOAD_AT_START = os.getloadavg()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--streams", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=40, help="actions played per table")
    parser.add_argument("--pace", type=float, default=1.0, help="seconds between a table's actions")
    parser.add_argument("--delay", type=int, default=1, help="minutes (0-60)")
    parser.add_argument("--hall", type=int, default=40, help="other tables reporting results")
    parser.add_argument("--hall-deals", type=int, default=3, help="reports per hall table")
    parser.add_argument("--workers", type=int, default=2, help="uvicorn workers")
    parser.add_argument("--batch", type=int, default=500, help="streams opened at once")
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory(prefix="gouji-spectators-") as tmp:
        services = Services(args, Path(tmp))
        os.environ.update(services.env)
        try:
            services.up()
            import django

            django.setup()
            asyncio.run(run(args, services))
        finally:
            services.stop()
            log = (Path(tmp) / "live.log").read_text(errors="replace")
            if "Traceback" in log:
                print("server's log (tail):\n" + log[-3000:])


if __name__ == "__main__":
    main()
