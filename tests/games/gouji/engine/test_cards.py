"""Cards and notation (R3–R5)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.games.gouji.engine.cards import (
    BIG,
    RANK_CHARS,
    SMALL,
    TWO,
    CardSyntaxError,
    add_cards,
    card_count,
    cards_per_seat,
    format_cards,
    full_deck,
    holds,
    parse_cards,
    remove_cards,
)
from matches.games.gouji.engine.ruleset import RuleSet
from matches.kernel.engine_errors import BadDocument, RuleViolation


def test_r4_rank_order_is_3_to_a_then_2_small_big():
    assert RANK_CHARS == "3456789TJQKA2BR"
    assert (TWO, SMALL, BIG) == (12, 13, 14)


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("TTTTT", "TTTTT"),
        ("JJJ2", "JJJ2"),
        ("2JJJ", "JJJ2"),
        ("666B", "666B"),
        ("QQQRR", "QQQRR"),
        ("RQQRQ", "QQQRR"),
        ("2", "2"),
        ("R", "R"),
        ("BR", "BR"),
        (" 3 3\t4\n", "334"),
        ("", ""),
    ],
)
def test_r5_examples_parse_to_canonical_order(text, canonical):
    assert format_cards(parse_cards(text)) == canonical


def test_r5_counts_by_rank():
    counts = parse_cards("QQQRR")
    assert counts[9] == 3 and counts[BIG] == 2 and card_count(counts) == 5


@pytest.mark.parametrize(
    "text, position, char",
    [("TTX", 2, "X"), ("t", 0, "t"), ("10", 0, "1"), ("J J j", 4, "j"), ("33,4", 2, ",")],
)
def test_r5_bad_character_names_its_position(text, position, char):
    with pytest.raises(CardSyntaxError) as caught:
        parse_cards(text)
    error = caught.value
    assert isinstance(error, BadDocument)
    assert (error.position, error.char) == (position, char)
    assert f"position {position}" in error.message and repr(char) in error.message


def test_r5_cards_must_be_a_string():
    with pytest.raises(BadDocument):
        parse_cards(["3"])


counts_strategy = st.lists(st.integers(0, 6), min_size=15, max_size=15).map(tuple)


@settings(max_examples=150, deadline=None)
@given(counts_strategy)
def test_format_then_parse_round_trips(counts):
    assert parse_cards(format_cards(counts)) == counts


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=RANK_CHARS + " ", max_size=30))
def test_parse_then_format_is_the_sorted_text(text):
    formatted = format_cards(parse_cards(text))
    assert formatted == "".join(sorted(text.replace(" ", ""), key=RANK_CHARS.index))
    assert parse_cards(formatted) == parse_cards(text)


def test_add_remove_and_holds():
    have = parse_cards("333JJ2R")
    take = parse_cards("JJ2")
    assert holds(have, take)
    assert format_cards(remove_cards(have, take)) == "333R"
    assert add_cards(remove_cards(have, take), take) == have


def test_r18_removing_cards_not_held_is_a_violation():
    with pytest.raises(RuleViolation) as caught:
        remove_cards(parse_cards("333"), parse_cards("3333B"))
    assert (caught.value.rule, caught.value.code) == ("R18", "cards_not_held")
    assert "3B" in caught.value.message
    assert not holds(parse_cards("333"), parse_cards("3333"))


@pytest.mark.parametrize(
    "rules, total, per_seat, threes, fours, jokers",
    [
        ({}, 216, 36, 16, 16, 4),
        ({"decks": 6}, 324, 54, 24, 24, 6),
        ({"short_deck": True}, 198, 33, 6, 8, 4),
        # R3 short deck with six packs: six 3s and six 4s, so the 288 cards divide by six
        ({"decks": 6, "short_deck": True}, 288, 48, 6, 6, 6),
    ],
)
def test_r3_deck(rules, total, per_seat, threes, fours, jokers):
    ruleset = RuleSet.from_json({"preset": "standard", **rules})
    deck = full_deck(ruleset)
    assert card_count(deck) == total
    assert cards_per_seat(ruleset) == per_seat
    assert (deck[0], deck[1], deck[SMALL], deck[BIG]) == (threes, fours, jokers, jokers)
    assert deck[TWO] == deck[5] == 4 * ruleset.decks
