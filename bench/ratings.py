"""The rating list's speed and quality (issue 29, docs/ratings.md).

    python bench/ratings.py                       # 10,002 players, 9 rounds, 60,012 deals
    python bench/ratings.py --players 1200 --quick
    python bench/ratings.py --backtest            # what one rating update is: the four modes

Speed: a rated event of `--players` players (unions of three, 1,667 tables a round) and
`--rounds` closed rounds of four deals a match is written straight into a throwaway SQLite
database (seats and settled deal tallies, not timed); then a full recompute from scratch, and
one round's incremental update (round 9 closed after rounds 1-8 were rated), as the Celery task
runs them, are timed and compared (identical, float for float).

Quality: simulated players with a hidden true skill (seasons/simulate.py) play 5 events; the
rating list's Spearman rank correlation with the true skill, next to a points-only baseline
(players ordered by the match points they earned), on three seeds.
"""

from __future__ import annotations

import argparse
import datetime
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

from seasons.engine import MODES, MU, SIGMA, apply_round, ordinal  # noqa: E402
from seasons.simulate import deal, simulate, spearman  # noqa: E402


def build(players: int, rounds: int, deals: int) -> tuple[int, list[int]]:
    """The event's rows, written directly: rounds closed, tables, matches, seats, deals and
    their tallies. Returns the event id and the round ids."""
    from django.db import transaction

    from matches.models import Deal, DealTally, Event, Match, Round, Stage, Table, TableSeat
    from players.models import Player

    rng = random.Random(29)
    with transaction.atomic():
        Player.objects.bulk_create(
            [Player(name=f"p{k:05d}") for k in range(players)], batch_size=5000
        )
        ids = list(Player.objects.order_by("pk").values_list("pk", flat=True))
        skill = {pid: rng.gauss(0.0, 1.0) for pid in ids}
        event = Event.objects.create(
            name="bench",
            start_date=datetime.date(2026, 5, 1),
            published=True,
            rated=True,
            deals_per_match=deals,
        )
        stage = Stage.objects.create(event=event, order=1, planned_rounds=rounds)
        round_ids = []
        for number in range(1, rounds + 1):
            round_ = Round.objects.create(
                event=event,
                stage=stage,
                number=number,
                stage_round=number,
                seed=number,
                state=Round.State.CLOSED,
            )
            round_ids.append(round_.pk)
            field = ids[: len(ids) // 6 * 6]
            rng.shuffle(field)
            tables = Table.objects.bulk_create(
                [Table(round=round_, number=k + 1) for k in range(len(field) // 6)],
                batch_size=5000,
            )
            matches = Match.objects.bulk_create(
                [Match(round=round_, table=t) for t in tables], batch_size=5000
            )
            seats, deal_rows, plays = [], [], []
            for k, (table, match) in enumerate(zip(tables, matches, strict=True)):
                six = field[6 * k : 6 * k + 6]
                a, b = tuple(six[0:3]), tuple(six[3:6])
                seat_of = {}
                for j in range(3):
                    seat_of[a[j]], seat_of[b[j]] = 2 * j + 1, 2 * j + 2
                    seats.append(
                        TableSeat(
                            table=table, round=round_, seat=2 * j + 1, player_id=a[j], side="A"
                        )
                    )
                    seats.append(
                        TableSeat(
                            table=table, round=round_, seat=2 * j + 2, player_id=b[j], side="B"
                        )
                    )
                for n in range(1, deals + 1):
                    played = deal(rng, skill, a, b, 2.0)
                    deal_rows.append(Deal(match=match, number=n))
                    plays.append((match, played, [seat_of[p] for p in played.finish]))
            TableSeat.objects.bulk_create(seats, batch_size=5000)
            made = Deal.objects.bulk_create(deal_rows, batch_size=5000)
            DealTally.objects.bulk_create(
                [
                    DealTally(
                        deal=d,
                        match=m,
                        report_id=0,
                        score_a=p.scores[0],
                        score_b=p.scores[1],
                        places=[[seat] for seat in finish],
                    )
                    for d, (m, p, finish) in zip(made, plays, strict=True)
                ],
                batch_size=5000,
            )
    return event.pk, round_ids


def speed(players: int, rounds: int, deals: int) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from matches.models import DealTally, Round
    from seasons import ratings
    from seasons.models import PlayerRating, RatingStep

    started = time.perf_counter()
    event_id, round_ids = build(players, rounds, deals)
    print(
        f"built {players} players, {rounds} rounds, "
        f"{DealTally.objects.count()} deals in {time.perf_counter() - started:.1f} s"
    )

    def values():
        return (
            sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma")),
            sorted(RatingStep.objects.values_list("player_id", "round_id", "mu", "sigma")),
        )

    started, cpu = time.perf_counter(), time.process_time()
    rated = ratings.recompute_all()
    full, full_cpu = time.perf_counter() - started, time.process_time() - cpu
    print(f"full recompute: {rated} rounds in {full:.1f} s wall, {full_cpu:.1f} s CPU")
    whole = values()

    Round.objects.filter(pk=round_ids[-1]).update(state=Round.State.DRAFT)
    ratings.recompute_all()  # rounds 1-8 rated
    Round.objects.filter(pk=round_ids[-1]).update(state=Round.State.CLOSED)
    started, cpu = time.perf_counter(), time.process_time()
    rated = ratings.update_ratings(event_id, rounds)
    step, step_cpu = time.perf_counter() - started, time.process_time() - cpu
    print(
        f"one round's incremental update: {rated} round in {step:.2f} s wall, {step_cpu:.2f} s CPU"
    )
    print(f"incremental equals full recompute: {values() == whole}")
    print(f"load average {os.getloadavg()[0]:.1f}")


def quality(seeds=(29, 30, 31), modes=("finish",), players: int = 600) -> None:
    for seed in seeds:
        sim = simulate(players=players, seed=seed)
        pids = sorted(sim.skill)
        truth = [sim.skill[p] for p in pids]
        base = spearman([float(sum(sim.match_points[p])) for p in pids], truth)
        line = [f"seed {seed}: points-only rho {base:.3f}"]
        for mode in modes:
            state: dict = {}
            hits = total = 0
            for number, event in enumerate(sim.events):
                for round_ in event:
                    if number == len(sim.events) - 1:  # predict the last event's matches
                        for match in round_:
                            a, b = match.sides
                            ma = sum(state.get(p, (MU, SIGMA))[0] for p in a)
                            mb = sum(state.get(p, (MU, SIGMA))[0] for p in b)
                            ta, tb = match.totals
                            if ta != tb and ma != mb:
                                total += 1
                                hits += (ma > mb) == (ta > tb)
                    apply_round(state, round_, mode)
            rho = spearman([ordinal(*state.get(p, (MU, SIGMA))) for p in pids], truth)
            line.append(f"{mode} rho {rho:.3f} (event 5 winners {hits / max(total, 1):.3f})")
        print("; ".join(line))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=10002)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--backtest", action="store_true", help="compare the four update modes")
    parser.add_argument("--quick", action="store_true", help="one quality seed")
    args = parser.parse_args()
    if args.backtest:
        quality(modes=MODES)
        return
    speed(args.players, args.rounds, args.deals)
    quality(seeds=(29,) if args.quick else (29, 30, 31))


if __name__ == "__main__":
    main()
