"""Position tests for the play of a deal, R15–R30 (and the D-details they lean on).

Each row is a small deal replayed from its record: the rule it tests, the six hands, the
actions, and what the verdict must say. Every rule has at least one legal and one illegal (or
refused) case; `LEGAL` means every action was accepted.
"""

from __future__ import annotations

import pytest

from tests.games.gouji.engine.positions import run

LEGAL = None
NO_LAST_ANSWER = {"preset": "standard", "last_hand_answer": False}
HOLD3 = "qingdao-hold3"

# Six one-card fillers, so that seats not under test hold something (D10).
SINGLES = ["39", "49", "59", "69", "79", "89"]
# A Gou Ji table: every seat holds five of a rank and one small card.
GOUJI = ["TTTTT3", "JJJJJ4", "QQQQQ5", "KKKKK6", "AAAAA7", "222228"]

CASES = [
    # --- R15: leading and following in order ---------------------------------------------
    ("R15", "follow in playing order", SINGLES, "1:3 2:4 3:5 4:6 5:7 6:8", {}, LEGAL, {}),
    ("R15", "out of turn", SINGLES, "1:3 3:5", {}, (1, "R15", "not_your_turn"), {}),
    ("R15", "the leader may not pass", SINGLES, "1:pass", {}, (0, "R15", "must_lead"), {}),
    (
        "R15",
        "only the leader leads",
        SINGLES,
        "1:3",
        {"leader": 2},
        (0, "R15", "not_your_turn"),
        {},
    ),
    (
        "R15",
        "same size only (R9)",
        ["339", "449", "5", "6", "7", "8"],
        "1:33 2:4",
        {},
        (1, "R9", "size_mismatch"),
        {},
    ),
    (
        "R15",
        "higher rank only (R10)",
        ["59", "49", "5", "6", "7", "8"],
        "1:5 2:4",
        {},
        (1, "R10", "does_not_beat"),
        {},
    ),
    # --- R16: a pass is for the whole round, except the head rival's final chance --------
    (
        "R16",
        "head rival who passed earlier beats the rival's hand last (EN)",
        ["359", "49", "9", "69", "9", "9"],
        "1:3 2:4 3:pass 4:pass 5:pass 6:pass 1:5 2:pass 4:6",
        {},
        LEGAL,
        {},
    ),
    (
        "R16",
        "a seat that passed may not play again in the round",
        ["359", "49", "49", "9", "9", "9"],
        "1:3 2:pass 3:4 4:pass 5:pass 6:pass 1:5 2:9",
        {},
        (7, "R16", "already_passed"),
        {},
    ),
    (
        "R16",
        "the final chance is the head rival's alone",
        ["359", "49", "9", "69", "9", "9"],
        "1:3 2:4 3:pass 4:pass 5:pass 6:pass 1:5 2:pass 3:9",
        {},
        (8, "R16", "already_passed"),
        {},
    ),
    (
        "R16",
        "the head rival's own pass, the last on the hand, ends the round (D2)",
        ["59", "9", "9", "369", "9", "9"],
        "4:3 5:pass 6:pass 1:5 2:pass 3:pass 4:pass 1:9",
        {"leader": 4},
        LEGAL,
        {},
    ),
    (
        "R16",
        "no final chance after the head rival's own last pass (D2)",
        ["59", "9", "9", "369", "9", "9"],
        "4:3 5:pass 6:pass 1:5 2:pass 3:pass 4:pass 4:6",
        {"leader": 4},
        (7, "R15", "not_your_turn"),
        {},
    ),
    # --- R17: who leads the next round --------------------------------------------------
    (
        "R17",
        "the top hand's owner leads",
        ["359", "49", "9", "69", "9", "9"],
        "1:3 2:pass 3:pass 4:pass 5:pass 6:pass 4:pass 1:5",
        {},
        LEGAL,
        {},
    ),
    (
        "R17",
        "the owner finished: the next seat in play leads (接风)",
        ["3", "49", "59", "69", "79", "89"],
        "1:3 2:pass 3:pass 4:pass 5:pass 6:pass 4:pass 2:4",
        {"rules": NO_LAST_ANSWER},
        LEGAL,
        {"finish": [1]},
    ),
    (
        "R17",
        "nobody else leads after a finisher",
        ["3", "49", "59", "69", "79", "89"],
        "1:3 2:pass 3:pass 4:pass 5:pass 6:pass 4:pass 3:5",
        {"rules": NO_LAST_ANSWER},
        (7, "R15", "not_your_turn"),
        {},
    ),
    # --- R18: only cards held; the record names the first leader ------------------------
    ("R18", "the record's leader leads", SINGLES, "3:5 4:6", {"leader": 3}, LEGAL, {}),
    ("R18", "cards not held", SINGLES, "1:44", {}, (0, "R18", "cards_not_held"), {}),
    # --- R19: only the head rival answers a Gou Ji hand; yielding (D3) -------------------
    (
        "R19",
        "the head rival answers, the exchange goes on between rivals",
        GOUJI,
        "1:TTTTT 4:KKKKK 1:pass 4:6",
        {},
        LEGAL,
        {"points": [4]},
    ),
    (
        "R19",
        "yield, nobody burns, then pass",
        GOUJI,
        "1:TTTTT 4:yield 4:pass 1:3",
        {},
        LEGAL,
        {"points": [1]},
    ),
    (
        "R19",
        "a head rival who passed earlier still answers a Gou Ji hand (D2)",
        ["39", "4B9", "9", "9", "29", "9"],
        "1:3 2:pass 3:pass 4:pass 5:2 2:B",
        {},
        LEGAL,
        {},
    ),
    (
        "R19",
        "the owner cannot pass on its own Gou Ji hand",
        GOUJI,
        "1:TTTTT 1:pass",
        {},
        (1, "R19", "not_your_turn"),
        {},
    ),
    (
        "R19",
        "only the head rival yields",
        GOUJI,
        "1:TTTTT 2:yield",
        {},
        (1, "R19", "yield_not_head_rival"),
        {},
    ),
    (
        "R19",
        "one yield a hand",
        GOUJI,
        "1:TTTTT 4:yield 4:yield",
        {},
        (2, "R19", "already_yielded"),
        {},
    ),
    # --- R20: point opening -------------------------------------------------------------
    (
        "R20",
        "an unbeaten point-opening set opens a point",
        GOUJI,
        "1:TTTTT 4:pass",
        {},
        LEGAL,
        {"points": [1]},
    ),
    (
        "R20",
        "attached jokers never open a point (ZH)",
        ["TTTTTB3", "4", "5", "6", "7", "8"],
        "1:TTTTTB 4:pass",
        {},
        LEGAL,
        {"points": []},
    ),
    (
        "R20",
        "one point a deal",
        ["TTTTTQQQ3", "4", "5", "6", "7", "8"],
        "1:TTTTT 4:pass 1:QQQ 4:pass",
        {},
        LEGAL,
        {"points": [1]},
    ),
    (
        "R20",
        "a beaten set opens nothing",
        GOUJI,
        "1:TTTTT 4:KKKKK 1:pass",
        {},
        LEGAL,
        {"points": [4]},
    ),
    (
        "R20",
        "a claimed point that was not opened is a mismatch",
        GOUJI,
        "1:TTTTT 4:pass",
        {"claimed": {"points": [1, 4]}},
        LEGAL,
        {"mismatch": ["points"]},
    ),
    # --- R21: who may burn ----------------------------------------------------------------
    (
        "R21",
        "a non-rival who has not passed burns, and plays out with a joker",
        ["TTTTT3", "4", "JJJJJB", "5", "6", "7"],
        "1:TTTTT 3:JJJJJ 6:pass 3:B",
        {},
        LEGAL,
        {"burns": [(3, 1, "success")], "points": [3], "finish": [3]},
    ),
    (
        "R21",
        "a player who passed may not burn",
        ["39", "49", "B9", "69", "29", "89"],
        "1:3 2:4 3:pass 4:pass 5:2 3:B",
        {},
        (5, "R21", "passed_may_not_burn"),
        {},
    ),
    (
        "R21",
        "burn_requires_point: no point, no burn",
        ["TTTTT3", "4", "JJJJJB", "5", "6", "7"],
        "1:TTTTT 3:JJJJJ",
        {"rules": {"preset": "standard", "burn_requires_point": True}},
        (1, "R21", "burn_requires_point"),
        {},
    ),
    (
        "R21",
        "no burning after the head rival's plain pass (D3)",
        GOUJI,
        "1:TTTTT 4:pass 3:QQQQQ",
        {},
        (2, "R15", "not_your_turn"),
        {},
    ),
    (
        "R21",
        "priority: the burned seat's mate 3 before 5 (a note, not an error)",
        ["TTTTT3", "4", "JJJJJB", "9", "QQQQQB", "7"],
        "1:TTTTT 5:QQQQQ",
        {},
        LEGAL,
        {"notes_contain": "R21"},
    ),
    # --- R22: the burn's course and outcomes --------------------------------------------
    (
        "R22",
        "stopped by the burner's head rival",
        ["TTTTT3", "4", "JJJJJB", "5", "6", "QQQQQ7"],
        "1:TTTTT 3:JJJJJ 6:QQQQQ",
        {},
        LEGAL,
        {"burns": [(3, 1, "stopped")]},
    ),
    (
        "R22",
        "counter-burn by the burned seat, who plays out first",
        ["TTTTTQQQQQ", "4", "JJJJJB", "5", "6", "7"],
        "1:TTTTT 3:JJJJJ 1:QQQQQ",
        {},
        LEGAL,
        {"burns": [(3, 1, "stopped"), (1, 3, "counter")], "finish": [1]},
    ),
    (
        "R22",
        "a step without a joker is a false burn: out, the next seat leads",
        ["TTTTT3", "4", "JJJJJ99B", "5", "6", "7"],
        "1:TTTTT 3:JJJJJ 6:pass 3:99 4:5",
        {},
        LEGAL,
        {"burns": [(3, 1, "false")]},
    ),
    (
        "R22",
        "the false burner is out of play",
        ["TTTTT3", "49", "JJJJJ99B", "59", "69", "79"],
        "1:TTTTT 3:JJJJJ 6:pass 3:99 4:5 5:6 6:7 1:pass 3:B",
        {},
        (8, "R30", "seat_out"),
        {},
    ),
    (
        "R22",
        "a counter-burn stopped by its burner's head rival: both burns stopped",
        ["TTTTT3", "QQQQQ4", "JJJJJB", "9", "KKKKK9", "9"],
        "1:TTTTT 3:JJJJJ 2:QQQQQ 5:KKKKK",
        {},
        LEGAL,
        {"burns": [(3, 1, "stopped"), (2, 3, "stopped")]},
    ),
    (
        "R22",
        "a headless seat's answer stops a burn (D6)",
        ["3", "TTTTT9", "JJJJJB", "QQQQQ9", "9", "9"],
        "1:3 4:pass 2:pass 3:pass 5:pass 6:pass 2:TTTTT 3:JJJJJ 4:QQQQQ 5:pass",
        {},
        LEGAL,
        {"burns": [(3, 2, "stopped")]},
    ),
    (
        "R22",
        "false_burn = tribute: the burner plays on and owes a tribute",
        ["TTTTT3", "49", "JJJJJ99B", "59", "69", "79"],
        "1:TTTTT 3:JJJJJ 6:pass 3:99 4:pass 5:pass",
        {"rules": {"preset": "standard", "false_burn": "tribute"}},
        LEGAL,
        {"burns": [(3, 1, "false")]},
    ),
    (
        "R22",
        "burn_first_hand_needs_joker: a plain first hand is false",
        ["TTTTT3", "4", "JJJJJB", "5", "6", "7"],
        "1:TTTTT 3:JJJJJ 4:5",
        {"rules": {"preset": "standard", "burn_first_hand_needs_joker": True}},
        LEGAL,
        {"burns": [(3, 1, "false")]},
    ),
    (
        "R22",
        "by default the plain first hand stands",
        ["TTTTT3", "4", "JJJJJB", "5", "6", "7"],
        "1:TTTTT 3:JJJJJ 4:5",
        {},
        (2, "R9", "size_mismatch"),
        {},
    ),
    # --- R23: headless players (D6) -------------------------------------------------------
    (
        "R23",
        "a headless seat answers a Gou Ji hand, and it is no burn",
        ["3", "TTTTT9", "9", "JJJJJ9", "QQQQQ9", "9"],
        "1:3 4:pass 2:pass 3:pass 5:pass 6:pass 2:TTTTT 4:JJJJJ 5:QQQQQ",
        {},
        LEGAL,
        {"burns": [], "finish": [1]},
    ),
    (
        "R23",
        "a headless seat's Gou Ji hand is answered in normal order",
        ["3", "TTTTT9", "9", "JJJJJ9", "9", "QQQQQ9"],
        "1:3 4:pass 2:pass 3:pass 5:pass 6:pass 2:TTTTT 4:JJJJJ 6:QQQQQ",
        {},
        (8, "R15", "not_your_turn"),
        {},
    ),
    # --- R24: the melee after two finishers ----------------------------------------------
    (
        "R24",
        "Gou Ji hands in normal order, no point",
        ["3", "4", "TTTTT9", "JJJJJ9", "QQQQQ9", "9"],
        "1:3 2:4 3:pass 4:pass 5:pass 6:pass 5:pass 3:TTTTT 4:pass 5:pass 6:pass 3:9",
        {"rules": NO_LAST_ANSWER},
        LEGAL,
        {"points": [], "finish": [1, 2, 3]},
    ),
    (
        "R24",
        "no burning in the melee",
        ["3", "4", "TTTTT9", "JJJJJ9", "QQQQQ9", "9"],
        "1:3 2:4 3:pass 4:pass 5:pass 6:pass 5:pass 3:TTTTT 5:QQQQQ",
        {"rules": NO_LAST_ANSWER},
        (8, "R15", "not_your_turn"),
        {},
    ),
    # --- R25: the last-hand answer (D8) ----------------------------------------------------
    (
        "R25",
        "the head rival answers the last hand, leads, and opens a point",
        ["TTTTT", "9", "9", "JJJJJ99", "9", "9"],
        "1:TTTTT 4:JJJJJ 4:9",
        {},
        LEGAL,
        {"points": [4], "finish": [1]},
    ),
    (
        "R25",
        "a pass on a Gou Ji last hand opens the finisher's point; 接风",
        ["TTTTT", "9", "9", "JJJJJ9", "9", "9"],
        "1:TTTTT 4:pass 2:9",
        {},
        LEGAL,
        {"points": [1]},
    ),
    (
        "R25",
        "after the answer others may only burn it (and the point is lost)",
        ["TTTTT", "9", "QQQQQ9", "JJJJJ9", "9", "9"],
        "1:TTTTT 4:JJJJJ 3:QQQQQ",
        {},
        LEGAL,
        {"points": [], "burns": [(3, 4, None)]},
    ),
    (
        "R25",
        "an answer that is the answerer's own last hand: the lead passes on, no point",
        ["TTTTT", "9", "9", "JJJJJ", "9", "9"],
        "1:TTTTT 4:JJJJJ 5:9",
        {},
        LEGAL,
        {"points": [], "finish": [1, 4, 5]},
    ),
    (
        "R25",
        "the head rival answers first",
        ["TTTTT", "JJJJJ9", "9", "JJJJJ9", "9", "9"],
        "1:TTTTT 2:JJJJJ",
        {},
        (1, "R25", "not_your_turn"),
        {},
    ),
    (
        "R25",
        "no yield on a last hand (D3)",
        ["TTTTT", "9", "9", "JJJJJ9", "9", "9"],
        "1:TTTTT 4:yield",
        {},
        (1, "R25", "no_yield"),
        {},
    ),
    (
        "R25",
        "not used with hold-3: normal order after the finisher",
        ["TTTTT", "9", "9", "JJJJJ99", "9", "9"],
        "1:TTTTT 2:pass 3:pass 4:JJJJJ",
        {"rules": {"preset": HOLD3, "last_hand_answer": True}},
        LEGAL,
        {"points": []},
    ),
    # --- R26: hold-3 ----------------------------------------------------------------------
    (
        "R26",
        "the 3s are the final hand",
        ["339", "4", "5", "6", "7", "8"],
        "1:9 2:pass 3:pass 4:pass 5:pass 6:pass 4:pass 1:33",
        {"rules": HOLD3},
        LEGAL,
        {"finish": [1], "suffocated": []},
    ),
    (
        "R26",
        "no 3 before the final hand",
        ["339", "4", "5", "6", "7", "8"],
        "1:3",
        {"rules": HOLD3},
        (0, "R26", "hold_three"),
        {},
    ),
    (
        "R26",
        "the 3s go pure",
        ["332", "4", "5", "6", "7", "8"],
        "1:332",
        {"rules": HOLD3},
        (0, "R26", "hold_three"),
        {},
    ),
    # --- R27: suffocation -------------------------------------------------------------------
    (
        "R27",
        "the last hand before the 3s is beaten: suffocated, out",
        ["339", "T4", "5", "6", "7", "8"],
        "1:9 2:T 3:pass 4:pass 5:pass 6:pass 1:pass",
        {"rules": HOLD3},
        (6, "R30", "seat_out"),
        {"suffocated": [(1, 2)]},
    ),
    (
        "R27",
        "suffocated_play_on: the suffocated seat plays on",
        ["339", "T4", "5", "6", "7", "8"],
        "1:9 2:T 3:pass 4:pass 5:pass 6:pass 1:pass 5:pass 2:4",
        {"rules": {"preset": HOLD3, "suffocated_play_on": True}},
        LEGAL,
        {"suffocated": [(1, 2)]},
    ),
    # --- R28: a seat without a 3 holds its 4s (variant), or is exempt -------------------------
    (
        "R28",
        "no_three = hold_four: the 4s are kept",
        ["449", "5", "6", "7", "8", "9"],
        "1:4",
        {"rules": {"preset": HOLD3, "no_three": "hold_four"}},
        (0, "R28", "hold_four"),
        {},
    ),
    (
        "R28",
        "no_three = exempt: a seat without 3 plays its 4s freely",
        ["449", "5", "6", "7", "8", "9"],
        "1:4",
        {"rules": {"preset": HOLD3, "no_three": "exempt"}},
        LEGAL,
        {},
    ),
    # --- R28a: a 4 before a point forfeits the point ----------------------------------------
    (
        "R28a",
        "a 4 played first: no point",
        ["4TTTTT9", "5", "6", "7", "8", "9"],
        "1:4 2:pass 3:pass 4:pass 5:pass 6:pass 4:pass 1:TTTTT 4:pass",
        {"rules": {"preset": "standard", "hold_four_before_point": True}},
        LEGAL,
        {"points": []},
    ),
    (
        "R28a",
        "the point first, then 4s are free",
        ["4TTTTT9", "5", "6", "7", "8", "9"],
        "1:TTTTT 4:pass 1:4",
        {"rules": {"preset": "standard", "hold_four_before_point": True}},
        LEGAL,
        {"points": [1]},
    ),
    # --- R29: revolution -------------------------------------------------------------------
    (
        "R29",
        "the revolutionary never plays; its head rival has a point",
        ["39", "49", "59", "69", "79", "89"],
        "2:4 3:5",
        {"revolution": [1]},
        LEGAL,
        {"points": [4]},
    ),
    (
        "R29",
        "3rd when both union mates take 1st and 2nd, which strings three",
        ["9", "3", "9", "T", "9", "J"],
        "4:T 1:pass 5:pass 6:J",
        {"revolution": [2], "leader": 4},
        LEGAL,
        {
            "complete": True,
            "finish": [4, 6, 2, 3, 5, 1],
            "points": [5],
            "union_scores": {"A": -12, "B": 12},
        },
    ),
    (
        "R29",
        "the revolutionary may not act",
        ["39", "49", "59", "69", "79", "89"],
        "2:4 3:5 1:9",
        {"revolution": [1]},
        (2, "R30", "seat_out"),
        {},
    ),
    (
        "R29",
        "no revolution with a 2",
        ["329", "49", "59", "69", "79", "89"],
        "2:4",
        {"revolution": [1]},
        (None, "R29", "revolution_not_allowed"),
        {},
    ),
    (
        "R29",
        "two revolutions void the deal",
        ["39", "49", "59", "69", "79", "89"],
        "",
        {"revolution": [1, 2]},
        (None, "R29", "deal_void"),
        {},
    ),
    (
        "R29",
        "revolution = false",
        ["39", "49", "59", "69", "79", "89"],
        "",
        {"revolution": [1], "rules": {"preset": "standard", "revolution": False}},
        (None, "R29", "revolution_disabled"),
        {},
    ),
    # --- R30: finishing order; stringing three ends the deal (D13) ---------------------------
    (
        "R30",
        "a complete deal",
        ["3", "4", "5", "6", "7", "8"],
        "1:3 4:6 5:7 6:8 2:pass 3:pass 2:4",
        {},
        LEGAL,
        {"complete": True, "finish": [1, 4, 5, 6, 2, 3], "union_scores": {"A": 0, "B": 0}},
    ),
    (
        "R30",
        "nothing after the deal is over",
        ["3", "4", "5", "6", "7", "8"],
        "1:3 4:6 5:7 6:8 2:pass 3:pass 2:4 3:5",
        {},
        (7, "R30", "deal_over"),
        {},
    ),
    (
        "R30",
        "stringing three ends the deal; places 4–6 counted on (D13)",
        ["3", "49", "5", "69", "7", "89"],
        "1:3 4:pass 2:pass 3:5 6:pass 5:7",
        {},
        LEGAL,
        {"complete": True, "finish": [1, 3, 5, 6, 2, 4], "union_scores": {"A": 12, "B": -12}},
    ),
    (
        "R30",
        "D13: the referee's order of places 4–6 is taken",
        ["3", "49", "5", "69", "7", "89"],
        "1:3 4:pass 2:pass 3:5 6:pass 5:7",
        {"claimed": {"finish": [1, 3, 5, 2, 4, 6]}},
        LEGAL,
        {"finish": [1, 3, 5, 2, 4, 6], "mismatch": []},
    ),
    (
        "R30",
        "D13: a claimed order that contradicts play is a mismatch",
        ["3", "49", "5", "69", "7", "89"],
        "1:3 4:pass 2:pass 3:5 6:pass 5:7",
        {"claimed": {"finish": [3, 1, 5, 2, 4, 6]}},
        LEGAL,
        {"mismatch": ["finish"]},
    ),
]


@pytest.mark.parametrize(
    "rule, title, hands, moves, options, error, expect",
    CASES,
    ids=[f"{case[0]}-{case[1]}" for case in CASES],
)
def test_position(rule, title, hands, moves, options, error, expect):
    verdict = run(hands, moves, **options)
    if error is LEGAL:
        assert verdict["valid"], verdict["error"]
        assert verdict["error"] is None
    else:
        index, rule_id, code = error
        assert not verdict["valid"]
        assert (verdict["error"]["action"], verdict["error"]["rule"], verdict["error"]["code"]) == (
            index,
            rule_id,
            code,
        ), verdict["error"]
    if "points" in expect:
        assert verdict["points"] == expect["points"]
    if "burns" in expect:
        burns = [(b["burner"], b["burned"], b["outcome"]) for b in verdict["burns"]]
        assert burns == expect["burns"]
    if "suffocated" in expect:
        assert [(s["seat"], s["by"]) for s in verdict["suffocated"]] == expect["suffocated"]
    if "finish" in expect:
        assert verdict["finish"] == expect["finish"]
    if "complete" in expect:
        assert verdict["complete"] == expect["complete"]
    if "union_scores" in expect:
        assert verdict["union_scores"] == expect["union_scores"]
    if "mismatch" in expect:
        assert [m["field"] for m in verdict["mismatches"]] == expect["mismatch"]
    if "notes_contain" in expect:
        assert any(expect["notes_contain"] in note for note in verdict["notes"]), verdict["notes"]


def test_every_rule_r15_to_r30_has_a_legal_and_an_illegal_case():
    rules = [f"R{n}" for n in range(15, 31)] + ["R28a"]
    for rule in rules:
        outcomes = {case[5] is LEGAL for case in CASES if case[0] == rule}
        # R20 and R28a forbid no action: their refused cases are a point that is not opened
        # (and a claim of it, a mismatch)
        assert outcomes == {True, False} or rule in ("R20", "R28a"), rule
