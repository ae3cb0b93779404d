"""Result entry through the service: submit + confirm per deal, with the database round trips.

Builds an event in a scratch database (a temporary SQLite file, or DATABASE_URL if set: give it
an empty database), then reports and confirms every deal of every table, as referees and
captains would, and times it. Also times play-log submissions (the replay dominates those).

    /work/main/.venv/bin/python bench/results_entry.py [--tables 20] [--play-logs 20]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if not os.environ.get("DATABASE_URL"):
    os.environ["SQLITE_PATH"] = str(Path(tempfile.mkdtemp()) / "bench.sqlite3")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402

SUMMARIES = [
    {"format": "gouji-outcome/1", "finish": [1, 2, 3, 4, 5, 6], "points": [3]},
    {"format": "gouji-outcome/1", "finish": [2, 1, 4, 3, 6, 5], "points": [1, 2]},
    {"format": "gouji-outcome/1", "finish": [1, 3, 5, 2, 4, 6], "points": []},
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--play-logs", type=int, default=20)
    args = parser.parse_args()
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("migrate", verbosity=0)

    from matches.games.engines import get_game
    from matches.models import DealReport, PlayerAccount
    from matches.permissions import Actor
    from matches.results import service as results
    from tests.results.conftest import build_table, make_user

    referee = make_user("bench-referee")
    event = None
    tables = []
    for number in range(1, args.tables + 1):
        round_, table, match = build_table(event, number=number)
        event = round_.event
        table.referees.add(referee)
        captains = []
        for union in (match.union_a, match.union_b):
            user = make_user(f"bench-captain-{number}-{union.pk}")
            PlayerAccount.objects.create(user=user, player=union.captain)
            captains.append(Actor(user=user))
        tables.append((match, captains))
    deals = event.deals_per_match * len(tables)

    start = time.perf_counter()
    for number in range(1, event.deals_per_match + 1):
        for match, (captain_a, captain_b) in tables:
            deal = results.deal_for(match, number)
            summary = SUMMARIES[(number + match.pk) % len(SUMMARIES)]
            report, _ = results.submit_report(
                deal, summary, None, Actor(user=referee), f"bench-{deal.pk}"
            )
            loser = captain_b if report.score_a > 0 else captain_a
            results.confirm_report(report, loser, True)
    elapsed = time.perf_counter() - start
    assert DealReport.objects.final().count() == deals
    vendor = django.db.connection.vendor
    print(
        f"{vendor}: {deals} deals submitted and confirmed at {len(tables)} tables "
        f"in {elapsed:.2f} s: {deals / elapsed:,.0f} deals/s, {elapsed / deals * 1000:.1f} ms each"
    )

    if args.play_logs:
        records = list(get_game("gouji").selfplay(args.play_logs, 11))
        type(event).objects.filter(pk=event.pk).update(result_confirmation="none")
        matches = []
        for index in range(len(records)):
            _, table, match = build_table(event, number=len(tables) + 1 + index)
            table.referees.add(referee)
            matches.append(match)
        start = time.perf_counter()
        for number, (record, match) in enumerate(zip(records, matches), 1):
            deal = results.deal_for(match, 1)
            results.submit_report(deal, None, record, Actor(user=referee), f"log-{number}")
        elapsed = time.perf_counter() - start
        actions = sum(len(r["actions"]) for r in records)
        print(
            f"{vendor}: {len(records)} play logs ({actions} actions) submitted in "
            f"{elapsed:.2f} s: {elapsed / len(records) * 1000:.1f} ms each"
        )


if __name__ == "__main__":
    main()
