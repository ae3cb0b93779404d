"""The seating service end to end on a real database: draw, publish, results, close.

    python bench/seating_db.py --unions 3334 --rounds 3

Uses a throwaway SQLite file (or DATABASE_URL when set) and prints, per round, the seconds to
draw and write the round (`create_round`) and to publish it.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--unions", type=int, default=3334)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL"):
        os.environ["SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import datetime

    from matches.draw import service as draw
    from matches.models import Event, Registration, Stage, Union, UnionMember
    from players.models import Player

    event = Event.objects.create(name="bench", start_date=datetime.date(2026, 5, 1))
    stage = Stage.objects.create(event=event, format=Stage.Format.SWISS)
    unions = Union.objects.bulk_create(
        [Union(event=event, name=f"U{k}") for k in range(1, args.unions + 1)]
    )
    players = Player.objects.bulk_create(
        [Player(name=f"P{k}") for k in range(1, 3 * args.unions + 1)]
    )
    UnionMember.objects.bulk_create(
        [
            UnionMember(
                union=u, event=event, player=players[3 * i + k], order=k + 1, is_captain=k == 0
            )
            for i, u in enumerate(unions)
            for k in range(3)
        ]
    )
    Registration.objects.bulk_create(
        [
            Registration(event=event, union=u, seed=i + 1, status=Registration.Status.CHECKED_IN)
            for i, u in enumerate(unions)
        ]
    )
    rng = random.Random(args.seed)
    print(f"Seating service on {django.db.connection.vendor}: {args.unions} unions")
    print("round  draw+write_s  engine_s  publish_s  rematches  score_diff")
    for number in range(1, args.rounds + 1):
        started = time.perf_counter()
        round_ = draw.create_round(stage, seed=args.seed + number)
        drawn = time.perf_counter() - started
        started = time.perf_counter()
        draw.publish_round(round_)
        published = time.perf_counter() - started
        q = round_.quality
        print(
            f"{number:>5}  {drawn:12.3f}  {q.get('seconds', 0):8.3f}  {published:9.3f}"
            f"  {q['rematches']:>9}  {q['score_diff_sum']:>10}"
        )
        play_random_results(round_, rng)
        draw.close_round(round_)


def play_random_results(round_, rng: random.Random) -> None:
    """Each match's totals and match points as if its deals were played (written straight into
    the match rows: the benchmark measures the seating, not the results)."""
    from django.utils import timezone

    event = round_.event
    for match in round_.matches.played():
        total = sum(
            rng.choice([-12, -6, -4, -3, -2, -1, 1, 2, 3, 4, 6, 12])
            for _ in range(event.deals_per_match)
        )
        match.score_a, match.score_b = total, -total
        if total > 0:
            match.points_a, match.points_b = event.points_win, event.points_loss
        elif total < 0:
            match.points_a, match.points_b = event.points_loss, event.points_win
        else:
            match.points_a = match.points_b = event.points_draw
        match.completed_at = timezone.now()
        match.save(update_fields=["score_a", "score_b", "points_a", "points_b", "completed_at"])


if __name__ == "__main__":
    main()
