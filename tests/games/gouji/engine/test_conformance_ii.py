"""Rules conformance II (issue 18): four readings fixed against the spec, three clarified details,
and the flags that used to be rejected as unsupported (R22, R22d, R25/D8, R29, R3, R34, R38)."""

from __future__ import annotations

import json

import pytest

from matches.games.gouji.engine.cards import cards_per_seat, full_deck
from matches.games.gouji.engine.replay import replay
from matches.games.gouji.engine.ruleset import FLAGS, PRESETS, UNSUPPORTED, RuleSet
from matches.games.gouji.engine.selfplay import selfplay
from matches.games.gouji.engine.settle import Outcome, settle
from matches.games.gouji.engine.settle import tribute_ledger as engine_tribute_ledger
from tests.games.gouji.engine.positions import deal, run
from tests.games.gouji.engine.test_cli_settle import settle_file


def tribute_ledger(outcome, rules):
    """The engine's ledger as the verdict's JSON writes it."""
    return [entry.to_json() for entry in engine_tribute_ledger(outcome, rules)]


def outcome_summary(**fields) -> dict:
    return {"format": "gouji-outcome/1", "rules": "standard", **fields}


def entries(tributes, kind=None) -> list[tuple]:
    return [
        (t["from"], t["to"], t["kind"], t["cards"]) for t in tributes if kind in (None, t["kind"])
    ]


def codes(verdict) -> list[tuple]:
    return [(e["rule"], e["code"]) for e in verdict["errors"]]


# --- 1. R29 / D11: the revolutionary's head rival opens a point automatically ----------------

ISSUE_REVOLUTION = {"format": "gouji-outcome/1", "finish": [1, 3, 4, 2, 5, 6], "revolution": [2]}


def test_r29_d11_settle_counts_the_rivals_automatic_point_unlisted(tmp_path):
    status, verdict = settle_file(tmp_path, json.dumps(ISSUE_REVOLUTION))
    assert status == 0 and verdict["valid"] and verdict["errors"] == []
    points = entries(verdict["tributes"], "point")
    # seat 5 opened its point: revolutionary 2 owes it the point tribute, 5 owes 2 nothing;
    # the other pairs opened nothing and owe each other one card
    assert (2, 5, "point", 1) in points
    assert not any(payer == 5 for payer, *_ in points)
    assert sorted(points) == [
        (1, 4, "point", 1),
        (2, 5, "point", 1),
        (3, 6, "point", 1),
        (4, 1, "point", 1),
        (6, 3, "point", 1),
    ]
    # listing the point changes nothing
    listed = settle({**ISSUE_REVOLUTION, "points": [5]})
    assert listed == verdict


def test_r29_d11_the_automatic_point_fails_the_revolutionarys_clear_declaration():
    verdict = settle({**ISSUE_REVOLUTION, "declarations": {"2": "clear"}})
    assert verdict["valid"]
    assert (2, 5, "point", 5) in entries(verdict["tributes"], "point")  # 1 + f(clear) = 4


def test_r29_d11_a_replay_claim_need_not_list_the_automatic_point():
    # seat 2 revolts (no 2, no joker); its head rival 5 has the point from the start
    hands = ["3", "44", "5", "6", "7", "8"]
    doc = deal(hands, "1:3", revolution=[2], claimed={"points": []})
    verdict = run(hands, "1:3", revolution=[2], claimed={"points": []})
    assert verdict["valid"] and verdict["points"] == [5]
    assert verdict["mismatches"] == [], doc
    wrong = run(hands, "1:3", revolution=[2], claimed={"points": [1]})
    assert [m["field"] for m in wrong["mismatches"]] == ["points"]


# --- 2. R22 one_each: one burn tribute for each time burned ---------------------------------

CHAIN = [
    {"burner": 2, "burned": 1, "outcome": "stopped"},
    {"burner": 1, "burned": 2, "outcome": "stopped"},
    {"burner": 2, "burned": 1, "outcome": "counter"},
]


@pytest.mark.parametrize(
    "counter_burn_tribute, cards",
    [
        ("two", 2),  # EN b: two, however deep the chain
        ("one_each", 2),  # ZH 被烧几次，就进几张烧贡: seat 1 was burned twice
        ("doubling", 4),  # ZH 有的地区: a counter-burn of a counter-burn doubles again
    ],
)
def test_r22_counter_burn_tribute_by_times_burned(counter_burn_tribute, cards):
    verdict = settle(
        outcome_summary(
            rules={"counter_burn_tribute": counter_burn_tribute},
            finish=[2, 3, 1, 4, 5, 6],
            points=[1, 2, 3, 4, 5, 6],
            burns=CHAIN,
        )
    )
    assert verdict["valid"], verdict["errors"]
    assert entries(verdict["tributes"], "burn") == [(1, 2, "burn", cards)]


@pytest.mark.parametrize(
    "burns, cards",
    [
        ([(2, 1, "stopped"), (3, 2, "counter")], 1),  # seat 2 burned once
        ([(2, 1, "stopped"), (1, 2, "stopped"), (2, 1, "counter")], 2),
        ([(2, 1, "stopped"), (1, 2, "stopped"), (3, 1, "counter")], 2),  # by two burners
        ([(2, 1, "stopped"), (1, 2, "stopped"), (2, 1, "stopped"), (1, 2, "counter")], 2),
    ],
)
def test_r22_one_each_counts_every_time_the_seat_was_burned_in_the_chain(burns, cards):
    outcome = Outcome((1, 2, 3, 4, 5, 6), frozenset(range(1, 7)), burns=tuple(burns))
    ledger = tribute_ledger(outcome, RuleSet.from_json({"counter_burn_tribute": "one_each"}))
    burner, burned, _ = burns[-1]
    assert entries(ledger, "burn") == [(burned, burner, "burn", cards)]


def test_r22_a_replays_chain_flags_beat_reading_consecutive_entries():
    # The same three entries, but the replay knows the second burn started afresh (it did not
    # interrupt the first): the chain is the last two, and seat 1 was burned once in it.
    burns = ((2, 1, "stopped"), (1, 2, "stopped"), (2, 1, "counter"))
    rules = RuleSet.from_json({"counter_burn_tribute": "one_each"})
    inferred = Outcome((1, 2, 3, 4, 5, 6), frozenset(range(1, 7)), burns=burns)
    replayed = Outcome(
        (1, 2, 3, 4, 5, 6), frozenset(range(1, 7)), burns=burns, counters=(False, False, True)
    )
    assert entries(tribute_ledger(inferred, rules), "burn") == [(1, 2, "burn", 2)]
    assert entries(tribute_ledger(replayed, rules), "burn") == [(1, 2, "burn", 1)]


# --- 3. R22d / D5: a false burner is out at once --------------------------------------------

FALSE_TWICE = [{"burner": 2, "burned": 6, "outcome": "false"}] * 2


@pytest.mark.parametrize(
    "burns, rules, expected",
    [
        (FALSE_TWICE, "standard", [("D5", "false_burner_out")]),
        (FALSE_TWICE[:1], "standard", []),
        # out at once: no later burn of, or by, the false burner
        (
            FALSE_TWICE[:1] + [{"burner": 3, "burned": 2, "outcome": "stopped"}],
            "standard",
            [("D5", "false_burner_out")],
        ),
        # under false_burn = "tribute" the false burner plays on and may burn again
        (FALSE_TWICE, {"false_burn": "tribute"}, []),
    ],
)
def test_r22d_d5_a_false_burner_burns_no_more(burns, rules, expected):
    verdict = settle(
        outcome_summary(rules=rules, finish=[1, 3, 5, 4, 6, 2], points=[1, 3, 5], burns=burns)
    )
    assert codes(verdict) == expected
    assert verdict["valid"] is (expected == [])


# --- 4. D8: written declines in the R25 burn window; the out-of-turn code -------------------

D8_HANDS = ["KK", "33", "44", "AA5", "66", "77"]


def test_d8_a_decline_in_the_burn_window_is_accepted_whatever_the_cards():
    verdict = run(D8_HANDS, "1:KK 4:AA 2:pass 4:5")
    assert verdict["valid"], verdict["error"]
    # 4's answer AA stands when 4 leads: it opens its point (R25, five seats in play)
    assert verdict["finish"] == [1, 4] and verdict["points"] == [4]


def test_d8_the_window_closes_when_every_seat_that_could_burn_has_declined():
    verdict = run(D8_HANDS, "1:KK 4:AA 2:pass 3:pass 5:pass 6:pass")
    assert verdict["valid"] and verdict["points"] == [4]
    late = run(D8_HANDS, "1:KK 4:AA 2:pass 3:pass 5:pass 6:pass 2:pass")
    assert late["error"] == {
        "action": 6,
        "rule": "R15",
        "code": "not_your_turn",
        "message": "seat 4 leads, not seat 2",
        "params": {"seat": 2, "turn": 4},  # the message's numbers, for its translations
    }


@pytest.mark.parametrize(
    "moves, error",
    [
        # another seat's pass or yield while someone leads is out of turn, naming the leader
        ("2:pass", (0, "R15", "not_your_turn", "seat 1 leads, not seat 2")),
        ("3:yield", (0, "R15", "not_your_turn", "seat 1 leads, not seat 3")),
        # the leader's own pass is must_lead
        ("1:pass", (0, "R15", "must_lead", "seat 1 leads and must play a hand")),
        ("1:KK 4:AA 4:pass", (2, "R15", "must_lead", "seat 4 leads and must play a hand")),
    ],
)
def test_r15_d8_out_of_turn_passes_get_the_out_of_turn_code(moves, error):
    verdict = run(D8_HANDS, moves)
    got = verdict["error"]
    assert (got["action"], got["rule"], got["code"], got["message"]) == error


# --- clarified: D3 yield as the final-chance decision; undecided burns ----------------------


def test_d3_a_yield_as_the_final_chance_decision_is_a_decline_and_the_round_ends():
    hands = ["59", "4", "4", "69", "4", "4"]
    passes = "1:5 2:pass 3:pass 4:pass 5:pass 6:pass"
    # everyone passed on 1's 5, the last pass was 6's: 4 has the final chance (D2) and yields
    ended = run(hands, passes + " 4:yield 1:9")
    assert ended["valid"] and ended["finish"] == [1]
    # the yield ended the round: 1 leads, 4 cannot take the chance after all
    late = run(hands, passes + " 4:yield 4:6")
    assert (late["error"]["action"], late["error"]["code"]) == (7, "not_your_turn")


def test_deal_record_a_burn_undecided_when_the_record_ends_has_outcome_null():
    hands = ["TTTTT3", "JJJJJB", "9", "9", "9", "9"]
    verdict = run(hands, "1:TTTTT 2:JJJJJ")
    assert verdict["valid"] and not verdict["complete"]
    assert verdict["burns"] == [{"burner": 2, "burned": 1, "outcome": None}]
    # a claim may say so too, and then it matches
    claimed = run(
        hands, "1:TTTTT 2:JJJJJ", claimed={"burns": [{"burner": 2, "burned": 1, "outcome": None}]}
    )
    assert claimed["mismatches"] == []


# --- R34 special declaration (特点) ----------------------------------------------------------

SPECIAL = {"special_declaration": True}


@pytest.mark.parametrize(
    "declarations, points, failed, expected",
    [
        # success: the rival owes 4 (and the declarer's own plain tribute is folded in)
        ({"1": "special"}, [2, 3, 5, 6], [], [(4, 1, "point", 4)]),
        ({"1": "special"}, [1, 2, 3, 5, 6], [], [(4, 1, "point", 4)]),
        # failure: the declarer owes 4, or 5 when it opened no point
        ({"1": "special"}, [1, 2, 3, 4, 5, 6], [1], [(1, 4, "point", 4)]),
        ({"1": "special"}, [2, 3, 5, 6], [1], [(1, 4, "point", 5)]),
        # the rival's own clear declaration keeps its R35 amounts beside the special one
        (
            {"1": "special", "4": "clear"},
            [2, 3, 5, 6],
            [],
            [(1, 4, "point", 2), (4, 1, "point", 4)],
        ),
        (
            {"1": "special", "4": "special"},
            [2, 3, 5, 6],
            [1, 4],
            [(1, 4, "point", 5), (4, 1, "point", 5)],
        ),
    ],
)
def test_r34_special_declaration_amounts(declarations, points, failed, expected):
    verdict = settle(
        outcome_summary(
            rules=SPECIAL,
            finish=[1, 2, 3, 4, 5, 6],
            points=points,
            declarations=declarations,
            special_failed=failed,
        )
    )
    assert verdict["valid"], verdict["errors"]
    assert [e for e in entries(verdict["tributes"], "point") if e[0] in (1, 4)] == expected


@pytest.mark.parametrize(
    "rules, fields, expected",
    [
        ("standard", {"declarations": {"1": "special"}}, [("R34", "special_not_allowed")]),
        (SPECIAL, {"declarations": {"1": "special"}}, []),
        (
            SPECIAL,
            {"declarations": {"1": "clear"}, "special_failed": [1]},
            [("R34", "special_failed_undeclared")],
        ),
        (SPECIAL, {"special_failed": [3]}, [("R34", "special_failed_undeclared")]),
    ],
)
def test_r34_special_declaration_checks(rules, fields, expected):
    verdict = settle(
        outcome_summary(rules=rules, finish=[1, 2, 3, 4, 5, 6], points=[1, 2, 3, 4, 5, 6], **fields)
    )
    assert codes(verdict) == expected


SPECIAL_REPLAY = {"preset": "standard", "special_declaration": True, "string_three_waives": "place"}


def test_r34_replay_special_succeeds_when_the_rival_never_led_before_the_declarer_finished():
    verdict = run(
        ["4", "3", "5", "3", "6", "3"],
        "1:4 4:pass 2:pass 3:5 6:pass 5:6",
        rules=SPECIAL_REPLAY,
        declarations={"1": "special"},
    )
    assert verdict["valid"] and verdict["complete"]
    point = entries(verdict["tributes"], "point")
    assert (4, 1, "point", 4) in point and not any(e[:2] == (1, 4) for e in point)


def test_r34_replay_special_fails_when_the_rival_had_the_lead():
    # seat 4 leads the first round, before declarer 1 finishes; 1 opened no point: 5 cards
    verdict = run(
        ["5", "3", "6", "39", "4", "3"],
        "4:3 5:4 2:pass 6:pass 1:5 4:pass 3:6",
        leader=4,
        rules=SPECIAL_REPLAY,
        declarations={"1": "special"},
    )
    assert verdict["valid"] and verdict["complete"] and verdict["special_failed"] == [1]
    point = entries(verdict["tributes"], "point")
    assert (1, 4, "point", 5) in point and not any(e[:2] == (4, 1) for e in point)


def test_r34_d12_the_rival_leading_after_the_declarer_finished_does_not_fail_it():
    # 1 plays out first; its rival 4 answers the last hand (R25) and so leads, but only after
    # the declaration was judged (D12)
    moves = "1:4 4:5 4:9 5:pass 6:pass 2:pass 3:pass 5:7 6:pass 2:pass 3:pass 2:pass 6:3 2:pass 3:6"
    verdict = run(
        ["4", "3", "6", "59", "7", "3"], moves, rules=SPECIAL_REPLAY, declarations={"1": "special"}
    )
    assert verdict["valid"] and verdict["complete"] and verdict["special_failed"] == []
    assert (4, 1, "point", 4) in entries(verdict["tributes"], "point")


def test_r34_replay_special_needs_the_flag():
    verdict = run(["4", "3", "5", "3", "6", "3"], "", declarations={"1": "special"})
    assert (verdict["error"]["action"], verdict["error"]["code"]) == (None, "special_not_allowed")


# --- R38 place_tribute = "pool" --------------------------------------------------------------

POOL = {"place_tribute": "pool"}


@pytest.mark.parametrize(
    "finish, flags, expected",
    [
        # 6th and 5th put their cards into the pool; 1st picks two, then 2nd picks one
        (
            [1, 2, 3, 4, 5, 6],
            {},
            [
                {"from": 6, "to": None, "kind": "place", "cards": 2, "pool": "put"},
                {"from": 5, "to": None, "kind": "place", "cards": 1, "pool": "put"},
                {"from": None, "to": 1, "kind": "place", "cards": 2, "pool": "pick", "pick": 1},
                {"from": None, "to": 2, "kind": "place", "cards": 1, "pool": "pick", "pick": 2},
            ],
        ),
        # R41: the 6th→1st pair are mates (1 and 5): waived, so the pool holds 3's one card
        (
            [1, 2, 4, 6, 3, 5],
            {},
            [
                {"from": 3, "to": None, "kind": "place", "cards": 1, "pool": "put"},
                {"from": None, "to": 2, "kind": "place", "cards": 1, "pool": "pick", "pick": 1},
            ],
        ),
        (
            [1, 2, 4, 6, 3, 5],
            {"same_union_tribute": True},
            [
                {"from": 5, "to": None, "kind": "place", "cards": 2, "pool": "put"},
                {"from": 3, "to": None, "kind": "place", "cards": 1, "pool": "put"},
                {"from": None, "to": 1, "kind": "place", "cards": 2, "pool": "pick", "pick": 1},
                {"from": None, "to": 2, "kind": "place", "cards": 1, "pool": "pick", "pick": 2},
            ],
        ),
    ],
)
def test_r38_pooled_place_tributes_show_the_pool_and_the_picking_order(finish, flags, expected):
    verdict = settle(
        outcome_summary(rules={**POOL, **flags}, finish=finish, points=[1, 2, 3, 4, 5, 6])
    )
    assert verdict["valid"]
    assert [t for t in verdict["tributes"] if t["kind"] == "place"] == expected


def test_r38_r39_stringing_three_is_not_pooled():
    verdict = settle(
        outcome_summary(rules=POOL, finish=[1, 3, 5, 2, 4, 6], points=[1, 2, 3, 4, 5, 6])
    )
    assert entries(verdict["tributes"]) == [
        (6, 3, "string_three", 1),
        (4, 1, "string_three", 1),
        (2, 5, "string_three", 1),
    ]


# --- R29 revolution_contest --------------------------------------------------------------------

CONTEST = {"preset": "standard", "revolution_contest": True}


def test_r29_contest_settle_takes_the_points_as_reported():
    # no automatic point: the rival 5 opened none, so it owes the revolutionary 2 one card
    verdict = settle({**ISSUE_REVOLUTION, "rules": CONTEST, "points": [2]})
    assert verdict["valid"]
    point = entries(verdict["tributes"], "point")
    assert (5, 2, "point", 1) in point and not any(e[:2] == (2, 5) for e in point)


def test_r29_contest_replay_takes_the_contest_points_from_the_claim():
    hands = ["3", "TTTTT", "5", "6", "7", "8"]
    verdict = run(hands, "1:3", rules=CONTEST, revolution=[2], claimed={"points": [2]})
    assert verdict["valid"] and verdict["error"] is None
    assert verdict["points"] == [2] and verdict["mismatches"] == []
    assert any("revolution_contest" in note for note in verdict["notes"])
    # no claim: no contest point, and no automatic point for the rival either
    assert run(hands, "1:3", rules=CONTEST, revolution=[2])["points"] == []


# --- R3 short deck with six packs ---------------------------------------------------------------


def test_r3_short_deck_with_six_packs_deals_evenly_and_replays():
    rules = RuleSet.from_json({"preset": "six-decks", "short_deck": True})
    deck = full_deck(rules)
    assert (deck[0], deck[1], sum(deck), cards_per_seat(rules)) == (6, 6, 288, 48)
    for doc in selfplay(2, 4, {"preset": "six-decks", "short_deck": True}):
        assert [len(cards) for cards in doc["hands"].values()] == [48] * 6
        verdict = replay(doc)
        assert verdict["valid"] and verdict["complete"] and verdict["mismatches"] == []


# --- D14: no flag of the spec is unsupported any more --------------------------------------------


def test_d14_every_flag_value_of_the_spec_is_accepted():
    assert UNSUPPORTED == {}
    for value in (
        {"place_tribute": "pool"},
        {"special_declaration": True},
        {"revolution_contest": True},
        {"decks": 6, "short_deck": True},
    ):
        rules = RuleSet.from_json(value)
        assert rules.to_json() == {"preset": "standard", **value}
    assert set(FLAGS) >= {"place_tribute", "special_declaration", "revolution_contest"}
    assert set(PRESETS) == {"standard", "qingdao-hold3", "six-decks", "eight-players"}
