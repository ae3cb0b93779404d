"""Giog pieces and their notation (G1-G4).

A piece is one xiangqi FEN letter (G2): upper case is Red, lower case is Black. Letters are
already hashable value objects, so the engine keeps pieces as one-character strings and hands
as `collections.Counter`s of them.
"""

from __future__ import annotations

from collections import Counter

from matches.kernel.engine_errors import BadDocument

#: G3: piece types from weakest to strongest.
TYPE_ORDER = "PCNRBAK"

TYPE_NAMES = {
    "K": "General",
    "A": "Guard",
    "B": "Advisor",
    "R": "Chariot",
    "N": "Horse",
    "C": "Cannon",
    "P": "Pawn",
}

#: G1: how many pieces of each type one colour holds.
COUNT_PER_COLOUR = {"K": 1, "A": 2, "B": 2, "R": 2, "N": 2, "C": 2, "P": 5}

#: The whole set of 32 pieces (G1).
FULL_SET: Counter[str] = Counter(
    {letter: n for t, n in COUNT_PER_COLOUR.items() for letter in (t, t.lower())}
)
SET_SIZE = sum(FULL_SET.values())

#: G4: players -> (pieces in each hand, pieces out of play).
DISTRIBUTION = {4: (8, 0), 3: (10, 2), 2: (12, 8)}

VALID_LETTERS = frozenset(FULL_SET)


def is_red(piece: str) -> bool:
    return piece.isupper()


def type_rank(piece: str) -> int:
    """0 for a Pawn up to 6 for a General, whatever the colour (G3)."""
    return TYPE_ORDER.index(piece.upper())


def piece_strength(piece: str) -> int:
    """G3: type first, then Black below Red of the same type."""
    return type_rank(piece) * 2 + (1 if piece.isupper() else 0)


def describe(piece: str) -> str:
    """'red Horse', 'black Pawn': for messages."""
    colour = "red" if is_red(piece) else "black"
    return f"{colour} {TYPE_NAMES[piece.upper()]}"


def parse_pieces(text: object, where: str) -> str:
    """Check a piece string from a document (G2) and return it unchanged.

    `where` names the field for the error message. Raises `BadDocument` for anything but a
    string of valid letters.
    """
    if not isinstance(text, str):
        raise BadDocument(f"{where}: expected a string of piece letters, got {type(text).__name__}")
    bad = sorted({ch for ch in text if ch not in VALID_LETTERS})
    if bad:
        raise BadDocument(
            f"{where}: unknown piece letter(s) {''.join(bad)!r}; "
            "use K A B R N C P (Red) or k a b r n c p (Black)"
        )
    return text


def sort_pieces(pieces: str) -> str:
    """Strongest first; a canonical order for writing hands."""
    return "".join(sorted(pieces, key=piece_strength, reverse=True))
