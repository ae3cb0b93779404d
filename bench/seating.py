"""Seating benchmarks: speed and quality of the Swiss and individual draws (no database).

    python bench/seating.py --unions 3334 --rounds 9                  # 300 clubs, kept apart
    python bench/seating.py --unions 3334 --rounds 9 --ignore-clubs   # clubs only counted
    python bench/seating.py --unions 300 --rounds 9 --check-exact   # chunked v one piece
    python bench/seating.py --players 10002 --rounds 9 --individual
    python bench/seating.py --compare --same-state --unions 60 --rounds 7 --trials 10
    (--compare needs bench/requirements.txt)

Results are random but reproducible from --seed. A match result depends only on the seed, the
round and the two unions (never on which engine paired them), so two engines are compared on
the same random results.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
import time
from collections.abc import Hashable
from dataclasses import replace

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from matches.kernel.pairing.individual import Player, apply_individual_round, draw_individual  # noqa: E402
from matches.kernel.pairing.simulate import DRAW, LOSS, WIN, apply_round, field_of  # noqa: E402
from matches.kernel.pairing.swiss import measure, pair_swiss  # noqa: E402
from matches.kernel.pairing.types import Draw, Pairing  # noqa: E402

# Gou Ji's six seats, alternating unions (R1), as the game's table shape gives them.
SIX_SEATS = ("A", "B", "A", "B", "A", "B")


def outcome(seed: int, round_number: int, a, b) -> tuple[int, int]:
    """Match points of a v b in this round: 10% draws, else a fair coin — the same for any
    engine that pairs a with b in this round."""
    low, high = sorted((a, b))
    digest = hashlib.sha256(f"{seed}:{round_number}:{low}:{high}".encode()).digest()
    roll = int.from_bytes(digest[:8], "big") / 2**64
    if roll < 0.1:
        return DRAW, DRAW
    low_wins = roll < 0.55
    winner = low if low_wins else high
    return (WIN, LOSS) if winner == a else (LOSS, WIN)


def play(field: dict, draw: Draw, seed: int, round_number: int) -> dict:
    outcomes = {
        (p.a, p.b): outcome(seed, round_number, p.a, p.b) for p in draw.pairings if not p.is_bye
    }
    return apply_round(field, draw, outcomes)


def clubbed(field: dict, clubs: int, seed: int) -> dict:
    """Each union in one of `clubs` clubs, at random from the seed (0: no clubs)."""
    if not clubs:
        return field
    rng = random.Random(seed)
    return {k: replace(e, club=rng.randrange(clubs)) for k, e in field.items()}


def swiss_event(
    unions: int,
    rounds: int,
    seed: int,
    check_exact: bool = False,
    clubs: int = 0,
    avoid_clubs: bool = True,
) -> None:
    field = clubbed(field_of(unions), clubs, seed)
    print(
        f"Team Swiss: {unions} unions, {clubs} clubs"
        f" ({'kept apart' if avoid_clubs else 'ignored'}), {rounds} rounds, seed {seed}"
    )
    print(
        "round  seconds  cpu_s  method   rematches  same_club  score_diff  lower_bound"
        "  seat_imbalance  byes"
        + ("  exact_rematches  exact_score_diff  exact_seconds" if check_exact else "")
    )
    worst = 0.0
    total_rematches = total_clubs = 0
    worst_cpu = 0.0
    for r in range(1, rounds + 1):
        started, cpu_started = time.perf_counter(), time.process_time()
        draw = pair_swiss(
            field.values(), round_number=r, seed=seed + r, seeded=False, avoid_clubs=avoid_clubs
        )
        seconds = time.perf_counter() - started
        # CPU time as well: on a shared machine the wall clock measures the neighbours too.
        cpu = time.process_time() - cpu_started
        worst, worst_cpu = max(worst, seconds), max(worst_cpu, cpu)
        q = draw.quality
        total_rematches += q["rematches"]
        total_clubs += q["club_clashes"]
        line = (
            f"{r:>5}  {seconds:7.3f}  {cpu:5.2f}  {q['method']:<8} {q['rematches']:>9}"
            f"  {q['club_clashes']:>9}  {q['score_diff_sum']:>10}"
            f"  {q['score_diff_lower_bound']:>11}  {q['seat_imbalance']:>14}  {q['byes']:>4}"
        )
        if check_exact and r > 1:
            # The same standings matched in one piece over every pair: the true optimum.
            started = time.perf_counter()
            exact = pair_swiss(
                field.values(),
                round_number=r,
                seed=seed + r,
                seeded=False,
                exact_limit=10**9,
                avoid_clubs=avoid_clubs,
            ).quality
            line += (
                f"  {exact['rematches']:>15}  {exact['score_diff_sum']:>16}"
                f"  {time.perf_counter() - started:13.2f}"
            )
        print(line)
        field = play(field, draw, seed, r)
    print(
        f"slowest round {worst:.3f} s ({worst_cpu:.2f} s CPU); rematches in total {total_rematches};"
        f" same-club meetings in total {total_clubs}"
    )


def individual_event(players: int, rounds: int, seed: int, clubs: int) -> None:
    rng = random.Random(seed)
    field: dict[Hashable, Player] = {
        k: Player(id=k, rank=k, club=rng.randrange(clubs) if clubs else None)
        for k in range(1, players + 1)
    }
    print(f"Individual draw: {players} players, {clubs} clubs, {rounds} rounds, seed {seed}")
    print(
        "round  seconds  tables  repeat_partners  repeat_opponents  met_before  club_clashes"
        "  sitting_out"
    )
    worst = 0.0
    for r in range(1, rounds + 1):
        started = time.perf_counter()
        draw = draw_individual(field.values(), sides=SIX_SEATS, round_number=r, seed=seed + r)
        seconds = time.perf_counter() - started
        worst = max(worst, seconds)
        q = draw.quality
        print(
            f"{r:>5}  {seconds:7.3f}  {q['tables']:>6}  {q['repeat_partners']:>15}"
            f"  {q['repeat_opponents']:>16}  {q['repeat_meetings']:>10}  {q['club_clashes']:>11}"
            f"  {len(draw.sitting_out):>11}"
        )
        points = {}
        for table in draw.tables:
            a_wins = hashlib.sha256(f"{seed}:{r}:{table.seats}".encode()).digest()[0] % 2
            for pid in table.union_a if a_wins else table.union_b:
                points[pid] = WIN
        field = apply_individual_round(field, draw, points)
    print(f"slowest round {worst:.3f} s")


# --- comparison with a FIDE Dutch engine ------------------------------------------------------


def dutch_round(field: dict, round_number: int, rounds: int, float_history: dict) -> Draw:
    from caissify_pairings import generate_pairings

    players = []
    for e in field.values():
        colours = ["white" if side == "A" else "black" for side in e.sides]
        players.append(
            {
                "id": e.id,
                "name": str(e.id),
                "score": float(e.score),
                "rating": 3000 - e.rank,
                "starting_number": e.rank,
                "color_hist": colours,
                "float_history": float_history[e.id],
                "bye_count": e.byes,
            }
        )
    previous = {(a, b) for a in field for b in field[a].opponents if a < b}
    result = generate_pairings(
        "dutch", players, previous, round_number, rounds, bye_value=float(WIN)
    )
    pairings = []
    for row in result:
        if row.get("black_id") is None:
            pairings.append(
                Pairing(
                    a=row["white_id"],
                    b=None,
                    flags=["bye"],
                    details={"score_a": field[row["white_id"]].score},
                )
            )
            continue
        a, b = field[row["white_id"]], field[row["black_id"]]
        flags = ["rematch_forced"] if b.id in a.opponents else []
        pairings.append(
            Pairing(a=a.id, b=b.id, flags=flags, details={"score_a": a.score, "score_b": b.score})
        )
    draw = Draw(pairings=pairings)
    draw.quality = measure(draw, {e.id: e for e in field.values()})
    return draw


def floats_after(field: dict, draw: Draw, history: dict) -> None:
    for p in draw.pairings:
        if p.is_bye:
            history[p.a].append("down")
            continue
        sa, sb = field[p.a].score, field[p.b].score
        history[p.a].append("down" if sa > sb else "up" if sa < sb else "none")
        history[p.b].append("down" if sb > sa else "up" if sb < sa else "none")


def compare(unions: int, rounds: int, seed: int, trials: int, same_state: bool) -> None:
    print(
        f"Ours v FIDE Dutch (caissify-pairings): {unions} unions, {rounds} rounds, {trials} trials"
    )
    if same_state:
        same_state_rounds(unions, rounds, seed, trials)
    print("trial  engine  rematches  score_diff_sum  seat_imbalance  seconds")
    totals = {"ours": [0, 0, 0, 0.0], "dutch": [0, 0, 0, 0.0]}
    for trial in range(trials):
        trial_seed = seed + 1000 * trial
        for engine in ("ours", "dutch"):
            field = field_of(unions)
            history: dict[Hashable, list] = {k: [] for k in field}
            sums = [0, 0, 0, 0.0]
            for r in range(1, rounds + 1):
                started = time.perf_counter()
                if engine == "ours":
                    draw = pair_swiss(field.values(), round_number=r, seed=trial_seed + r)
                else:
                    draw = dutch_round(field, r, rounds, history)
                sums[3] += time.perf_counter() - started
                q = draw.quality
                sums[0] += q["rematches"]
                sums[1] += q["score_diff_sum"]
                sums[2] += q["seat_imbalance"]
                floats_after(field, draw, history)
                field = play(field, draw, trial_seed, r)
            print(
                f"{trial:>5}  {engine:<6}  {sums[0]:>9}  {sums[1]:>14}  {sums[2]:>14}"
                f"  {sums[3]:7.2f}"
            )
            totals[engine] = [t + s for t, s in zip(totals[engine], sums)]
    ours, dutch = totals["ours"], totals["dutch"]
    print(f"total  ours    {ours[0]:>9}  {ours[1]:>14}  {ours[2]:>14}  {ours[3]:7.2f}")
    print(f"total  dutch   {dutch[0]:>9}  {dutch[1]:>14}  {dutch[2]:>14}  {dutch[3]:7.2f}")
    if dutch[1]:
        print(f"score-difference sum, ours / Dutch: {ours[1] / dutch[1]:.3f}")


def same_state_rounds(unions: int, rounds: int, seed: int, trials: int) -> None:
    """Both engines pair the very same standings, round by round (our trajectory)."""
    print("Same standings each round (rounds 2..): rematches and score-difference sum")
    print("trial  round  ours_rematches  dutch_rematches  ours_diff  dutch_diff")
    ours_total = dutch_total = 0
    for trial in range(trials):
        trial_seed = seed + 1000 * trial
        field = field_of(unions)
        history: dict[Hashable, list] = {k: [] for k in field}
        for r in range(1, rounds + 1):
            draw = pair_swiss(field.values(), round_number=r, seed=trial_seed + r)
            if r > 1:
                theirs = dutch_round(field, r, rounds, history)
                q, t = draw.quality, theirs.quality
                ours_total += q["score_diff_sum"]
                dutch_total += t["score_diff_sum"]
                print(
                    f"{trial:>5}  {r:>5}  {q['rematches']:>14}  {t['rematches']:>15}"
                    f"  {q['score_diff_sum']:>9}  {t['score_diff_sum']:>10}"
                )
            floats_after(field, draw, history)
            field = play(field, draw, trial_seed, r)
    print(f"same-standings score-difference sum: ours {ours_total}, Dutch {dutch_total}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--unions", type=int)
    parser.add_argument("--players", type=int)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--individual", action="store_true")
    parser.add_argument(
        "--clubs",
        type=int,
        default=300,
        help="clubs in the field (unions or players at random; 0: none)",
    )
    parser.add_argument(
        "--ignore-clubs",
        action="store_true",
        help="Swiss: draw as if clubs did not exist (meetings only counted)",
    )
    parser.add_argument("--compare", action="store_true", help="against FIDE Dutch")
    parser.add_argument(
        "--check-exact",
        action="store_true",
        help="also match each Swiss round in one piece (slow above ~300)",
    )
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument(
        "--same-state",
        action="store_true",
        help="with --compare: also pair the same standings with both engines",
    )
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.individual:
        individual_event(args.players or 10002, args.rounds, args.seed, args.clubs)
    elif args.compare:
        compare(args.unions or 60, args.rounds, args.seed, args.trials, args.same_state)
    else:
        swiss_event(
            args.unions or 3334,
            args.rounds,
            args.seed,
            args.check_exact,
            clubs=args.clubs,
            avoid_clubs=not args.ignore_clubs,
        )


if __name__ == "__main__":
    main()
