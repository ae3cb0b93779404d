"""The tribute ledger for the next deal (R35–R43)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.seating import head_rival, union_of
from matches.games.gouji.engine.settle import Outcome
from matches.games.gouji.engine.settle import (
    tribute_ledger as engine_tribute_ledger,
)
from matches.games.gouji.engine.settle import (
    union_scores as engine_union_scores,
)
from matches.kernel.engine_errors import EngineBug


def union_scores(outcome, rules):
    """The engine's scores as the verdict's JSON writes them."""
    return engine_union_scores(outcome, rules).to_json()


def tribute_ledger(outcome, rules):
    """The engine's ledger as the verdict's JSON writes it."""
    return [entry.to_json() for entry in engine_tribute_ledger(outcome, rules)]


STANDARD = RuleSet.from_json("standard")
NO_PLACE = (1, 2, 3, 4, 5, 6)  # 1st A, 2nd B, ...: 6th (B) owes 1st (A), 5th (A) owes 2nd (B)


def ledger(outcome, rules=STANDARD, kind=None):
    entries = tribute_ledger(outcome, rules)
    return [
        (e["from"], e["to"], e["kind"], e["cards"]) for e in entries if kind in (None, e["kind"])
    ]


# --- R35: EN's point-tribute chart, all 27 rows ----------------------------------------------

# Copied from the English article: the situation, the player's declaration, the rival's
# declaration, what the rival pays the player, what the player pays the rival.
EN_CHART = [
    ("player got a point, rival did not", "none", "none", "1+0=1", "0"),
    ("player got a point, rival did not", "none", "clear", "1+4=5", "0"),
    ("player got a point, rival did not", "none", "unclear", "1+8=9", "0"),
    ("player got a point, rival did not", "clear", "none", "2+0=2", "0"),
    ("player got a point, rival did not", "clear", "clear", "2+4=6", "0"),
    ("player got a point, rival did not", "clear", "unclear", "2+8=10", "0"),
    ("player got a point, rival did not", "unclear", "none", "4+0=4", "0"),
    ("player got a point, rival did not", "unclear", "clear", "4+4=8", "0"),
    ("player got a point, rival did not", "unclear", "unclear", "4+8=12", "0"),
    ("neither got a point", "none", "none", "1", "1"),
    ("neither got a point", "none", "clear", "1", "2"),
    ("neither got a point", "none", "unclear", "1", "4"),
    ("neither got a point", "clear", "none", "2", "1"),
    ("neither got a point", "clear", "clear", "2", "2"),
    ("neither got a point", "clear", "unclear", "2", "4"),
    ("neither got a point", "unclear", "none", "4", "1"),
    ("neither got a point", "unclear", "clear", "4", "2"),
    ("neither got a point", "unclear", "unclear", "4", "4"),
    ("rival got a point, player did not", "none", "none", "0", "0+1=1"),
    ("rival got a point, player did not", "none", "clear", "0", "0+2=2"),
    ("rival got a point, player did not", "none", "unclear", "0", "0+4=4"),
    ("rival got a point, player did not", "clear", "none", "0", "4+1=5"),
    ("rival got a point, player did not", "clear", "clear", "0", "4+2=6"),
    ("rival got a point, player did not", "clear", "unclear", "0", "4+4=8"),
    ("rival got a point, player did not", "unclear", "none", "0", "8+1=9"),
    ("rival got a point, player did not", "unclear", "clear", "0", "8+2=10"),
    ("rival got a point, player did not", "unclear", "unclear", "0", "8+4=12"),
]


def amount(cell):
    return int(cell.split("=")[-1])


@pytest.mark.parametrize("situation, mine, theirs, rival_pays, player_pays", EN_CHART)
def test_r35_reproduces_the_en_chart(situation, mine, theirs, rival_pays, player_pays):
    player, rival = 2, 5
    points = {
        "player got a point, rival did not": {player},
        "neither got a point": set(),
        "rival got a point, player did not": {rival},
    }[situation]
    # The other two pairs both open a point, so only this pair owes point tributes.
    points |= {1, 4, 3, 6}
    declarations = {
        seat: kind for seat, kind in ((player, mine), (rival, theirs)) if kind != "none"
    }
    outcome = Outcome(NO_PLACE, frozenset(points), declarations)
    owed = {(f, t): cards for f, t, _, cards in ledger(outcome, kind="point")}
    assert owed.get((rival, player), 0) == amount(rival_pays)
    assert owed.get((player, rival), 0) == amount(player_pays)
    assert set(owed) <= {(rival, player), (player, rival)}


def test_r35_the_chart_is_complete():
    assert len(EN_CHART) == 27 and len({row[:3] for row in EN_CHART}) == 27


def test_r35_both_opened_no_point_tribute():
    outcome = Outcome(NO_PLACE, frozenset(range(1, 7)))
    assert ledger(outcome, kind="point") == []


def test_r35_a_failed_declaration_costs_even_when_both_opened():
    # Seat 1 declared clear, but 4 opened a point; 1 opened too: 1 owes 4 the failure amount.
    outcome = Outcome(NO_PLACE, frozenset(range(1, 7)), {1: "clear"})
    assert ledger(outcome, kind="point") == [(1, 4, "point", 4)]


@pytest.mark.parametrize(
    "points, declared, expected",
    [
        # success: the rival owes 2 (ZH 两张)
        ({1, 2, 5, 3, 6}, {1: "clear"}, [(4, 1, "point", 2)]),
        # failure, the declarer opened: 2 (ZH 两张)
        ({1, 4, 2, 5, 3, 6}, {1: "clear"}, [(1, 4, "point", 2)]),
        # failure, the declarer opened no point: 3 (ZH 三张)
        ({4, 2, 5, 3, 6}, {1: "clear"}, [(1, 4, "point", 3)]),
        # unclear reads as clear under the ZH amounts
        ({4, 2, 5, 3, 6}, {1: "unclear"}, [(1, 4, "point", 3)]),
    ],
)
def test_r35_zh_declaration_amounts(points, declared, expected):
    rules = RuleSet.from_json({"declaration_tributes": "zh"})
    outcome = Outcome(NO_PLACE, frozenset(points), declared)
    assert ledger(outcome, rules, kind="point") == expected


def test_d12_a_late_point_does_not_fail_the_declaration():
    # Seat 4 opened its point by answering seat 1's own last hand: 1's declaration stands.
    outcome = Outcome(NO_PLACE, ALL_POINTS, {1: "clear"}, late_points=frozenset({4}))
    assert ledger(outcome, kind="point") == [(4, 1, "point", 2)]
    # Without the late mark the same points fail it: 1 owes 4 the failure amount.
    early = Outcome(NO_PLACE, ALL_POINTS, {1: "clear"})
    assert ledger(early, kind="point") == [(1, 4, "point", 4)]


# --- R36 burn, R37 suffocation, R38 place, R41 mates ----------------------------------------

ALL_POINTS = frozenset(range(1, 7))


@pytest.mark.parametrize(
    "burns, flags, expected",
    [
        ([(2, 1, "success")], {}, [(1, 2, "burn", 1)]),
        ([(2, 1, "stopped")], {}, []),
        ([(2, 1, "stopped"), (3, 2, "counter")], {}, [(2, 3, "burn", 2)]),
        (
            [(2, 1, "stopped"), (3, 2, "counter")],
            {"counter_burn_tribute": "one_each"},
            [(2, 3, "burn", 1)],
        ),
        (
            [(2, 1, "stopped"), (3, 2, "counter")],
            {"counter_burn_tribute": "doubling"},
            [(2, 3, "burn", 2)],
        ),
        (
            [(2, 1, "stopped"), (3, 2, "stopped"), (1, 3, "counter")],
            {"counter_burn_tribute": "doubling"},
            [(3, 1, "burn", 4)],
        ),
        ([(2, 1, "stopped"), (3, 2, "stopped"), (1, 3, "counter")], {}, [(3, 1, "burn", 2)]),
        ([(2, 1, "false")], {}, []),  # R22d default: the false burner is placed last instead
        ([(2, 1, "false")], {"false_burn": "tribute"}, [(2, 1, "burn", 1)]),
        ([(2, 1, "false")], {"false_burn": "tribute", "false_burn_cards": 2}, [(2, 1, "burn", 2)]),
        ([(3, 1, "success")], {}, [(1, 3, "burn", 1)]),  # R41: owed between mates too
    ],
)
def test_r22_r36_burn_tributes(burns, flags, expected):
    outcome = Outcome(NO_PLACE, ALL_POINTS, burns=tuple(burns))
    assert ledger(outcome, RuleSet.from_json(flags), kind="burn") == expected


def test_r37_suffocation_tribute_goes_to_the_suffocator():
    outcome = Outcome(NO_PLACE, ALL_POINTS, suffocated=((6, 5), (4, 2)))
    rules = RuleSet.from_json("qingdao-hold3")
    assert ledger(outcome, rules, kind="suffocation") == [
        (6, 5, "suffocation", 1),
        (4, 2, "suffocation", 1),
    ]


@pytest.mark.parametrize(
    "finish, flags, expected",
    [
        ((1, 2, 3, 4, 5, 6), {}, [(6, 1, "place", 2), (5, 2, "place", 1)]),
        ((1, 3, 2, 4, 6, 5), {}, [(6, 3, "place", 1)]),  # R41: 6th (5) owes its mate 1: waived
        (
            (1, 3, 2, 4, 6, 5),
            {"same_union_tribute": True},
            [(5, 1, "place", 2), (6, 3, "place", 1)],
        ),
        ((1, 2, 4, 3, 5, 6), {}, [(6, 1, "place", 2), (5, 2, "place", 1)]),
        ((1, 2, 4, 3, 6, 5), {}, []),  # both losers pay their own mates: waived
    ],
)
def test_r38_r41_place_tributes(finish, flags, expected):
    outcome = Outcome(finish, ALL_POINTS)
    assert ledger(outcome, RuleSet.from_json(flags), kind="place") == expected


# --- R39 stringing three, R40 amnesty -------------------------------------------------------

STRUNG = (2, 4, 6, 1, 3, 5)  # union B takes 1st, 2nd, 3rd


def test_r39_stringing_three_replaces_every_other_tribute():
    outcome = Outcome(STRUNG, frozenset({2}), {4: "clear"}, burns=((2, 3, "success"),))
    assert ledger(outcome) == [
        (5, 2, "string_three", 1),
        (3, 6, "string_three", 1),
        (1, 4, "string_three", 1),
    ]


def test_r39_variant_waives_only_the_place_tribute():
    rules = RuleSet.from_json({"string_three_waives": "place"})
    outcome = Outcome(STRUNG, ALL_POINTS - {1}, burns=((2, 3, "success"),))
    assert ledger(outcome, rules) == [
        (3, 2, "burn", 1),
        (1, 4, "point", 1),
        (5, 2, "string_three", 1),
        (3, 6, "string_three", 1),
        (1, 4, "string_three", 1),
    ]


@pytest.mark.parametrize(
    "streak, amnesty, empty",
    [(0, True, False), (1, True, False), (2, True, True), (5, True, True), (2, False, False)],
)
def test_r40_amnesty_after_three_strings_in_a_row(streak, amnesty, empty):
    rules = RuleSet.from_json({"string_three_amnesty": amnesty})
    outcome = Outcome(STRUNG, ALL_POINTS, string_three_streak=streak)
    assert (ledger(outcome, rules) == []) is empty


def test_r40_the_streak_alone_grants_no_amnesty_without_a_string_this_deal():
    outcome = Outcome(NO_PLACE, ALL_POINTS, string_three_streak=2)
    assert ledger(outcome) == [(6, 1, "place", 2), (5, 2, "place", 1)]


# --- R42 order, R43 no tributes -------------------------------------------------------------


def busy_outcome():
    return Outcome(
        NO_PLACE, frozenset({1, 2, 3, 6}), burns=((2, 1, "success"),), suffocated=((5, 4),)
    )


def test_r42_default_paying_order_is_suffocation_burn_point_place():
    rules = RuleSet.from_json("qingdao-hold3")
    assert [e[2] for e in ledger(busy_outcome(), rules)] == [
        "suffocation",
        "burn",
        "point",
        "point",
        "place",
        "place",
    ]


def test_r42_tribute_order_variant():
    rules = RuleSet.from_json(
        {
            "preset": "qingdao-hold3",
            "tribute_order": ["point", "burn", "suffocation", "place"],
        }
    )
    assert [e[2] for e in ledger(busy_outcome(), rules)] == [
        "point",
        "point",
        "burn",
        "suffocation",
        "place",
        "place",
    ]
    assert ledger(busy_outcome(), rules)[0] == (4, 1, "point", 1)


@pytest.mark.parametrize(
    "outcome",
    [Outcome((1, 2, 3, 4, 5)), Outcome((1, 2, 3, 4, 5, 5)), Outcome(NO_PLACE, revolution=(2, 3))],
)
def test_settling_an_incomplete_or_void_deal_is_a_caller_bug(outcome):
    with pytest.raises(EngineBug):
        tribute_ledger(outcome, STANDARD)
    with pytest.raises(EngineBug):
        union_scores(outcome, STANDARD)


def test_r43_no_tributes():
    assert ledger(busy_outcome(), RuleSet.from_json({"tributes": False})) == []


# --- properties -----------------------------------------------------------------------------


@st.composite
def outcomes(draw):
    finish = tuple(draw(st.permutations([1, 2, 3, 4, 5, 6])))
    points = frozenset(draw(st.sets(st.sampled_from(range(1, 7)))))
    declarations = draw(
        st.dictionaries(st.sampled_from(range(1, 7)), st.sampled_from(["clear", "unclear"]))
    )
    burns = tuple(
        draw(
            st.lists(
                st.tuples(
                    st.sampled_from(range(1, 7)),
                    st.sampled_from(range(1, 7)),
                    st.sampled_from(["success", "counter", "stopped", "false"]),
                ).filter(lambda b: b[0] != b[1]),
                max_size=3,
            )
        )
    )
    streak = draw(st.integers(0, 3))
    return Outcome(finish, points, declarations, burns, (), (), streak)


@settings(max_examples=200, deadline=None)
@given(outcomes())
def test_no_tribute_between_union_mates_except_burns_under_the_defaults(outcome):
    for entry in tribute_ledger(outcome, STANDARD):
        assert entry["cards"] > 0 and entry["from"] != entry["to"]
        if union_of(entry["from"]) == union_of(entry["to"]):
            assert entry["kind"] == "burn"  # R41: burn tributes are owed even between mates


@settings(max_examples=200, deadline=None)
@given(outcomes())
def test_point_and_string_three_tributes_go_to_the_head_rival(outcome):
    for entry in tribute_ledger(outcome, STANDARD):
        if entry["kind"] in ("point", "string_three"):
            assert entry["to"] == head_rival(entry["from"])
