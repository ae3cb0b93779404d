"""Simulated players with a hidden true skill (pure Python): the backtest of docs/ratings.md and
bench/ratings.py. A deal: each player's performance is skill + noise; the finishing order sorts
the six by performance; a union's deal score is the sum of its members' place values (Gou Ji's
first place wins most, the last loses most), so the two unions' scores are opposite."""

from __future__ import annotations

import random
from dataclasses import dataclass

from seasons.engine import RatedDeal, RatedMatch

PLACE_VALUES = (3, 2, 1, -1, -2, -3)


@dataclass
class Simulated:
    skill: dict[int, float]
    events: list[list[list[RatedMatch]]]  # events -> rounds -> matches
    match_points: dict[int, list[int]]  # per event, each player's match points


def deal(
    rng: random.Random, skill: dict[int, float], a: tuple, b: tuple, noise: float
) -> RatedDeal:
    seats = [a[0], b[0], a[1], b[1], a[2], b[2]]
    perf = {pid: skill[pid] + rng.gauss(0.0, noise) for pid in seats}
    finish = tuple(sorted(seats, key=lambda pid: -perf[pid]))
    value = {pid: PLACE_VALUES[k] for k, pid in enumerate(finish)}
    score_a = sum(value[p] for p in a)
    return RatedDeal(sides=(a, b), scores=(score_a, -score_a), finish=finish)


def simulate(
    players: int = 600,
    events: int = 5,
    rounds: int = 7,
    deals: int = 4,
    noise: float = 2.0,
    seed: int = 29,
    attendance: float = 0.8,
) -> Simulated:
    rng = random.Random(seed)
    skill = {pid: rng.gauss(0.0, 1.0) for pid in range(1, players + 1)}
    out: list[list[list[RatedMatch]]] = []
    points: dict[int, list[int]] = {pid: [] for pid in skill}
    for _ in range(events):
        field = [pid for pid in skill if rng.random() < attendance]
        field = field[: len(field) // 6 * 6]
        rng.shuffle(field)
        unions = [tuple(field[k : k + 3]) for k in range(0, len(field), 3)]
        got = dict.fromkeys(field, 0)
        event_rounds = []
        for _ in range(rounds):
            rng.shuffle(unions)
            matches = []
            for k in range(0, len(unions), 2):
                a, b = unions[k], unions[k + 1]
                match = RatedMatch(tuple(deal(rng, skill, a, b, noise) for _ in range(deals)))
                ta, tb = match.totals
                pa, pb = (3, 0) if ta > tb else (0, 3) if tb > ta else (1, 1)
                for pid in a:
                    got[pid] += pa
                for pid in b:
                    got[pid] += pb
                matches.append(match)
            event_rounds.append(matches)
        out.append(event_rounds)
        for pid in skill:
            points[pid].append(got.get(pid, 0))
    return Simulated(skill, out, points)


def spearman(xs: list[float], ys: list[float]) -> float:
    def ranks(values: list[float]) -> list[float]:
        order = sorted(range(len(values)), key=lambda k: values[k])
        r = [0.0] * len(values)
        k = 0
        while k < len(order):
            j = k
            while j + 1 < len(order) and values[order[j + 1]] == values[order[k]]:
                j += 1
            for m in range(k, j + 1):
                r[order[m]] = (k + j) / 2.0
            k = j + 1
        return r

    rx, ry = ranks(xs), ranks(ys)
    n = len(xs)
    mx, my = sum(rx) / n, sum(ry) / n
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy) if vx and vy else 0.0
