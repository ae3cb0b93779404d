"""Which union takes side A and which side B (the seats of each are the game's table shape:
A on 1-3-5 and B on 2-4-6 at six seats, A on 1-4 and B on 5-8 at eight).

Like colours in chess: each union should sit on both sides about equally often. A union that
has sat more often on one side *needs* the other (strength 2); a balanced union that sat last
on one side *would like* the other (strength 1); a union with no history has no wish.
"""

from __future__ import annotations

import random

from .types import SIDE_A, SIDE_B, Entrant


def desire_for_a(entrant: Entrant) -> int:
    """+2/+1: needs/would like side A; -2/-1: needs/would like side B; 0: no wish."""
    balance = entrant.seat_balance
    if balance < 0:
        return 2
    if balance > 0:
        return -2
    if entrant.sides:
        return 1 if entrant.sides[-1] == SIDE_B else -1
    return 0


def seat_conflict(x: Entrant, y: Entrant) -> int:
    """How much one of the two must give up when they meet: 0, 1 or 2."""
    dx, dy = desire_for_a(x), desire_for_a(y)
    if dx * dy <= 0:
        return 0
    return min(abs(dx), abs(dy))


def assign_sides(x: Entrant, y: Entrant, rng: random.Random) -> tuple[Entrant, Entrant]:
    """Return (side A, side B). The stronger wish for A wins; a tie is decided by the seeded
    coin so a draw is reproducible."""
    dx, dy = desire_for_a(x), desire_for_a(y)
    if dx > dy:
        return x, y
    if dy > dx:
        return y, x
    return (x, y) if rng.random() < 0.5 else (y, x)


def against_preference(entrant: Entrant, side: str) -> bool:
    """True when the union *needed* the other side (its seats are now two off balance)."""
    desire = desire_for_a(entrant)
    return (desire == 2 and side == SIDE_B) or (desire == -2 and side == SIDE_A)
