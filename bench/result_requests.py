"""Issue 28: the CPU of the referee's two requests (submit, confirm) through Django's whole stack
(WSGI handler, every middleware, DRF), in one process, on PostgreSQL and Redis, Celery not
eager (tasks go to the broker and stay there). Builds a 120-union event in a scratch database,
warms up on 5 deals, then times 115 deals (process CPU); `--profile` adds cProfile timed by
process time and prints the top functions of each request (docs/performance.md).

    /work/main/.venv/bin/python bench/result_requests.py [--profile] [--redis URL]

Measures the tree it is run from. The Redis database given is flushed at the end: give it one
of its own.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/10")
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--db", default=f"result_requests_{os.getpid()}")
    parser.add_argument(
        "--dump", help="write the two profiles (pstats) as DIR/submit.prof, confirm.prof"
    )
    args = parser.parse_args()
    import psycopg

    with psycopg.connect(args.pg, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{args.db}"')
    os.environ.update(
        {
            "DATABASE_URL": args.pg.rsplit("/", 1)[0] + "/" + args.db,
            "SECRET_KEY": "result-requests",
            "CELERY_BROKER_URL": args.redis,
            "CACHE_URL": args.redis,
            "DEBUG": "False",
            "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
            "DJANGO_SETTINGS_MODULE": "gouji_tournament.settings",
            "LOG_LEVEL": "ERROR",
        }
    )
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, check=True)
        measure(args.profile, args.dump)
    finally:
        import redis
        from django.db import connection

        connection.close()
        redis.Redis.from_url(args.redis).flushdb()
        with psycopg.connect(args.pg, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{args.db}" WITH (FORCE)')


def measure(profile: bool, dump: str | None = None) -> None:
    import django

    django.setup()
    from django.test import Client
    from festival import build_event, documents  # this script's folder is first on sys.path

    import gouji_tournament.wsgi  # noqa: F401 (a worker's start, as gunicorn's)
    from matches.draw import service as draw
    from matches.models import RefereeLink, Table

    event, stage = build_event(120, 2, 4)
    round_ = draw.create_round(stage, seed=1001)
    draw.publish_round(round_)
    tables = list(
        Table.objects.filter(round=round_, match__isnull=False).values_list("pk", flat=True)
    )
    links = RefereeLink.objects.bulk_create(
        [RefereeLink(table_id=t, label=label) for t in tables for label in ("A", "B")]
    )
    tokens: dict[int, list[str]] = {}
    for link in links:
        tokens.setdefault(link.table_id, []).append(link.token)
    _logs, summaries = documents(20, 2026)
    client = Client()
    submitting = cProfile.Profile(time.process_time) if profile else None
    confirming = cProfile.Profile(time.process_time) if profile else None

    def deal(table: int, number: int, measured: bool) -> None:
        first, second = tokens[table]
        body = json.dumps({"summary": summaries[(table + number) % len(summaries)]})
        if measured and submitting:
            submitting.enable()
        response = client.post(
            f"/api/v1/tables/{table}/deals/{number}/reports",
            data=body,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Referee {first}",
            HTTP_IDEMPOTENCY_KEY=f"t{table}d{number}",
        )
        if measured and submitting:
            submitting.disable()
        assert response.status_code in (200, 201), response.content
        report = response.json()["report"]["id"]
        if measured and confirming:
            confirming.enable()
        response = client.post(
            f"/api/v1/reports/{report}/confirm",
            data=json.dumps({"agrees": True}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Referee {second}",
        )
        if measured and confirming:
            confirming.disable()
        assert response.status_code == 200, response.content

    for table in tables[:5]:
        deal(table, 1, False)
    jobs = [(t, 1) for t in tables[5:]] + [(t, 2) for t in tables]
    started = time.process_time()
    for table, number in jobs:
        deal(table, number, True)
    cpu = time.process_time() - started
    print(
        f"{len(jobs)} deals, process CPU {1000 * cpu / len(jobs):.2f} ms a deal "
        f"(submit + confirm; profiler {'on' if profile else 'off'})"
    )
    for name, prof in (("submit", submitting), ("confirm", confirming)):
        if prof is None:
            continue
        if dump:
            prof.dump_stats(os.path.join(dump, f"{name}.prof"))
        out = io.StringIO()
        stats = pstats.Stats(prof, stream=out)
        print(
            f"=== {name}: {1000 * getattr(stats, 'total_tt', 0) / len(jobs):.2f} ms a request under cProfile"
        )
        stats.sort_stats("cumulative").print_stats(45)
        print(out.getvalue())


if __name__ == "__main__":
    main()
