"""The cost of the derived rows' check (the chain page's task, `verify_results`) per match.

    .venv/bin/python bench/chain_check.py [--unions 120] [--rounds 5] [--deals 6]

Builds an event of random final results in a throwaway SQLite database (bench/standings.py's
builder, not timed), settled and with its standings written, then times in CPU seconds of this
process (SQLite works in it):

- the check as the task runs it (`matches.standings.verify.differences`: match by match, each
  settlement in a transaction rolled back, then the standings once), and
- the check as a GET ran it before issue 47 (one full `recompute_event` inside one transaction
  rolled back, then every row compared),

alternated (check, recompute, check, recompute) so that both see the same load; each figure is
also given per match.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.dirname(__file__))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
os.environ["SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")
os.environ.pop("DATABASE_URL", None)
os.environ.pop("CELERY_BROKER_URL", None)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--unions", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from standings import build_random_event  # bench/standings.py

    from matches.models import Match
    from matches.standings import service as standings
    from matches.standings import verify

    event = build_random_event(args.unions, args.rounds, args.deals)
    standings.recompute_event(event.pk)  # stored rows as the tasks leave them
    matches = Match.objects.filter(round__event=event, table__isnull=False).count()

    def old_check():
        before = verify.derived_rows(event.pk)

        def everything():
            standings.recompute_event(event.pk)
            return verify.derived_rows(event.pk)

        return verify.Differences(rows=verify._differ(before, verify._rolled_back(everything)))

    timings: dict[str, list[float]] = {"task, match by match": [], "one transaction (before)": []}
    for _ in range(args.repeat):
        for label, run in (
            ("task, match by match", lambda: verify.differences(event)),
            ("one transaction (before)", old_check),
        ):
            started = time.process_time()
            found = run()
            timings[label].append(time.process_time() - started)
            assert not found.rows, found.rows[:5]
    print(
        f"{args.unions} unions, {args.rounds} rounds, {args.deals} deals a match: {matches} matches"
    )
    for label, values in timings.items():
        shown = ", ".join(f"{v:.2f}" for v in values)
        per_match = min(values) / matches * 1000
        print(f"{label:<26} CPU s {shown}   best {per_match:.1f} ms a match")


if __name__ == "__main__":
    main()
