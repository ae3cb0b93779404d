"""G5-G7: the combinations, and G9: how plays of one kind compare."""

from __future__ import annotations

from collections import Counter

import pytest

from matches.games.giog.engine.combinations import DUI, GIOG, LIAB, MUI, classify, combinations_in


@pytest.mark.parametrize(
    "pieces, kind, name",
    [
        ("K", LIAB, "Liab"),
        ("p", LIAB, "Liab"),
        ("AA", DUI, "Dui"),
        ("pp", DUI, "Dui"),
        ("RNC", GIOG, "Giog Chariot-Horse-Cannon"),
        ("cnr", GIOG, "Giog Chariot-Horse-Cannon"),
        ("CBA", GIOG, "Giog Cannon-Advisor-Guard"),
        ("KAB", GIOG, "Giog General-Guard-Advisor"),
        ("bak", GIOG, "Giog General-Guard-Advisor"),
        ("PPP", MUI, "Sam Mui"),
        ("pppp", MUI, "Si Mui"),
        ("PPPPP", MUI, "Wu Mui"),
    ],
)
def test_g5_to_g7_combinations(pieces, kind, name):
    combo = classify(pieces)
    assert combo is not None
    assert (combo.kind, combo.size, combo.name) == (kind, len(pieces), name)


@pytest.mark.parametrize(
    "pieces, why",
    [
        ("", "nothing played"),
        ("Aa", "a Dui is one colour"),
        ("AB", "a Dui is two identical pieces"),
        ("RNc", "a Giog is one colour"),
        ("RNP", "not one of the three triples"),
        ("KAA", "not one of the three triples"),
        ("RRN", "not one of the three triples"),
        ("PPp", "a Mui is one colour"),
        ("PPPPp", "a Mui is one colour"),
        ("RNCP", "four pieces make only Si Mui"),
        ("PPPPPP", "Wu Mui is the largest"),
    ],
)
def test_g5_to_g7_non_combinations(pieces, why):
    assert classify(pieces) is None, why


# G9 orders within each kind, weakest first.
ORDERED = {
    "Liab by type then colour": [
        "p",
        "P",
        "c",
        "C",
        "n",
        "N",
        "r",
        "R",
        "b",
        "B",
        "a",
        "A",
        "k",
        "K",
    ],
    "Dui by type then colour": [
        "pp",
        "PP",
        "cc",
        "CC",
        "nn",
        "NN",
        "rr",
        "RR",
        "bb",
        "BB",
        "aa",
        "AA",
    ],
    "Giog by triple then colour": ["rnc", "RNC", "cba", "CBA", "kab", "KAB"],
    "Sam Mui by colour": ["ppp", "PPP"],
    "Si Mui by colour": ["pppp", "PPPP"],
    "Wu Mui by colour": ["ppppp", "PPPPP"],
}


@pytest.mark.parametrize("label", ORDERED)
def test_g9_strength_within_a_kind(label):
    combos = [classify(p) for p in ORDERED[label]]
    assert len({(c.kind, c.size) for c in combos}) == 1
    strengths = [c.strength for c in combos]
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)


def test_g6_a_giog_is_the_same_whatever_the_order_of_its_pieces():
    assert classify("CNR") == classify("RNC") == classify("NCR")


def test_combinations_in_a_hand():
    hand = Counter("KABCRNCPPPpp")
    found = {pieces for pieces, _ in combinations_in(hand)}
    assert found == {
        "K",
        "A",
        "B",
        "C",
        "R",
        "N",
        "P",
        "p",  # Liab
        "CC",
        "PP",
        "pp",  # Dui
        "CNR",
        "ABC",
        "ABK",  # Giog
        "PPP",
    }  # Sam Mui
    assert {p for p, _ in combinations_in(hand, GIOG, 3)} == {"CNR", "ABC", "ABK"}
    assert {p for p, _ in combinations_in(hand, MUI, 3)} == {"PPP"}
    assert not list(combinations_in(hand, MUI, 4))


def test_combinations_in_ignores_pieces_already_played():
    hand = Counter("RR")
    hand.subtract("RR")
    assert not list(combinations_in(hand))
