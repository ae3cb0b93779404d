"""Result entry: what a deal costs, submit + confirm, in one process or on a real server.

In-process (the default): builds an event in a scratch database (a temporary SQLite file, or
DATABASE_URL if set: give it an empty database), then reports and confirms every deal of every
table through the results service, as referees and captains would, and times it. Also times
play-log submissions (the replay dominates those). Celery runs eagerly, so the settlements run
in the same process.

`--postgres` (issue 19): the server's CPU per deal. Starts what `bench/festival.py` starts
(a scratch PostgreSQL database, redis, gunicorn, two Celery workers; no nginx, no readers),
builds an event of `--tables` tables, and reports and confirms every deal over the API from
`--clients` keep-alive clients, then waits for the complete standings. Printed: the process CPU
(user + system, from /proc) of gunicorn's processes and of the Celery workers over the run,
per deal: both requests, the settlement task and its share of the standings runs; and of the
database's PostgreSQL backends, apart.

    .venv/bin/python bench/results_entry.py [--tables 20] [--play-logs 20]
    .venv/bin/python bench/results_entry.py --postgres [--tables 200] [--clients 8]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SUMMARIES = [
    {"format": "gouji-outcome/1", "finish": [1, 2, 3, 4, 5, 6], "points": [3]},
    {"format": "gouji-outcome/1", "finish": [2, 1, 4, 3, 6, 5], "points": [1, 2]},
    {"format": "gouji-outcome/1", "finish": [1, 3, 5, 2, 4, 6], "points": []},
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=None, help="20 (200 with --postgres)")
    parser.add_argument("--play-logs", type=int, default=20)
    parser.add_argument(
        "--postgres", action="store_true", help="gunicorn + Celery workers on PostgreSQL"
    )
    parser.add_argument("--clients", type=int, default=8, help="--postgres: HTTP clients")
    parser.add_argument("--rounds", type=int, default=1, help="--postgres: rounds")
    parser.add_argument("--deals", type=int, default=4, help="--postgres: deals a match")
    parser.add_argument("--log-share", type=float, default=0.1, help="--postgres: play logs")
    parser.add_argument("--http-workers", type=int, default=3)
    parser.add_argument("--http-threads", type=int, default=8)
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--env", action="append", default=[], help="NAME=value for the app")
    parser.add_argument("--db-prefix", default="", help="--postgres: the scratch database's")
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args()
    if args.postgres:
        args.tables = args.tables or 200
        on_server(args)
    else:
        args.tables = args.tables or 20
        in_process(args)


def on_server(args) -> None:
    import signal

    import festival

    args.readers = 0
    args.no_front_cache = True
    workdir = Path(tempfile.mkdtemp(prefix="results-entry-"))
    services = festival.Services(args, workdir)
    os.environ.update(services.env)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    services.up()
    try:
        import django

        django.setup()
        from django.db import connection

        from matches.draw import service as draw
        from matches.models import RefereeLink, Table

        event, stage = festival.build_event(2 * args.tables, args.rounds, args.deals)
        logs, summaries = festival.documents(40, 2026)
        referees = festival.Referees(
            services.http_port, args.clients, logs, summaries, args.log_share, 8
        )
        totals: dict[str, Any] = {
            "deals": 0,
            "seconds": 0.0,
            "cpu": {},
            "submit": [],
            "confirm": [],
        }
        for number in range(1, args.rounds + 1):
            round_ = draw.create_round(stage, seed=1000 + number)
            draw.publish_round(round_)
            tables = list(
                Table.objects.filter(round=round_, match__isnull=False).values_list("pk", flat=True)
            )
            links = RefereeLink.objects.bulk_create(
                [RefereeLink(table_id=t, label=label) for t in tables for label in ("A", "B")]
            )
            by_table: dict[int, list[str]] = {}
            for link in links:
                by_table.setdefault(link.table_id, []).append(link.token)
            connection.close()
            before = services.cpu()
            jobs = [(t, by_table[t][0], by_table[t][1]) for t in tables]  # links A and B
            result = referees.run(jobs, args.deals)
            lag, _ = festival.wait_for_standings(round_, 300)
            after = services.cpu()
            draw.close_round(round_)
            if result["errors"]:
                print("errors:", result["errors"][:5])
            for k in after:
                totals["cpu"][k] = totals["cpu"].get(k, 0.0) + after[k] - before.get(k, 0.0)
            totals["deals"] += result["deals"]
            totals["seconds"] += result["seconds"]
            totals["submit"] += result["submit_ms"]
            totals["confirm"] += result["confirm_ms"]
            print(
                f"round {number}: {result['deals']} deals ({result['logs']} play logs) in "
                f"{result['seconds']:.1f} s, standings complete {lag:.2f} s after the last "
                "confirmation",
                flush=True,
            )
        deals = max(1, totals["deals"])
        cpu = {k: 1000 * v / deals for k, v in totals["cpu"].items()}
        app = cpu["gunicorn"] + cpu["celery"]
        p = festival.percentile
        print(
            f"postgresql, {args.http_workers} gunicorn workers x {args.http_threads} threads, "
            f"2 Celery workers, {args.clients} clients: {totals['deals']} deals at "
            f"{totals['deals'] / totals['seconds']:.1f} deals/s; submit p50/p95 "
            f"{p(totals['submit'], 50):.0f}/{p(totals['submit'], 95):.0f} ms, confirm p50/p95 "
            f"{p(totals['confirm'], 50):.0f}/{p(totals['confirm'], 95):.0f} ms"
        )
        print(
            f"server CPU per deal (submit + confirm + settlement + standings): {app:.2f} ms "
            f"(gunicorn {cpu['gunicorn']:.2f}, celery {cpu['celery']:.2f}); "
            f"PostgreSQL backends {cpu['postgres']:.2f} ms; goal <= 5 ms: "
            f"{'met' if app <= 5 else 'NOT met'}"
        )
    finally:
        services.stop()


def in_process(args) -> None:
    if not os.environ.get("DATABASE_URL"):
        os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)

    from matches.kernel.games.registry import get_game
    from matches.models import DealReport, PlayerAccount
    from matches.permissions import Actor
    from matches.results.confirm import confirm_report
    from matches.results.submit import submit_deal_report
    from tests.builder import EventBuilder
    from tests.personas import make_user

    referee = make_user("bench-referee")
    builder = EventBuilder(unions=2 * args.tables, deals=4).register()
    round_ = builder.round([(2 * k, 2 * k + 1) for k in range(args.tables)])
    event = builder.event
    tables = []
    for match in builder.matches(round_):
        match.table.referees.add(referee)
        captains = []
        for union in (match.union_a, match.union_b):
            user = make_user(f"bench-captain-{match.pk}-{union.pk}")
            PlayerAccount.objects.create(user=user, player=union.captain)
            captains.append(Actor(user=user))
        tables.append((match, captains))
    deals = event.deals_per_match * len(tables)

    start, cpu = time.perf_counter(), time.process_time()
    for number in range(1, event.deals_per_match + 1):
        for match, (captain_a, captain_b) in tables:
            summary = SUMMARIES[(number + match.pk) % len(SUMMARIES)]
            report, _ = submit_deal_report(
                match, number, summary, None, Actor(user=referee), f"bench-{match.pk}-{number}"
            )
            # A referee's report is final when both unions agree (issue 16): both captains.
            confirm_report(report, captain_a, True)
            report.refresh_from_db()
            confirm_report(report, captain_b, True)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    assert DealReport.objects.final().count() == deals
    vendor = django.db.connection.vendor
    print(
        f"{vendor}: {deals} deals submitted and confirmed at {len(tables)} tables "
        f"in {elapsed:.2f} s: {deals / elapsed:,.0f} deals/s, {elapsed / deals * 1000:.1f} ms "
        f"each ({cpu / deals * 1000:.1f} ms of CPU, eager settlements included)"
    )

    if args.play_logs:
        records = list(get_game("gouji").selfplay(args.play_logs, 11))
        type(event).objects.filter(pk=event.pk).update(result_confirmation="none")
        second = builder.round([(2 * k, 2 * k + 1) for k in range(len(records))])
        matches = builder.matches(second)
        for match in matches:
            match.table.referees.add(referee)
        start = time.perf_counter()
        for number, (record, match) in enumerate(zip(records, matches), 1):
            submit_deal_report(match, 1, None, record, Actor(user=referee), f"log-{number}")
        elapsed = time.perf_counter() - start
        actions = sum(len(r["actions"]) for r in records)
        print(
            f"{vendor}: {len(records)} play logs ({actions} actions) submitted in "
            f"{elapsed:.2f} s: {elapsed / len(records) * 1000:.1f} ms each"
        )


if __name__ == "__main__":
    main()
