"""Plain values the seating engine reads and returns."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable

# Side "A" (it moves first at table level) and side "B": the seats of each are the game's table
# shape (R1: A on 1-3-5, B on 2-4-6 at six seats; R44: A on 1-4, B on 5-8 at eight).
SIDE_A = "A"
SIDE_B = "B"

# Flags a pairing may carry; the organiser sees them before publishing.
BYE = "bye"
PULLED_DOWN = "pulled_down"  # the higher-scored union plays below its score group
PULLED_UP = "pulled_up"  # the lower-scored union plays above its score group
REMATCH_FORCED = "rematch_forced"  # no pairing without this rematch existed
BYE_REPEATED = "bye_repeated"  # every candidate had already had a bye
SEAT_AGAINST_PREFERENCE = "seat_against_preference"  # a union takes the same seats again
CLUB_CLASH = "club_clash"  # clubmates meet (team) or sit at one table (individual)
REPEAT_PARTNER = "repeat_partner"
REPEAT_OPPONENT = "repeat_opponent"
HAND_SWAP = "hand_swap"  # the organiser changed this pairing by hand


class SeatingError(ValueError):
    """The input cannot be seated (duplicate ids, too few entrants, bad options).

    The message is for developers, in English. `code` (with `at_least` for `too_few`) names
    the reasons an organiser can meet, so the draw service says them in the organiser's
    language: "too_few" entrants, an entrant "entered_twice", a field that is "unpairable".
    Without a code the error is an invariant of the pairing code (a bug if it shows)."""

    def __init__(self, message: str, *, code: str = "", at_least: int = 0) -> None:
        super().__init__(message)
        self.code = code
        self.at_least = at_least


@dataclass(frozen=True)
class Entrant:
    """One union (team events) as the Swiss, round-robin and knockout pairers see it."""

    id: Hashable
    score: int = 0  # match points so far (integers: 3/1/0 by default)
    rank: int = 0  # seed or current tie-break order; smaller is stronger
    opponents: frozenset[Hashable] = frozenset()
    sides: tuple[str, ...] = ()  # "A"/"B" per round played, oldest first
    byes: int = 0
    club: Hashable | None = None

    @property
    def seat_balance(self) -> int:
        """Rounds on side A minus rounds on side B."""
        return sum(1 if side == SIDE_A else -1 for side in self.sides)


@dataclass
class Pairing:
    """Two unions at one table, or one union with a bye (b is None).

    `a` takes side A, `b` side B (their seats are the table shape's: 1-3-5 and 2-4-6 at six
    seats, 1-4 and 5-8 at eight).
    """

    a: Hashable
    b: Hashable | None
    flags: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def is_bye(self) -> bool:
        return self.b is None


@dataclass
class Draw:
    """The result of pairing one round: the pairings in table order and the round's quality."""

    pairings: list[Pairing]
    quality: dict[str, Any] = field(default_factory=dict)
