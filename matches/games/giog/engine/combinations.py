"""The six Giog combinations (G5-G7) and how they compare (G9).

A combination is always of one colour. Its `kind` is what a follower must match to compete
(G8): Liab, Dui, Giog or Mui. Within a kind, `strength` orders plays (G9):

- Liab and Dui: by type, then colour (G3);
- Giog: by triple, R+N+C < C+B+A < K+A+B (G6), then colour;
- Mui (three, four or five Pawns, G7): by colour only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterator

from matches.kernel.engine_errors import EngineBug

from .pieces import is_red, piece_strength

LIAB = "liab"
DUI = "dui"
GIOG = "giog"
MUI = "mui"

#: G6, low to high; each triple as its sorted type letters.
GIOG_TRIPLES = ("CNR", "ABC", "ABK")
GIOG_TRIPLE_NAMES = ("Chariot-Horse-Cannon", "Cannon-Advisor-Guard", "General-Guard-Advisor")

MUI_NAMES = {3: "Sam Mui", 4: "Si Mui", 5: "Wu Mui"}


@dataclass(frozen=True)
class Combination:
    kind: str
    size: int
    #: compared only between combinations of the same kind and size; higher is stronger
    strength: int

    @property
    def name(self) -> str:
        if self.kind == LIAB:
            return "Liab"
        if self.kind == DUI:
            return "Dui"
        if self.kind == GIOG:
            return f"Giog {GIOG_TRIPLE_NAMES[self.strength // 2]}"
        return MUI_NAMES[self.size]


def classify(pieces: str) -> Combination | None:
    """The combination `pieces` form, or None when they form none (a discard when following)."""
    size = len(pieces)
    if size == 0:
        return None
    colours = {is_red(p) for p in pieces}
    if len(colours) != 1:
        return None
    red = 1 if colours.pop() else 0
    if size == 1:
        return Combination(LIAB, 1, piece_strength(pieces))
    if len(set(pieces)) == 1:
        if size == 2:
            return Combination(DUI, 2, piece_strength(pieces[0]))
        # Only Pawns come five to a colour, so only they make Sam, Si and Wu Mui (G7).
        if pieces[0].upper() == "P" and size <= 5:
            return Combination(MUI, size, red)
        return None
    if size == 3:
        types = "".join(sorted(pieces.upper()))
        if types in GIOG_TRIPLES:
            return Combination(GIOG, 3, GIOG_TRIPLES.index(types) * 2 + red)
    return None


def _known(pieces: str) -> tuple[str, Combination]:
    """A combination built to be one (G5–G7): `classify` must know it."""
    combo = classify(pieces)
    if combo is None:
        raise EngineBug(f"{pieces!r} was built as a combination but is none")
    return pieces, combo


def combinations_in(
    hand: Counter[str], kind: str | None = None, size: int | None = None
) -> Iterator[tuple[str, Combination]]:
    """Every distinct combination `hand` can make, as (pieces, combination).

    Restricted to one kind and size when given, as a follower's search is (G8).
    """
    held = [p for p, n in hand.items() if n > 0]
    if kind in (None, LIAB) and size in (None, 1):
        for p in held:
            yield _known(p)
    if kind in (None, DUI) and size in (None, 2):
        for p in held:
            if hand[p] >= 2:
                yield _known(p * 2)
    if kind in (None, GIOG) and size in (None, 3):
        for types in GIOG_TRIPLES:
            for letters in (types, types.lower()):
                if all(hand[p] >= 1 for p in letters):
                    yield _known(letters)
    if kind in (None, MUI):
        for pawn in ("P", "p"):
            for n in range(3, min(hand[pawn], 5) + 1):
                if size in (None, n):
                    yield _known(pawn * n)
