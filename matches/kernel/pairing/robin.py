"""Round robin by the Berger tables (FIDE Handbook C.05), for groups.

Entrants are numbered 1..n in seed order; with an odd n, number n+1 is the bye. In each round
the first-named entrant of a pair takes side A, as White does in chess.
"""

from __future__ import annotations

from typing import Hashable, Sequence

from . import types as flags
from .types import Pairing, SeatingError


def berger_round(size: int, round_number: int) -> list[tuple[int, int]]:
    """The pairs (first, second) of round `round_number` for entrants numbered 1..size
    (size even; the caller adds the bye number for an odd group)."""
    if size < 2 or size % 2:
        raise SeatingError("Berger tables need an even number of places")
    if not 1 <= round_number <= size - 1:
        raise SeatingError(f"a group of {size} plays rounds 1..{size - 1}")
    ring = size - 1  # every number but the last turns round a ring of size-1 places
    shift = ((round_number - 1) * (size // 2)) % ring
    circle = [((k + shift) % ring) + 1 for k in range(ring)]
    first = (circle[0], size) if round_number % 2 else (size, circle[0])
    pairs = [first]
    for k in range(1, size // 2):
        pairs.append((circle[k], circle[ring - k]))
    return pairs


def round_robin_round(entrants: Sequence[Hashable], round_number: int) -> list[Pairing]:
    """Pairings of one round for entrants in seed order (a bye when the group is odd)."""
    entrants = list(entrants)
    if len(entrants) < 2:
        raise SeatingError("a group needs at least two entrants", code="too_few", at_least=2)
    if len(set(entrants)) != len(entrants):
        raise SeatingError("the same entrant is in the group twice", code="entered_twice")
    size = len(entrants) + len(entrants) % 2
    pairings = []
    byes = []
    for first, second in berger_round(size, round_number):
        if second > len(entrants) or first > len(entrants):
            real = first if second > len(entrants) else second
            byes.append(Pairing(a=entrants[real - 1], b=None, flags=[flags.BYE]))
        else:
            pairings.append(Pairing(a=entrants[first - 1], b=entrants[second - 1]))
    return pairings + byes


def rounds_in_group(size: int) -> int:
    return size - 1 + size % 2


def snake_groups(seeded: Sequence[Hashable], group_count: int) -> list[list[Hashable]]:
    """Split a seeded field into groups by the snake (1-2-3-3-2-1), so groups are even."""
    if group_count < 1:
        raise SeatingError("at least one group")
    groups: list[list[Hashable]] = [[] for _ in range(group_count)]
    for index, entrant in enumerate(seeded):
        lap, offset = divmod(index, group_count)
        groups[offset if lap % 2 == 0 else group_count - 1 - offset].append(entrant)
    return groups
