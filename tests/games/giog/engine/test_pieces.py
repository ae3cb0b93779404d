"""G1-G3: the set, its notation and the rank of pieces."""

from __future__ import annotations

from collections import Counter

import pytest

from matches.games.giog.engine.pieces import (
    FULL_SET,
    SET_SIZE,
    describe,
    parse_pieces,
    piece_strength,
    sort_pieces,
)
from matches.kernel.engine_errors import BadDocument


@pytest.mark.parametrize(
    "letter, count",
    [
        ("K", 1),
        ("A", 2),
        ("B", 2),
        ("R", 2),
        ("N", 2),
        ("C", 2),
        ("P", 5),
        ("k", 1),
        ("a", 2),
        ("b", 2),
        ("r", 2),
        ("n", 2),
        ("c", 2),
        ("p", 5),
    ],
)
def test_g1_each_colour_holds_the_xiangqi_set(letter, count):
    assert FULL_SET[letter] == count


def test_g1_the_set_has_32_pieces_16_a_colour():
    assert SET_SIZE == 32
    assert sum(n for p, n in FULL_SET.items() if p.isupper()) == 16


@pytest.mark.parametrize(
    "letter, name",
    [
        ("K", "red General"),
        ("A", "red Guard"),
        ("B", "red Advisor"),
        ("R", "red Chariot"),
        ("N", "red Horse"),
        ("C", "red Cannon"),
        ("P", "red Pawn"),
        ("p", "black Pawn"),
        ("k", "black General"),
    ],
)
def test_g2_fen_letters_upper_case_red_lower_case_black(letter, name):
    assert describe(letter) == name


@pytest.mark.parametrize("text", ["X", "RNCx", "1", "R N", "Ｒ", "e"])
def test_g2_other_characters_are_unreadable(text):
    with pytest.raises(BadDocument, match="unknown piece letter"):
        parse_pieces(text, "hands['1']")


def test_g2_a_piece_string_must_be_a_string():
    with pytest.raises(BadDocument, match="expected a string"):
        parse_pieces(["R"], "hands['1']")


# G3, low to high: P < C < N < R < B < A < K, and Black below Red of the same type.
RANK_LOW_TO_HIGH = "pPcCnNrRbBaAkK"


@pytest.mark.parametrize("weaker, stronger", list(zip(RANK_LOW_TO_HIGH, RANK_LOW_TO_HIGH[1:])))
def test_g3_rank_of_neighbouring_pieces(weaker, stronger):
    assert piece_strength(weaker) < piece_strength(stronger)


@pytest.mark.parametrize("black, red", [("n", "C"), ("k", "A"), ("c", "P")])
def test_g3_type_counts_before_colour(black, red):
    # A black piece still beats a red piece of a lower type.
    assert piece_strength(black) > piece_strength(red)


def test_sorting_keeps_every_piece():
    text = "pPKkRrAB"
    assert Counter(sort_pieces(text)) == Counter(text)
    assert sort_pieces(text) == "KkABRrPp"
