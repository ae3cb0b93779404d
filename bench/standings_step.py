"""CPU time of one standings run late in a big event: what a Celery worker spends when a
festival's last result of round R comes in (`update_standings(event, R)`).

    .venv/bin/python bench/standings_step.py --unions 1000 --rounds 6 build   # once, minutes
    .venv/bin/python bench/standings_step.py --unions 1000 --rounds 6 run     # three timings

`build` makes a throwaway SQLite database (`--db`, default /tmp/gouji-standings-step.sqlite3)
with N unions and R Swiss rounds of random final results, settled; `run` times
`update_standings` for the last round three times in CPU time (SQLite runs in-process, so
the database's work is counted and a busy machine does not inflate it) and prints a digest of
the rows, so two versions of the code can be compared on the same data.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
os.environ["DJANGO_SETTINGS_MODULE"] = "gouji_tournament.settings"
for name in ("DATABASE_URL", "CELERY_BROKER_URL"):
    os.environ.pop(name, None)


def build(unions: int, rounds: int, deals: int) -> None:
    from django.core.management import call_command
    from standings import build_random_event  # bench/standings.py

    from matches.standings import service as standings

    call_command("migrate", verbosity=0)
    event = build_random_event(unions, rounds, deals)
    standings.update_standings(event.pk, 1)
    print(f"built: {unions} unions, {rounds} rounds, {deals} deals a match")


def run(rounds: int) -> None:
    from matches.models import Event, StandingsSnapshot
    from matches.standings import service as standings

    event = Event.objects.order_by("-pk").first()
    assert event is not None, "no event: build one first"
    for _ in range(3):
        started = time.process_time()
        standings.update_standings(event.pk, rounds)
        print(f"update_standings(round {rounds}): {time.process_time() - started:.2f} s CPU")
    rows = {
        f"{s.kind}/{s.scope}": s.rows
        for s in StandingsSnapshot.objects.filter(event=event, round__number=rounds)
    }
    digest = hashlib.sha1(json.dumps(sorted(rows.items()), sort_keys=True).encode()).hexdigest()
    print("rows digest", digest[:12])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--unions", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--db", default="/tmp/gouji-standings-step.sqlite3")
    parser.add_argument("what", choices=["build", "run"])
    args = parser.parse_args()
    os.environ["SQLITE_PATH"] = args.db
    import django

    django.setup()
    if args.what == "build":
        build(args.unions, args.rounds, args.deals)
    else:
        run(args.rounds)


if __name__ == "__main__":
    main()
