"""Hands (R6–R8), beating (R9–R12), Gou Ji hands and point-opening sets (R13–R14).

`classify` and `beats` sit on the replay hot path, so `classify` is memoised by the counts
tuple (a deal only ever sees a few thousand distinct hands) and `beats` is a handful of
integer comparisons.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from matches.games.gouji.engine.cards import (
    ACE,
    BIG,
    JACK,
    KING,
    QUEEN,
    RANK_CHARS,
    SMALL,
    TEN,
    TWO,
    format_cards,
)
from matches.kernel.engine_errors import RuleViolation

if TYPE_CHECKING:
    from matches.games.gouji.engine.ruleset import RuleSet

NATURAL, TWOS, JOKERS = "natural", "twos", "jokers"
TWOS_RANK = TWO  # 12: a twos hand ranks as 2 (R6b)
JOKERS_RANK = SMALL  # 13: a jokers-only hand ranks above every 2 (R6c, R10)

#: R13: the least size at which a natural hand of 10…A is a Gou Ji hand (attached 2s count).
GOUJI_MIN_SIZE = {TEN: 5, JACK: 4, QUEEN: 3, KING: 2, ACE: 2}


@dataclass(frozen=True, slots=True)
class Hand:
    kind: str  # "natural" | "twos" | "jokers"
    rank: int  # 0..11 natural, 12 twos, 13 jokers
    size: int  # R7: every card counts, attached 2s and jokers too
    twos: int  # 2s in the hand (attached "money" for a natural hand)
    small: int
    big: int
    cards: tuple[int, ...]

    @property
    def joker_class(self) -> int:
        """R8: 0 no joker, 1 small jokers only, 2 at least one big joker."""
        return 2 if self.big else (1 if self.small else 0)

    def __repr__(self) -> str:
        return f"Hand({format_cards(self.cards)!r})"


_CLASSIFIED: dict[tuple[int, ...], Hand] = {}


def classify(counts: tuple[int, ...]) -> Hand:
    """Classify a multiset as a hand (R6), or raise RuleViolation R6 `not_a_hand`."""
    hand = _CLASSIFIED.get(counts)
    if hand is None:
        hand = _classify(counts)
        if len(_CLASSIFIED) < 100_000:  # a bound, so a long self-play run cannot grow it forever
            _CLASSIFIED[counts] = hand
    return hand


def _classify(counts: tuple[int, ...]) -> Hand:
    counts = tuple(counts)
    if len(counts) != len(RANK_CHARS) or any(n < 0 for n in counts):
        raise RuleViolation("R6", "not_a_hand", f"not a card multiset: {counts!r}")
    size = sum(counts)
    if size == 0:
        raise RuleViolation("R6", "not_a_hand", "a hand holds at least one card")
    naturals = [rank for rank in range(TWO) if counts[rank]]
    twos, small, big = counts[TWO], counts[SMALL], counts[BIG]
    if len(naturals) > 1:
        ranks = " and ".join(RANK_CHARS[rank] for rank in naturals)
        raise RuleViolation(
            "R6",
            "not_a_hand",
            f"{format_cards(counts)} mixes ranks {ranks}: a hand has one natural rank "
            "plus attached 2s and jokers",
        )
    if naturals:
        kind, rank = NATURAL, naturals[0]
    elif twos:
        kind, rank = TWOS, TWOS_RANK
    else:
        kind, rank = JOKERS, JOKERS_RANK
    return Hand(kind, rank, size, twos, small, big, counts)


def joker_weight(hand: Hand) -> int:
    """R52/D29: a joker group's weight, a small joker 1 and a big joker 2."""
    return hand.small + 2 * hand.big


def beats(new: Hand, top: Hand, rules: RuleSet) -> bool:
    """R9–R12: does `new` beat `top`, the hand on top of the round? Under `joker_groups`
    (R52, D30) a jokers-only hand beats a jokers-only hand by weight alone, whatever the sizes."""
    if rules.joker_groups and new.kind == JOKERS and top.kind == JOKERS:
        return joker_weight(new) > joker_weight(top)
    if new.size != top.size:  # R9
        return False
    if top.big:  # R12: class 2
        return rules.more_big_jokers_beat and new.big > top.big
    if top.small:  # R11: class 1 needs as many big jokers as top has small ones
        return new.big >= top.small and (new.rank > top.rank or new.kind == JOKERS)
    return new.rank > top.rank  # R10


def is_gouji(hand: Hand) -> bool:
    """R13: is this a Gou Ji hand (够级牌), which only the head rival may answer?"""
    if hand.small or hand.big or hand.kind == TWOS:
        return True
    minimum = GOUJI_MIN_SIZE.get(hand.rank)
    # A 2 attached to 3…9 never lifts it to Gou Ji: only ranks 10…A have a minimum size.
    return minimum is not None and hand.size >= minimum


def opens_point(hand: Hand, rules: RuleSet) -> bool:
    """R14: would this hand open a point if the head rival does not beat it?"""
    if not is_gouji(hand):
        return False
    jokers = hand.small + hand.big
    if hand.kind == TWOS:
        return rules.twos_open_point and (rules.point_sets == "en" or not jokers)
    if rules.point_sets == "en":
        if hand.kind == JOKERS:
            return True
        if hand.rank in GOUJI_MIN_SIZE:
            # EN: a 10…A hand opens a point only when pure, at the R13 size of its own rank.
            return not jokers and not hand.twos
        return True  # EN: any Gou Ji hand, e.g. 333 plus a joker
    # ZH ①: attached 2s count, attached jokers never open a point; jokers alone neither.
    return hand.kind == NATURAL and not jokers
