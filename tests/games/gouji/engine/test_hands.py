"""Hands (R6–R8), beating (R9–R12), Gou Ji hands and point-opening sets (R13–R14)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.games.gouji.engine.cards import parse_cards
from matches.games.gouji.engine.hands import beats, classify, is_gouji, opens_point
from matches.games.gouji.engine.ruleset import RuleSet
from matches.kernel.engine_errors import RuleViolation

STANDARD = RuleSet.from_json("standard")
MORE_BIG = RuleSet.from_json({"more_big_jokers_beat": True})
EN_POINTS = RuleSet.from_json({"point_sets": "en"})
NO_TWOS_POINT = RuleSet.from_json({"twos_open_point": False})
EN_NO_TWOS_POINT = RuleSet.from_json({"point_sets": "en", "twos_open_point": False})


def hand(text):
    return classify(parse_cards(text))


# --- R6–R8: what a hand is ------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, kind, rank, size, twos, small, big, joker_class",
    [
        ("7", "natural", 4, 1, 0, 0, 0, 0),
        ("TTTTT", "natural", 7, 5, 0, 0, 0, 0),
        ("JJJ2", "natural", 8, 4, 1, 0, 0, 0),  # R7: JJ22-style money counts as J
        ("22444", "natural", 1, 5, 2, 0, 0, 0),
        ("666B", "natural", 3, 4, 0, 1, 0, 1),
        ("QQQRR", "natural", 9, 5, 0, 0, 2, 2),
        ("KK2BR", "natural", 10, 5, 1, 1, 1, 2),
        ("2", "twos", 12, 1, 1, 0, 0, 0),
        ("222B", "twos", 12, 4, 3, 1, 0, 1),
        ("B", "jokers", 13, 1, 0, 1, 0, 1),
        ("R", "jokers", 13, 1, 0, 0, 1, 2),
        ("BBR", "jokers", 13, 3, 0, 2, 1, 2),
    ],
)
def test_r6_r7_r8_classify(text, kind, rank, size, twos, small, big, joker_class):
    h = hand(text)
    assert (h.kind, h.rank, h.size, h.twos, h.small, h.big) == (kind, rank, size, twos, small, big)
    assert h.joker_class == joker_class
    assert h.cards == parse_cards(text)


@pytest.mark.parametrize("text", ["", "34", "33344", "JQ2", "3B4", "AK"])
def test_r6_anything_else_is_not_a_hand(text):
    with pytest.raises(RuleViolation) as caught:
        hand(text)
    assert (caught.value.rule, caught.value.code) == ("R6", "not_a_hand")


def test_r6_the_message_names_the_mixed_ranks():
    with pytest.raises(RuleViolation) as caught:
        hand("3B4")
    assert "3 and 4" in caught.value.message


def test_classify_is_memoised():
    assert hand("QQQRR") is hand("RQQRQ")


# --- R9–R12: beating ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rule, new, top, standard, more_big",
    [
        # R9: same size always.
        ("R9", "444", "33", False, False),
        ("R9", "4", "33", False, False),
        ("R9", "RR", "3", False, False),
        # R10: top of class 0, by rank, whatever new's class.
        ("R10", "44", "33", True, True),
        ("R10", "33", "44", False, False),
        ("R10", "33", "33", False, False),
        ("R10", "2", "A", True, True),
        ("R10", "22", "KK", True, True),
        ("R10", "B", "2", True, True),
        ("R10", "R", "2", True, True),
        ("R10", "QQQQ", "JJ22", True, True),  # ZH: two 2s attached count as J
        ("R10", "JJ22", "QQQQ", False, False),
        ("R10", "KK22", "2222", False, False),  # money takes the rank of its hand
        ("R10", "555B", "4444", True, True),
        ("R10", "444B", "5555", False, False),  # a joker does not lift a lower rank
        ("R10", "44R", "333", True, True),
        # R11: top of class 1 needs as many big jokers as it has small ones, and a higher rank.
        ("R11", "66666R", "55555B", True, True),  # ZH: 66666+大王 beats 55555+小王
        ("R11", "666666", "55555B", False, False),
        ("R11", "66666B", "55555B", False, False),  # small on small never beats
        ("R11", "QQQRR", "JJJBB", True, True),  # ZH: QQQ+2 big beats JJJ+2 small
        ("R11", "QQQQR", "JJJBB", False, False),  # one big joker for two small
        ("R11", "55R", "66B", False, False),  # enough big jokers, lower rank
        ("R11", "R", "B", True, True),  # jokers-only needs only the big jokers
        ("R11", "RR", "BB", True, True),
        ("R11", "RB", "BB", False, False),
        ("R11", "RB", "5B", True, True),
        ("R11", "BB", "5B", False, False),
        ("R11", "2R", "AB", True, True),
        # R12: a big joker on top: nothing beats it; variant: more big jokers beat it.
        ("R12", "KKKRR", "KKKKR", False, True),  # ZH: KKK+2 big beats KKKK+1 big
        ("R12", "333RR", "AAAAR", False, True),  # the variant ignores rank
        ("R12", "AAAAR", "KKKKR", False, False),
        ("R12", "RR", "BR", False, True),  # EN: two coloured jokers beat one
        ("R12", "RR", "RR", False, False),
        ("R12", "R", "R", False, False),
        ("R12", "BBR", "333R", False, False),
    ],
)
def test_r9_to_r12_beats(rule, new, top, standard, more_big):
    assert beats(hand(new), hand(top), STANDARD) is standard, rule
    assert beats(hand(new), hand(top), MORE_BIG) is more_big, rule


# --- R13–R14: Gou Ji hands and point-opening sets -------------------------------------------


@pytest.mark.parametrize(
    "text, gouji, zh, en, zh_no_twos, en_no_twos",
    [
        ("TTTT", False, False, False, False, False),
        ("TTTTT", True, True, True, True, True),
        ("TTTT2", True, True, False, True, False),  # attached 2 counts toward size; EN needs pure
        ("JJJ", False, False, False, False, False),
        ("JJJJ", True, True, True, True, True),
        ("JJJ2", True, True, False, True, False),
        ("QQ", False, False, False, False, False),
        ("QQQ", True, True, True, True, True),
        ("QQ2", True, True, False, True, False),
        ("QQB", True, False, False, False, False),  # ZH: QQ+joker is not QQQ for a point
        ("K", False, False, False, False, False),
        ("KK", True, True, True, True, True),
        ("A", False, False, False, False, False),
        ("AA", True, True, True, True, True),
        ("A2", True, True, False, True, False),
        ("AAB", True, False, False, False, False),
        ("7772", False, False, False, False, False),  # 2s never lift 3…9 to Gou Ji
        ("99999999", False, False, False, False, False),
        ("333B", True, False, True, False, True),  # EN: any Gou Ji hand opens, jokers included
        ("2", True, True, True, False, False),
        ("222", True, True, True, False, False),
        ("22B", True, False, True, False, False),
        ("B", True, False, True, False, True),
        ("RR", True, False, True, False, True),
    ],
)
def test_r13_r14_gouji_and_point_opening(text, gouji, zh, en, zh_no_twos, en_no_twos):
    h = hand(text)
    assert is_gouji(h) is gouji
    assert opens_point(h, STANDARD) is zh
    assert opens_point(h, EN_POINTS) is en
    assert opens_point(h, NO_TWOS_POINT) is zh_no_twos
    assert opens_point(h, EN_NO_TWOS_POINT) is en_no_twos


def test_r13_an_answer_to_a_gouji_hand_is_a_gouji_hand():
    # R19 relies on this: whatever beats a Gou Ji hand is itself one.
    for top in ["TTTTT", "JJJJ", "QQQ", "KK", "AA", "A2", "2", "333B"]:
        for rank in "3456789TJQKA2":
            for extra in ["", "B", "R"]:
                size = hand(top).size
                text = rank * (size - len(extra)) + extra
                if text and beats(hand(text), hand(top), STANDARD):
                    assert is_gouji(hand(text)), (text, top)


# --- properties -----------------------------------------------------------------------------


@st.composite
def hand_texts(draw, size=None):
    """A random hand (R6) of `size` cards: one natural rank or none, plus 2s and jokers."""
    size = size or draw(st.integers(1, 6))
    parts = ["natural", "twos", "small", "big"]
    counts = dict.fromkeys(parts, 0)
    for _ in range(size):
        counts[draw(st.sampled_from(parts))] += 1
    rank = draw(st.sampled_from("3456789TJQKA"))
    return (
        rank * counts["natural"]
        + "2" * counts["twos"]
        + "B" * counts["small"]
        + "R" * counts["big"]
    )


rule_sets = st.sampled_from([STANDARD, MORE_BIG])
same_size_hands = st.integers(1, 6).flatmap(
    lambda size: st.tuples(hand_texts(size), hand_texts(size), hand_texts(size))
)


@settings(max_examples=200, deadline=None)
@given(hand_texts(), rule_sets)
def test_beating_is_irreflexive(text, rules):
    assert not beats(hand(text), hand(text), rules)


@settings(max_examples=200, deadline=None)
@given(same_size_hands, rule_sets)
def test_beating_is_asymmetric(triple, rules):
    a, b = hand(triple[0]), hand(triple[1])
    assert not (beats(a, b, rules) and beats(b, a, rules))


@settings(max_examples=200, deadline=None)
@given(same_size_hands)
def test_beating_is_transitive_under_the_default_rules(triple):
    hands = [hand(t) for t in triple]
    for a in hands:
        for b in hands:
            for c in hands:
                if beats(a, b, STANDARD) and beats(b, c, STANDARD):
                    assert beats(a, c, STANDARD), (a, b, c)


def all_hands(size):
    texts = []
    for natural in range(size + 1):
        for twos in range(size - natural + 1):
            for small in range(size - natural - twos + 1):
                big = size - natural - twos - small
                tail = "2" * twos + "B" * small + "R" * big
                ranks = "3456789TJQKA" if natural else "-"
                texts += [(r * natural if natural else "") + tail for r in ranks]
    return [hand(t) for t in texts]


@pytest.mark.parametrize("size", [1, 2, 3, 4])
def test_beating_is_transitive_exhaustively_for_small_sizes(size):
    hands = all_hands(size)
    beaten = {a: {b for b in hands if beats(a, b, STANDARD)} for a in hands}
    chains = 0
    for a in hands:
        for b in beaten[a]:
            chains += len(beaten[b])
            assert beaten[b] <= beaten[a], (a, b, beaten[b] - beaten[a])
    assert chains > 0


def test_more_big_jokers_beat_is_not_transitive():
    # docs/rules.md, R12: the variant ignores rank, so 333RR > AAAAR > QQQQQ,
    # yet 333RR does not beat QQQQQ.
    a, b, c = hand("333RR"), hand("AAAAR"), hand("QQQQQ")
    assert beats(a, b, MORE_BIG) and beats(b, c, MORE_BIG) and not beats(a, c, MORE_BIG)
