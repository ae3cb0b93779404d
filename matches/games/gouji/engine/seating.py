"""Seats, unions and head rivals at six or eight seats (R1, R2, R44, R45, D16, D17).

Every seat count of the engine comes from here, read from the rule set's `players` flag:

- six seats (R1, R2): seats 1–6, unions seated alternately (A = 1, 3, 5; B = 2, 4, 6), the head
  rival is the seat opposite, s ↔ s ± 3;
- eight seats (R44, R45): seats 1–8, the four players of a union sit together (A = 1–4,
  B = 5–8, D17), the head rival is the seat opposite, s ↔ s ± 4 (D16).

Either way play passes 1 → 2 → … → n → 1 and the head rival is always an enemy. The functions
take `players` (6 or 8) and default to six, so a caller that knows only the six-seat game reads
as it always did. Pure Python: no Django.
"""

from __future__ import annotations

from functools import lru_cache

PLAYER_COUNTS = (6, 8)
UNIONS = ("A", "B")


def seats(players: int = 6) -> tuple[int, ...]:
    """The seat numbers 1…n in playing order."""
    return tuple(range(1, players + 1))


def union_size(players: int = 6) -> int:
    """k = n / 2: the seats of one union (three at six seats, four at eight, R50)."""
    return players // 2


def head_rival(seat: int, players: int = 6) -> int:
    """R2/R45: the seat opposite (1↔4, 2↔5, 3↔6 at six; 1↔5, 2↔6, 3↔7, 4↔8 at eight)."""
    half = players // 2
    return (seat + half - 1) % players + 1


def union_of(seat: int, players: int = 6) -> str:
    """R1: A = 1, 3, 5 and B = 2, 4, 6 at six seats; R44/D17: A = 1–4 and B = 5–8 at eight."""
    if players == 8:
        return "A" if seat <= 4 else "B"
    return "A" if seat % 2 else "B"


@lru_cache(maxsize=None)
def union_seats(union: str, players: int = 6) -> tuple[int, ...]:
    """The seats of union "A" or "B", in playing order."""
    return tuple(seat for seat in seats(players) if union_of(seat, players) == union)


def mates(seat: int, players: int = 6) -> tuple[int, ...]:
    """The other seats of `seat`'s union, in playing order from the seat after it (D27)."""
    union = union_of(seat, players)
    order = [(seat + i - 1) % players + 1 for i in range(1, players)]
    return tuple(s for s in order if union_of(s, players) == union)


def place_name(index: int) -> str:
    """English ordinal of a 0-based place (0 → 1st)."""
    number = index + 1
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number if number < 20 else number % 10, "th")
    return f"{number}{suffix}"
