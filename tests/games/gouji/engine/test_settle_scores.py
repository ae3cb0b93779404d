"""Union scores of a deal (R31–R33), including ZH's 胜负判定 table."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.settle import Outcome
from matches.games.gouji.engine.settle import union_scores as engine_union_scores


def union_scores(outcome, rules):
    """The engine's scores as the verdict's JSON writes them."""
    return engine_union_scores(outcome, rules).to_json()


STANDARD = RuleSet.from_json("standard")

# ZH "胜负判定", copied as printed: 甲 and 乙 are the two unions, first place first; the score is
# 甲's. "或平局" marks are kept as text only: R33 says they do not define the draw variant.
ZH_TABLE = """
甲甲甲乙乙乙（圈三户+12）
甲甲乙甲乙乙（+6）
甲甲乙乙甲乙（+4）
甲乙甲甲乙乙（+4）
甲甲乙乙乙甲（+2或平局）
甲乙乙甲甲乙（+2）
甲乙甲乙甲乙（+2）
乙甲甲甲乙乙（+2或平局）
乙乙乙甲甲甲（圈三户-12）
乙乙甲乙甲甲（-6）
乙乙甲甲乙甲（-4）
乙甲乙乙甲甲（-4）
乙乙甲甲甲乙（-2或平局）
甲乙乙乙甲甲（-2）
乙甲甲乙乙甲（-2）
乙甲乙甲乙甲（-2或平局）
甲乙甲乙乙甲
甲乙乙甲乙甲
乙甲甲乙甲乙
乙甲乙甲甲乙
"""


def zh_rows():
    rows = []
    for line in ZH_TABLE.split():
        pattern = line[:6]
        sign = "+" if "+" in line else ("-" if "-" in line else None)
        score = int(line.split(sign)[1].split("或")[0].rstrip("）")) if sign else 0
        rows.append((pattern, score if sign != "-" else -score))
    return rows


def finish_for(pattern, jia="A"):
    """Seats in finishing order for a 甲/乙 pattern, with 甲 = union `jia`."""
    seats = {"A": iter([1, 3, 5]), "B": iter([2, 4, 6])}
    yi = "B" if jia == "A" else "A"
    return tuple(next(seats[jia if mark == "甲" else yi]) for mark in pattern)


def test_the_zh_table_has_all_twenty_patterns():
    patterns = [pattern for pattern, _ in zh_rows()]
    assert len(set(patterns)) == 20
    expected = {
        "".join("甲" if i in combo else "乙" for i in range(6))
        for combo in itertools.combinations(range(6), 3)
    }
    assert set(patterns) == expected


@pytest.mark.parametrize("pattern, score", zh_rows())
@pytest.mark.parametrize("jia", ["A", "B"])
def test_r32_reproduces_the_zh_table(pattern, score, jia):
    yi = "B" if jia == "A" else "A"
    scores = union_scores(Outcome(finish_for(pattern, jia)), STANDARD)
    assert scores == {jia: score, yi: -score}


@pytest.mark.parametrize(
    "pattern, score",
    [
        ("甲甲乙乙乙甲", 0),  # 1st and 6th are mates (甲): a draw instead of +2
        ("乙甲甲甲乙乙", 0),  # 1st and 6th are mates (乙): a draw instead of +2
        ("乙乙甲甲甲乙", 0),
        ("乙甲乙甲乙甲", -2),  # 1st 乙, 6th 甲: not mates, the table's score stands
        ("甲乙甲乙乙甲", 0),
        ("甲甲甲乙乙乙", 12),
        ("甲甲乙甲乙乙", 6),
    ],
)
def test_r33_first_last_same_union_draw(pattern, score):
    rules = RuleSet.from_json({"first_last_same_union_draw": True})
    assert union_scores(Outcome(finish_for(pattern)), rules) == {"A": score, "B": -score}


def test_r33_draw_only_when_first_and_last_are_mates():
    rules = RuleSet.from_json({"first_last_same_union_draw": True})
    assert union_scores(Outcome(finish_for("乙甲乙甲乙甲")), rules) == {"A": -2, "B": 2}
    assert union_scores(Outcome(finish_for("乙甲乙甲乙甲")), STANDARD) == {"A": -2, "B": 2}
    assert union_scores(Outcome(finish_for("甲乙乙甲甲乙")), rules) == {"A": 2, "B": -2}


def test_r31_place_points_variant():
    rules = RuleSet.from_json({"place_points": [3, 2, 1, -1, -2, -3]})
    # 甲 places 1, 3, 5: 3 + 1 - 2 = 2; 乙: 2 - 1 - 3 = -2; difference 4.
    assert union_scores(Outcome(finish_for("甲乙甲乙甲乙")), rules) == {"A": 4, "B": -4}


def test_r32_string_three_score_variant():
    rules = RuleSet.from_json({"string_three_score": 6})
    assert union_scores(Outcome(finish_for("乙乙乙甲甲甲")), rules) == {"A": -6, "B": 6}


@pytest.mark.parametrize(
    "pattern, a",
    [
        ("甲甲甲乙乙乙", 3),
        ("甲甲乙甲乙乙", 3),
        ("甲乙甲乙甲乙", 1),
        ("甲乙甲乙乙甲", 0),
        ("乙乙乙甲甲甲", -3),
    ],
)
def test_r32_own_union_score(pattern, a):
    rules = RuleSet.from_json({"union_score": "own"})
    # EN: a union scores its own place points, no stringing-three bonus.
    assert union_scores(Outcome(finish_for(pattern)), rules) == {"A": a, "B": -a}


def test_revolutionary_place_counts_like_any_place():
    # Seat 5 revolted and is 3rd since mates 1 and 3 are 1st and 2nd: stringing three.
    outcome = Outcome((1, 3, 5, 2, 4, 6), points=frozenset({2}), revolution=(5,))
    assert union_scores(outcome, STANDARD) == {"A": 12, "B": -12}


flag_sets = st.fixed_dictionaries(
    {
        "union_score": st.sampled_from(["difference", "own"]),
        "first_last_same_union_draw": st.booleans(),
        "string_three_score": st.integers(0, 24),
    }
)


@settings(max_examples=150, deadline=None)
@given(st.permutations([1, 2, 3, 4, 5, 6]), flag_sets)
def test_union_scores_of_a_deal_sum_to_zero(finish, flags):
    scores = union_scores(Outcome(tuple(finish)), RuleSet.from_json(flags))
    assert set(scores) == {"A", "B"}
    assert scores["A"] + scores["B"] == 0
