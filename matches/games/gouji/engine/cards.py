"""Cards, the R5 notation and card multisets (R3–R5).

Suits never matter in Gou Ji, so a set of cards is a multiset of ranks: a tuple of 15 counts
indexed by rank (0 = 3, …, 11 = A, 12 = 2, 13 = small joker, 14 = big joker). Tuples are
hashable and cheap to compare, which keeps the replay hot path fast.
"""

from __future__ import annotations

from operator import add, sub
from typing import TYPE_CHECKING

from matches.kernel.engine_errors import BadDocument, RuleViolation

if TYPE_CHECKING:
    from matches.games.gouji.engine.ruleset import RuleSet

#: One character per rank, in ascending order (R4, R5).
RANK_CHARS = "3456789TJQKA2BR"
RANK_COUNT = len(RANK_CHARS)  # 15
TEN, JACK, QUEEN, KING, ACE = 7, 8, 9, 10, 11
TWO = 12
SMALL = 13  # B, 小王
BIG = 14  # R, 大王
_RANK_OF_CHAR = {char: index for index, char in enumerate(RANK_CHARS)}
_WHITESPACE = frozenset(" \t\r\n")


class CardSyntaxError(BadDocument):
    """A card string holds a character that is not in the R5 notation."""

    def __init__(self, text: str, position: int):
        char = text[position]
        super().__init__(
            f"bad card character {char!r} at position {position} of {text!r} "
            f"(R5: use {' '.join(RANK_CHARS)}; T is ten, B the small joker, R the big joker)"
        )
        self.position = position
        self.char = char


def parse_cards(text: str) -> tuple[int, ...]:
    """Read R5 notation into counts, ignoring whitespace.

    >>> format_cards(parse_cards("2 JJJ"))
    'JJJ2'
    """
    if not isinstance(text, str):
        raise BadDocument(f"cards must be a string in R5 notation, not {type(text).__name__}")
    counts = [0] * RANK_COUNT
    for position, char in enumerate(text):
        index = _RANK_OF_CHAR.get(char)
        if index is None:
            if char in _WHITESPACE:
                continue
            raise CardSyntaxError(text, position)
        counts[index] += 1
    return tuple(counts)


def format_cards(counts: tuple[int, ...]) -> str:
    """Write counts in canonical ascending order (3 first, big jokers last)."""
    return "".join(char * count for char, count in zip(RANK_CHARS, counts))


def card_count(counts: tuple[int, ...]) -> int:
    return sum(counts)


def add_cards(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(map(add, a, b))


def holds(have: tuple[int, ...], take: tuple[int, ...]) -> bool:
    """True when every card of `take` is in `have` (as a multiset)."""
    return bool(min(map(sub, have, take)) >= 0)


def remove_cards(have: tuple[int, ...], take: tuple[int, ...]) -> tuple[int, ...]:
    """`have` minus `take`; a player may only play cards they hold (R18)."""
    left = tuple(map(sub, have, take))
    if min(left) < 0:
        missing = tuple(max(-n, 0) for n in left)
        raise RuleViolation(
            "R18",
            "cards_not_held",
            f"cards {format_cards(missing)} are not held "
            f"(holding {format_cards(have) or 'nothing'})",
        )
    return left


def full_deck(rules: RuleSet) -> tuple[int, ...]:
    """The whole deck of R3 under `rules`: 4 packs by default, `decks` packs, or the short deck."""
    packs = rules.decks
    counts = [4 * packs] * (TWO + 1) + [packs, packs]
    if rules.short_deck:
        # EN "Six 3 and Six or Eight 4": six 3s, and eight 4s with four packs (198 cards, 33 a
        # seat) or six 4s with six packs (288 cards, 48 a seat), so that the deal divides evenly.
        counts[0] = 6
        counts[1] = 8 if packs == 4 else 6
    return tuple(counts)


def cards_per_seat(rules: RuleSet) -> int:
    """D10: 36 a seat (54 with six packs, 33 with the short deck); R46: 27 at eight seats."""
    return card_count(full_deck(rules)) // rules.players
