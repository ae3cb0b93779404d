"""A Swiss event with random results, for benchmarks, tests and the demo (no database)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Hashable

from .types import SIDE_A, SIDE_B, Draw, Entrant

WIN, DRAW, LOSS = 3, 1, 0


def random_outcome(rng: random.Random, draw_chance: float = 0.1) -> tuple[int, int]:
    """Match points (a, b) of one match: a draw now and then, else a coin toss."""
    roll = rng.random()
    if roll < draw_chance:
        return DRAW, DRAW
    return (WIN, LOSS) if roll < (1 + draw_chance) / 2 else (LOSS, WIN)


def apply_round(
    entrants: dict[Hashable, Entrant],
    draw: Draw,
    outcomes: dict[tuple[Hashable, Hashable | None], tuple[int, int]],
    bye_points: int = WIN,
) -> dict[Hashable, Entrant]:
    """Return the entrants after a round: scores, opponents, sides and byes updated.

    `outcomes` maps (a, b) of each played pairing to its match points (points_a, points_b).
    """
    updated = dict(entrants)
    for pairing in draw.pairings:
        if pairing.is_bye:
            union = updated[pairing.a]
            updated[pairing.a] = replace(union, score=union.score + bye_points, byes=union.byes + 1)
            continue
        points_a, points_b = outcomes[(pairing.a, pairing.b)]
        a, b = updated[pairing.a], updated[pairing.b]
        updated[pairing.a] = replace(
            a, score=a.score + points_a, opponents=a.opponents | {b.id}, sides=a.sides + (SIDE_A,)
        )
        updated[pairing.b] = replace(
            b, score=b.score + points_b, opponents=b.opponents | {a.id}, sides=b.sides + (SIDE_B,)
        )
    return updated


def field_of(count: int) -> dict[Hashable, Entrant]:
    """`count` unions seeded 1..count."""
    return {index: Entrant(id=index, rank=index) for index in range(1, count + 1)}
