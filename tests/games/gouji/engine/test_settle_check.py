"""Reading and checking a gouji-outcome/1 summary (R20–R30, R34, D11)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.games.gouji.engine.game import GoujiGame
from matches.games.gouji.engine.seating import head_rival, union_of
from matches.games.gouji.engine.settle import parse_outcome, settle
from matches.kernel.engine_errors import BadDocument


def summary(**fields):
    doc = {
        "format": "gouji-outcome/1",
        "rules": "standard",
        "finish": [1, 2, 3, 4, 5, 6],
        "points": [1, 2, 3, 4, 5, 6],
    }
    doc.update(fields)
    return doc


def codes(doc):
    return [(e["rule"], e["code"]) for e in settle(doc)["errors"]]


def test_r1_r2_unions_and_head_rivals():
    assert [union_of(s) for s in range(1, 7)] == ["A", "B", "A", "B", "A", "B"]
    assert [head_rival(s) for s in range(1, 7)] == [4, 5, 6, 1, 2, 3]


def test_the_spec_example_settles():
    verdict = settle(
        {
            "format": "gouji-outcome/1",
            "rules": "standard",
            "finish": [3, 1, 5, 2, 4, 6],
            "points": [3, 1],
            "declarations": {},
            "burns": [],
            "suffocated": [],
            "revolution": [],
            "string_three_streak": 0,
        }
    )
    assert verdict["valid"] and verdict["errors"] == []
    assert verdict["union_scores"] == {"A": 12, "B": -12}
    assert [(t["from"], t["to"], t["kind"]) for t in verdict["tributes"]] == [
        (6, 3, "string_three"),
        (4, 1, "string_three"),
        (2, 5, "string_three"),
    ]


def test_a_valid_verdict_has_scores_and_tributes():
    verdict = settle(summary(points=[1, 3, 5], declarations={"2": "clear"}))
    assert verdict == {
        "valid": True,
        "errors": [],
        "union_scores": {"A": 2, "B": -2},
        "tributes": [
            # 5 opened a point, so 2's declaration failed: 1 for no point + 4 for the failure.
            {"from": 2, "to": 5, "kind": "point", "cards": 5},
            {"from": 4, "to": 1, "kind": "point", "cards": 1},
            {"from": 6, "to": 3, "kind": "point", "cards": 1},
            {"from": 6, "to": 1, "kind": "place", "cards": 2},
            {"from": 5, "to": 2, "kind": "place", "cards": 1},
        ],
    }


def test_the_game_interface_checks_summaries():
    game = GoujiGame()
    assert game.name == "gouji"
    assert game.check_summary(summary()) == settle(summary())


# --- inconsistencies: each with its rule id and code ----------------------------------------


@pytest.mark.parametrize(
    "fields, expected",
    [
        # R30: the finish orders all six seats.
        ({"finish": [1, 2, 3, 4, 5, 5]}, [("R30", "finish_not_permutation")]),
        ({"finish": [1, 2, 3, 4, 5]}, [("R30", "finish_not_permutation")]),
        ({"finish": []}, [("R30", "finish_not_permutation")]),
        # R29 revolution.
        ({"revolution": [3, 6], "finish": [1, 2, 3, 4, 5, 6]}, [("R29", "deal_void")]),
        (
            {"revolution": [5], "finish": [1, 2, 5, 3, 4, 6], "points": [2]},
            [("R29", "revolution_place")],
        ),  # 5 is 3rd but mates 1 and 3 are not 1st and 2nd
        (
            {"revolution": [5], "finish": [1, 3, 2, 5, 4, 6], "points": [2]},
            [("R29", "revolution_place")],
        ),  # mates are 1st and 2nd: 5 must be 3rd
        ({"revolution": [5], "finish": [1, 2, 3, 5, 4, 6], "points": [2]}, []),
        ({"revolution": [5], "finish": [1, 3, 5, 2, 4, 6], "points": [2]}, []),
        # R29/D11: the rival's point is automatic, so a summary need not list it
        ({"revolution": [5], "finish": [1, 2, 3, 5, 4, 6], "points": [1]}, []),
        (
            {"revolution": [5], "finish": [1, 2, 3, 5, 4, 6], "points": [2, 5]},
            [("R29", "revolutionary_point")],
        ),
        (
            {
                "revolution": [5],
                "finish": [1, 2, 3, 5, 4, 6],
                "points": [2],
                "burns": [{"burner": 5, "burned": 4, "outcome": "stopped"}],
            },
            [("R29", "revolutionary_played")],
        ),
        ({"revolution": [5], "rules": {"revolution": False}}, [("R29", "revolution_disabled")]),
        # R34: special declarations are not allowed under these rule sets.
        ({"declarations": {"3": "special"}}, [("R34", "special_not_allowed")]),
        # R21/R22 burns and D11 places.
        ({"burns": [{"burner": 2, "burned": 2, "outcome": "stopped"}]}, [("R21", "burn_self")]),
        (
            {"burns": [{"burner": 4, "burned": 1, "outcome": "stopped"}]},
            [("R21", "burn_by_head_rival")],
        ),
        ({"burns": [{"burner": 2, "burned": 3, "outcome": "success"}]}, []),
        # D7: with a revolution only the 1st can have burned out.
        (
            {
                "revolution": [5],
                "finish": [1, 2, 3, 5, 4, 6],
                "points": [2],
                "burns": [{"burner": 2, "burned": 3, "outcome": "success"}],
            },
            [("D11", "burner_not_top_two")],
        ),
        (
            {
                "revolution": [5],
                "finish": [2, 1, 3, 5, 4, 6],
                "points": [2],
                "burns": [{"burner": 2, "burned": 3, "outcome": "success"}],
            },
            [],
        ),
        (
            {"burns": [{"burner": 2, "burned": 1, "outcome": "success"}]},
            [("R22", "burned_finished_first")],
        ),
        (
            {"burns": [{"burner": 3, "burned": 1, "outcome": "success"}]},
            [("D11", "burner_not_top_two"), ("R22", "burned_finished_first")],
        ),
        (
            {"burns": [{"burner": 3, "burned": 4, "outcome": "success"}]},
            [("D11", "burner_not_top_two")],
        ),
        (
            {"burns": [{"burner": 2, "burned": 3, "outcome": "counter"}]},
            [("R22", "counter_without_burn")],
        ),
        (
            {
                "burns": [
                    {"burner": 3, "burned": 4, "outcome": "stopped"},
                    {"burner": 2, "burned": 3, "outcome": "counter"},
                ]
            },
            [],
        ),
        (
            {
                "burns": [{"burner": 2, "burned": 1, "outcome": "stopped"}],
                "points": [1, 3, 4, 5, 6],
                "rules": {"burn_requires_point": True},
            },
            [("R21", "burn_without_point")],
        ),
        # R22d: a false burner takes the lowest open place (default false_burn = "place").
        ({"burns": [{"burner": 6, "burned": 1, "outcome": "false"}]}, []),
        ({"burns": [{"burner": 5, "burned": 1, "outcome": "false"}]}, [("R22", "forced_place")]),
        (
            {
                "burns": [{"burner": 5, "burned": 1, "outcome": "false"}],
                "rules": {"false_burn": "tribute"},
            },
            [],
        ),
        # R27: suffocation only under hold_three; the suffocated take the lowest open places.
        ({"suffocated": [{"seat": 6, "by": 5}]}, [("R27", "suffocation_without_hold_three")]),
        (
            {"suffocated": [{"seat": 6, "by": 5}, {"seat": 5, "by": 4}], "rules": "qingdao-hold3"},
            [],
        ),
        (
            {"suffocated": [{"seat": 4, "by": 5}], "rules": "qingdao-hold3"},
            [("R27", "forced_place")],
        ),
        (
            {
                "suffocated": [{"seat": 4, "by": 5}],
                "rules": {"preset": "qingdao-hold3", "suffocated_play_on": True},
            },
            [],
        ),
        (
            {"suffocated": [{"seat": 6, "by": 6}], "rules": "qingdao-hold3"},
            [("R27", "suffocated_self")],
        ),
        (
            {"suffocated": [{"seat": 6, "by": 5}, {"seat": 6, "by": 1}], "rules": "qingdao-hold3"},
            [("R27", "suffocated_twice")],
        ),
        # A false burner and a revolutionary: the revolutionary's place is fixed apart.
        (
            {
                "revolution": [3],
                "finish": [1, 2, 4, 3, 5, 6],
                "points": [6],
                "burns": [{"burner": 6, "burned": 1, "outcome": "false"}],
            },
            [],
        ),
    ],
)
def test_inconsistencies(fields, expected):
    verdict = settle(summary(**fields))
    assert codes(summary(**fields)) == expected
    assert verdict["valid"] is (expected == [])
    if expected:
        assert verdict["union_scores"] is None and verdict["tributes"] == []
        assert all(e["message"] for e in verdict["errors"])


def test_every_inconsistency_is_reported_not_just_the_first():
    doc = summary(
        finish=[1, 1, 2, 3, 4, 5],
        declarations={"1": "special"},
        burns=[{"burner": 4, "burned": 1, "outcome": "stopped"}],
    )
    assert codes(doc) == [
        ("R30", "finish_not_permutation"),
        ("R34", "special_not_allowed"),
        ("R21", "burn_by_head_rival"),
    ]


def test_error_messages_name_the_seats():
    [error] = settle(summary(revolution=[5], finish=[1, 2, 5, 3, 4, 6], points=[2]))["errors"]
    assert "seat 5" in error["message"] and "3rd" in error["message"] and "4th" in error["message"]


# --- unreadable documents -------------------------------------------------------------------


@pytest.mark.parametrize(
    "doc, words",
    [
        ([1, 2], "JSON object"),
        ({"finish": [1, 2, 3, 4, 5, 6]}, "'format'"),
        (summary(format="gouji-deal/1"), "'format'"),
        ({"format": "gouji-outcome/1"}, "'finish' is required"),
        (summary(winner=1), "unknown field 'winner'"),
        (summary(finish="123456"), "'finish' must be a list"),
        (summary(finish=[1, 2, 3, 4, 5, 7]), "no seat 7"),
        (summary(finish=[1, 2, 3, 4, 5, "6"]), "seat number"),
        (summary(finish=[1, 2, 3, 4, 5, True]), "seat number"),
        (summary(points=[1, 1]), "lists seat 1 twice"),
        (summary(revolution=[2, 2]), "lists seat 2 twice"),
        (summary(points={"1": True}), "'points' must be a list"),
        (summary(declarations=[1]), "'declarations' must be an object"),
        (summary(declarations={"7": "clear"}), "no seat '7'"),
        (summary(declarations={"1": "loud"}), "'loud'"),
        (summary(burns=[{"burner": 1, "burned": 2}]), "missing field 'outcome'"),
        (
            summary(burns=[{"burner": 1, "burned": 2, "outcome": "success", "x": 1}]),
            "unknown field 'x'",
        ),
        (summary(burns=[{"burner": 1, "burned": 2, "outcome": "won"}]), "outcome must be one of"),
        (summary(burns=[[1, 2, "success"]]), "burns[0] must be an object"),
        (summary(suffocated=[{"seat": 9, "by": 2}]), "no seat 9"),
        (summary(string_three_streak=-1), "string_three_streak"),
        (summary(string_three_streak="2"), "string_three_streak"),
        (summary(rules="nine-decks"), "unknown rules preset"),
        (summary(rules={"preset": "standard", "tributes": "no"}), "true or false"),
    ],
)
def test_bad_documents_get_a_clear_error(doc, words):
    with pytest.raises(BadDocument) as caught:
        settle(doc)
    assert words in caught.value.message
    assert caught.value.as_dict()["code"] == "bad_document"


def test_parse_outcome_reads_every_field():
    outcome, rules = parse_outcome(
        summary(
            rules={"preset": "qingdao-hold3"},
            points=[2, 3],
            declarations={"4": "unclear"},
            burns=[{"burner": 2, "burned": 1, "outcome": "success"}],
            suffocated=[{"seat": 6, "by": 5}],
            revolution=[],
            string_three_streak=1,
        )
    )
    assert outcome.finish == (1, 2, 3, 4, 5, 6)
    assert outcome.points == frozenset({2, 3})
    assert outcome.declarations == {4: "unclear"}
    assert outcome.burns == ((2, 1, "success"),)
    assert outcome.suffocated == ((6, 5),)
    assert outcome.string_three_streak == 1
    assert rules.hold_three


def test_r29_revolution_contest_takes_points_as_reported():
    rules = {"preset": "standard", "revolution_contest": True}
    # The revolutionary opened a point with their best set; the rival opened none.
    assert codes(summary(rules=rules, revolution=[5], finish=[1, 2, 3, 5, 4, 6], points=[5])) == []
    assert codes(summary(revolution=[5], finish=[1, 2, 3, 5, 4, 6], points=[5])) == [
        ("R29", "revolutionary_point")
    ]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 8) | st.text(max_size=4),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
field_values = st.fixed_dictionaries(
    {},
    optional={
        "rules": (
            st.sampled_from(["standard", "qingdao-hold3", None, {"tributes": False}]) | json_values
        ),
        "finish": st.permutations([1, 2, 3, 4, 5, 6]).map(list) | json_values,
        "points": st.lists(st.integers(0, 7), max_size=3) | json_values,
        "declarations": st.dictionaries(
            st.sampled_from(["1", "2", "7"]), st.sampled_from(["clear", "unclear", "special", "x"])
        ),
        "burns": st.lists(
            st.fixed_dictionaries(
                {
                    "burner": st.integers(0, 7),
                    "burned": st.integers(1, 6),
                    "outcome": st.sampled_from(["success", "counter", "stopped", "false", "won"]),
                }
            ),
            max_size=3,
        )
        | json_values,
        "suffocated": st.lists(
            st.fixed_dictionaries({"seat": st.integers(1, 6), "by": st.integers(1, 7)}), max_size=2
        ),
        "revolution": st.lists(st.integers(1, 6), max_size=2),
        "string_three_streak": st.integers(-1, 3) | json_values,
    },
)


@settings(max_examples=200, deadline=None)
@given(field_values)
def test_any_document_gets_a_verdict_or_a_clear_error_never_a_traceback(fields):
    doc = {"format": "gouji-outcome/1", **fields}
    try:
        verdict = settle(doc)
    except BadDocument as error:
        assert error.message
        return
    assert set(verdict) == {"valid", "errors", "union_scores", "tributes"}
    if verdict["valid"]:
        assert sum(verdict["union_scores"].values()) == 0
    else:
        assert verdict["errors"] and verdict["union_scores"] is None


def test_a_seat_forced_out_at_third_keeps_the_revolutionary_fourth():
    """R29 with R27/R30, found by the self-play property (seed 3174): seat 3 was suffocated
    while the revolutionary (6) still held 4th, so it took 3rd, the lowest open place, and kept
    it (forced places are fixed as they arise); when 6's mates then finished 1st and 2nd, 3rd
    was taken and 6 stays 4th. Replay and settle agree on it."""
    from matches.games.gouji.engine.replay import replay
    from matches.games.gouji.engine.selfplay import selfplay

    (doc,) = selfplay(1, 3174, {"preset": "qingdao-hold3", "no_three": "hold_four"})
    verdict = replay(doc)
    assert verdict["valid"] and verdict["finish"] == [2, 4, 3, 6, 1, 5]
    outcome = {
        "format": "gouji-outcome/1",
        "rules": doc["rules"],
        "finish": verdict["finish"],
        "points": verdict["points"],
        "declarations": {},
        "burns": verdict["burns"],
        "suffocated": verdict["suffocated"],
        "revolution": [6],
    }
    assert settle(outcome)["valid"]
    # Not forced out, seat 3 at 3rd would be wrong: the mates are 1st and 2nd, 6 must be 3rd.
    unforced = {**outcome, "suffocated": [s for s in verdict["suffocated"] if s["seat"] != 3]}
    codes = [(e["rule"], e["code"]) for e in settle(unforced)["errors"]]
    assert ("R29", "revolution_place") in codes
