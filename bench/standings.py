"""Standings computation speed on a big event: N unions, R Swiss rounds, D deals a match.

    python bench/standings.py [--unions 120] [--rounds 5] [--deals 6]

Builds the event in a throwaway SQLite database (final reports written directly, not timed),
then times a full `recompute_event` and one incremental step (one match settled again and the
standings of the last round rewritten), as the Celery tasks run them, and the public standings
fragment a live page polls (a full answer, and a 304).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import random
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
os.environ["SQLITE_PATH"] = os.path.join(tempfile.mkdtemp(), "bench.sqlite3")
os.environ.pop("DATABASE_URL", None)
os.environ.pop("CELERY_BROKER_URL", None)


def build_random_event(unions: int, rounds: int, deals: int):
    """An event of `unions` unions and `rounds` Swiss rounds of random final results, each
    match settled (bench/standings_step.py builds its database with it too)."""
    from django.db import transaction

    from matches.demo.builder import create_event, enter_field
    from matches.draw import service as draw
    from matches.kernel.games.registry import adapter_named
    from matches.models import Deal, DealReport
    from matches.standings import service as standings

    rng = random.Random(1)
    plan = adapter_named("gouji").demo_plan()
    plan = dataclasses.replace(
        plan,
        name="bench",
        event={**plan.event, "deals_per_match": deals, "published": False},
        planned_rounds=rounds,
    )
    with transaction.atomic():
        event, stage = create_event("gouji", plan)
        enter_field(event, rng, unions)
        for number in range(1, rounds + 1):
            round_ = draw.create_round(stage, seed=number)
            draw.publish_round(round_)
            for match in round_.matches.filter(table__isnull=False):
                for k in range(1, deals + 1):
                    seats = [1, 2, 3, 4, 5, 6]
                    rng.shuffle(seats)
                    deal = Deal.objects.create(match=match, number=k)
                    DealReport.objects.create(
                        deal=deal,
                        state="final",
                        summary={"format": "gouji-outcome/1", "finish": seats, "points": seats[:2]},
                    )
                standings.settle_match(match.pk)
            draw.close_round(round_)
    return event


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--unions", type=int, default=120)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=6)
    args = parser.parse_args()

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from matches.models import DealReport, Match
    from matches.standings import service as standings

    event = build_random_event(args.unions, args.rounds, args.deals)
    deals = DealReport.objects.count()
    start = time.perf_counter()
    standings.recompute_event(event.pk)
    full = time.perf_counter() - start
    match = Match.objects.filter(round__number=args.rounds, table__isnull=False).first()
    assert match is not None, "the bench's event has no match in that round"
    start = time.perf_counter()
    standings.settle_match(match.pk)
    standings.update_standings(event.pk, args.rounds)
    step = time.perf_counter() - start
    # The public standings page, as a poller sees it: a full answer, then 304s.
    from django.test import Client

    event.published = True
    event.save(update_fields=["published"])
    client = Client()
    url = f"/events/{event.pk}/standings/"
    first = client.get(url, HTTP_HX_REQUEST="true")
    etag = first["ETag"]
    runs = 50
    start = time.perf_counter()
    for _ in range(runs):
        client.get(url, HTTP_HX_REQUEST="true")
    full_page = (time.perf_counter() - start) / runs
    start = time.perf_counter()
    for _ in range(runs):
        assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
    not_modified = (time.perf_counter() - start) / runs
    print(f"{args.unions} unions, {args.rounds} rounds, {deals} final deals")
    print(f"recompute_event: {full:.2f} s ({deals / full:.0f} deals/s)")
    print(f"incremental step (one match + last round's standings): {step * 1000:.0f} ms")
    print(
        f"public standings fragment: {full_page * 1000:.1f} ms (200), "
        f"{not_modified * 1000:.1f} ms (304 with If-None-Match)"
    )


if __name__ == "__main__":
    main()
