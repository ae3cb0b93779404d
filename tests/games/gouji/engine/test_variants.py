"""The variants of gouji-rules.md §10–14 (R44–R56, D16–D41), table-driven from the spec:
eight players, joker groups, point tributes that cancel, two revolutions."""

from __future__ import annotations

import pytest

from matches.games.gouji.engine.cards import parse_cards
from matches.games.gouji.engine.hands import beats, classify
from matches.games.gouji.engine.replay import replay
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.settle import settle
from matches.kernel.engine_errors import BadDocument
from tests.games.gouji.engine.positions import deal

GROUPS = RuleSet.from_json({"preset": "standard", "joker_groups": True})
SIX_DECKS = RuleSet.from_json("six-decks")
EIGHT = "eight-players"


def hand(text: str):
    return classify(parse_cards(text))


# --- R52 joker groups (多王压单王), D29, D30 ------------------------------------------------

#: R52's table, lowest weight first; groups on one line do not beat each other
WEIGHTS = [
    ["B"],
    ["R", "BB"],
    ["BR", "BBB"],
    ["RR", "BBR", "BBBB"],
    ["BRR", "BBBR", "BBBBB"],
    ["RRR", "BBRR", "BBBBR", "BBBBBB"],
]


@pytest.mark.parametrize("rules", [GROUPS, SIX_DECKS], ids=["joker_groups", "six-decks"])
def test_r52_groups_beat_by_weight_whatever_their_sizes(rules):
    for w, row in enumerate(WEIGHTS):
        for top in row:
            for v, other_row in enumerate(WEIGHTS):
                for new in other_row:
                    assert beats(hand(new), hand(top), rules) is (v > w), (new, top)


@pytest.mark.parametrize(
    "new, top, with_groups, without",
    [
        ("RR", "R", True, False),  # ZH 双大王＞大王: sizes differ
        ("BBB", "R", True, False),  # ZH 三小王＞大王
        ("BB", "R", False, False),  # D29: equal weight does not beat
        ("BR", "BB", True, False),  # D30: R11 would refuse it
        ("RRRR", "RR", True, False),
        ("RR", "9", False, False),  # D30: a group on a non-group keeps R9
        ("R", "9", True, True),  # R10 unchanged
        ("9R", "9B", False, False),  # not jokers only: R11 as before (rank not higher)
        ("TR", "9B", True, True),
    ],
)
def test_d30_consequences(new, top, with_groups, without):
    assert beats(hand(new), hand(top), GROUPS) is with_groups
    assert beats(hand(new), hand(top), RuleSet.from_json("standard")) is without


SINGLES = ["39", "49", "59", "69", "79", "89"]


def test_r52_the_head_rival_answers_a_group_with_a_group_of_another_size():
    hands = ["R3", "4", "5", "BBB6", "7", "8"]
    verdict = replay(deal(hands, "1:R 4:BBB 1:pass", rules="six-decks"))
    assert verdict["valid"], verdict["error"]
    # the same answer under the standard rules breaks R9
    verdict = replay(deal(hands, "1:R 4:BBB", rules="standard"))
    assert verdict["error"]["rule"] == "R9" and verdict["error"]["code"] == "size_mismatch"


def test_r52_a_lighter_group_does_not_beat_with_its_rule_id():
    verdict = replay(deal(["R3", "4", "5", "BB6", "7", "8"], "1:R 4:BB", rules="six-decks"))
    error = verdict["error"]
    assert (error["action"], error["rule"], error["code"]) == (1, "R52", "does_not_beat")


def test_r54_six_decks_twos_open_no_point_but_jj_j2_does():
    rules = SIX_DECKS
    from matches.games.gouji.engine.hands import opens_point

    assert not opens_point(hand("22"), rules)
    assert opens_point(hand("JJJ2"), rules) and opens_point(hand("QQ2"), rules)
    assert not opens_point(hand("BB"), rules)  # a group never opens a point under "zh"


# --- eight players: records (deal-record.md) ------------------------------------------------

EIGHT_SINGLES = ["3", "4", "5", "6", "7", "8", "9", "T"]


@pytest.mark.parametrize(
    "rules, hands, words",
    [
        ("standard", EIGHT_SINGLES[:7], 'seat keys are the strings "1"…"6"'),
        (EIGHT, EIGHT_SINGLES[:7], "no cards given for seat 8"),
        (EIGHT, EIGHT_SINGLES[:6], "no cards given for seat 7"),
    ],
)
def test_seats_that_do_not_match_players_are_a_bad_document(rules, hands, words):
    with pytest.raises(BadDocument) as caught:
        from matches.games.gouji.engine.record import read_record

        read_record(deal(hands, "", rules=rules))
    assert words in caught.value.message
    assert replay_is_bad(deal(hands, "", rules=rules))


def replay_is_bad(doc) -> bool:
    try:
        replay(doc)
    except BadDocument:
        return True
    return False


def test_a_seat_7_action_under_six_players_is_a_bad_document():
    assert replay_is_bad(deal(SINGLES, "7:9"))
    assert replay(deal(EIGHT_SINGLES, "1:3", rules=EIGHT))["valid"]


def test_r46_a_full_eight_seat_deal_gives_27_cards_a_seat():
    from matches.games.gouji.engine.cards import cards_per_seat

    assert cards_per_seat(RuleSet.from_json(EIGHT)) == 27
    import random

    from matches.games.gouji.engine.selfplay import deal_hands

    hands = deal_hands(RuleSet.from_json(EIGHT), random.Random(4))
    assert [sum(hands[seat]) for seat in range(1, 9)] == [27] * 8


def test_r45_only_the_seat_opposite_answers_a_gouji_hand_at_eight_seats():
    hands = ["KK3", "AA9", "AA", "AA", "AA4", "AA", "AA", "AA"]
    # seat 2 is not seat 1's head rival (5 is): 2's answer is a burn, not the rival's answer
    verdict = replay(deal(hands, "1:KK 5:AA 1:pass", rules=EIGHT))
    assert verdict["valid"], verdict["error"]
    assert verdict["points"] == [5]  # 5's AA went unbeaten by its head rival 1 (R20)
    verdict = replay(deal(hands, "1:KK 2:AA", rules=EIGHT))
    assert verdict["valid"] and verdict["burns"] == [{"burner": 2, "burned": 1, "outcome": None}]


# --- eight players: settling a summary (R47, R49, R50, D11, D22–D25) ----------------------


def summary(rules=EIGHT, **fields):
    doc = {"format": "gouji-outcome/1", "rules": rules, "points": list(range(1, 9))}
    doc.update(fields)
    return doc


@pytest.mark.parametrize(
    "finish, scores",
    [
        ([1, 5, 2, 6, 3, 7, 4, 8], {"A": 4, "B": -4}),  # A: 3+1+0-2 = 2; B: 2+0-1-3 = -2
        ([1, 2, 3, 4, 5, 6, 7, 8], {"A": 24, "B": -24}),  # 串四户 (R47, D23)
        ([5, 6, 7, 8, 1, 2, 3, 4], {"B": 24, "A": -24}),
        ([1, 2, 3, 5, 4, 6, 7, 8], {"A": 12, "B": -12}),  # 1st–3rd: no string at eight (D22)
    ],
)
def test_r47_union_scores_at_eight_seats(finish, scores):
    verdict = settle(summary(finish=finish))
    assert verdict["valid"], verdict["errors"]
    assert verdict["union_scores"] == scores


def test_r47_first_last_draw_and_own_scores_at_eight_seats():
    draw = summary(rules={"preset": EIGHT, "first_last_same_union_draw": True})
    assert settle({**draw, "finish": [1, 5, 6, 7, 2, 3, 8, 4]})["union_scores"] == {"A": 0, "B": 0}
    own = summary(rules={"preset": EIGHT, "union_score": "own"})
    assert settle({**own, "finish": [1, 2, 3, 4, 5, 6, 7, 8]})["union_scores"] == {
        "A": 6,
        "B": -6,
    }


@pytest.mark.parametrize(
    "finish, tributes",
    [
        # R49/D24: 8th → 1st two, 7th → 2nd one, 6th → 3rd one
        ([1, 5, 2, 6, 3, 7, 4, 8], [(8, 1, "place", 2), (4, 5, "place", 1), (7, 2, "place", 1)]),
        # R41: waived between union mates (7th and 2nd are both A)
        ([1, 2, 5, 6, 7, 3, 4, 8], [(8, 1, "place", 2), (3, 5, "place", 1)]),
        # R49: a string of four: each loser owes its head rival one card, lowest place first
        (
            [1, 2, 3, 4, 5, 6, 7, 8],
            [(8, 4, "string_three", 1), (7, 3, "string_three", 1), (6, 2, "string_three", 1)]
            + [(5, 1, "string_three", 1)],
        ),
    ],
)
def test_r49_tributes_at_eight_seats(finish, tributes):
    verdict = settle(summary(finish=finish))
    assert [(t["from"], t["to"], t["kind"], t["cards"]) for t in verdict["tributes"]] == tributes


def test_r49_pooled_place_tributes_at_eight_seats():
    verdict = settle(
        summary(rules={"preset": EIGHT, "place_tribute": "pool"}, finish=[1, 5, 2, 6, 3, 7, 4, 8])
    )
    picks = [(t["to"], t["cards"], t["pick"]) for t in verdict["tributes"] if t.get("pick")]
    assert picks == [(1, 2, 1), (5, 1, 2), (2, 1, 3)]


@pytest.mark.parametrize(
    "fields, expected",
    [
        # R50/D25: one revolutionary is 5th …
        ({"revolution": [4], "finish": [5, 1, 6, 2, 4, 3, 7, 8]}, []),
        ({"revolution": [4], "finish": [5, 1, 6, 4, 2, 3, 7, 8]}, [("R29", "revolution_place")]),
        # … or 4th when its three mates take 1st–3rd (completing a string of four)
        ({"revolution": [4], "finish": [1, 2, 3, 4, 5, 6, 7, 8]}, []),
        ({"revolution": [4], "finish": [1, 2, 3, 5, 4, 6, 7, 8]}, [("R29", "revolution_place")]),
        # D11/R48: a burner is among the first (n − r) − m places: 1st–4th at eight seats …
        (
            {
                "burns": [{"burner": 2, "burned": 5, "outcome": "success"}],
                "finish": [1, 3, 4, 2, 5, 6, 7, 8],
            },
            [],
        ),
        (
            {
                "burns": [{"burner": 2, "burned": 5, "outcome": "success"}],
                "finish": [1, 3, 4, 6, 2, 5, 7, 8],
            },
            [("D11", "burner_not_top_two")],
        ),
        # … 1st–3rd with one revolution
        (
            {
                "revolution": [8],
                "burns": [{"burner": 2, "burned": 5, "outcome": "success"}],
                "finish": [1, 3, 2, 6, 8, 5, 7, 4],
            },
            [],
        ),
        (
            {
                "revolution": [8],
                "burns": [{"burner": 2, "burned": 5, "outcome": "success"}],
                "finish": [1, 3, 6, 2, 8, 5, 7, 4],
            },
            [("D11", "burner_not_top_two")],
        ),
        # a finish must order all eight seats
        ({"finish": [1, 2, 3, 4, 5, 6]}, [("R30", "finish_not_permutation")]),
    ],
)
def test_eight_seat_consistency(fields, expected):
    fields.setdefault("points", [s for s in range(1, 9) if s not in fields.get("revolution", [])])
    verdict = settle(summary(**fields))
    assert [(e["rule"], e["code"]) for e in verdict.get("errors", [])] == expected


# --- R55 point tributes that cancel, D34, D35 -------------------------------------------------

CANCEL = {"preset": "standard", "point_tributes_cancel": True}


def point_entries(verdict):
    return [(t["from"], t["to"], t["cards"]) for t in verdict["tributes"] if t["kind"] == "point"]


@pytest.mark.parametrize(
    "points, declarations, plain, cancelled",
    [
        # nobody opened, nobody declared: 1 each way, so nobody owes (ZH 都不用进点贡)
        ([], {}, [(1, 4, 1), (2, 5, 1), (3, 6, 1), (4, 1, 1), (5, 2, 1), (6, 3, 1)], []),
        # seat 1 declared clear and seat 4 opened no point: 4 owes 2, 1 owes 1: 4 owes 1 (D34)
        ([2, 3, 5, 6], {"1": "clear"}, [(1, 4, 1), (4, 1, 2)], [(4, 1, 1)]),
        # only seat 1 opened: 4 owes 1, nothing to offset
        ([1, 2, 3, 5, 6], {}, [(4, 1, 1)], [(4, 1, 1)]),
    ],
)
def test_r55_point_debts_of_a_pair_offset(points, declarations, plain, cancelled):
    fields = {"finish": [1, 2, 3, 4, 5, 6], "points": points, "declarations": declarations}
    assert point_entries(settle(summary(rules="standard", **fields))) == plain
    verdict = settle(summary(rules=CANCEL, **fields))
    assert point_entries(verdict) == cancelled
    # D35: place tributes never offset
    assert [t for t in verdict["tributes"] if t["kind"] == "place"] == [
        {"from": 6, "to": 1, "kind": "place", "cards": 2},
        {"from": 5, "to": 2, "kind": "place", "cards": 1},
    ]


# --- R56 two revolutions, D36–D41 -------------------------------------------------------------

TWO = {"preset": "standard", "two_revolutions": True}


@pytest.mark.parametrize(
    "rules, fields, expected",
    [
        # without the flag two revolutions void the deal (R29), with it three do (R56)
        ("standard", {"revolution": [1, 2], "finish": [3, 5, 1, 2, 4, 6]}, [("R29", "deal_void")]),
        (TWO, {"revolution": [1, 2, 3], "finish": [4, 5, 1, 2, 3, 6]}, [("R56", "deal_void")]),
        # D39: places 3rd and 4th, the lower seat 3rd …
        (TWO, {"revolution": [1, 2], "finish": [4, 3, 1, 2, 5, 6]}, []),
        (
            TWO,
            {"revolution": [1, 2], "finish": [4, 3, 2, 1, 5, 6]},
            [("R56", "revolution_place")] * 2,
        ),
        # … unless the other's union strings: 4 and 6 (B) 1st and 2nd put seat 2 3rd
        (TWO, {"revolution": [1, 2], "finish": [4, 6, 2, 1, 3, 5]}, []),
        (
            TWO,
            {"revolution": [1, 2], "finish": [4, 6, 1, 2, 3, 5]},
            [("R56", "revolution_place")] * 2,
        ),
        # D37/R48: with two revolutions at six seats a burner can only be 1st (m = 3)
        (
            TWO,
            {
                "revolution": [1, 2],
                "finish": [3, 4, 1, 2, 5, 6],
                "burns": [{"burner": 3, "burned": 5, "outcome": "success"}],
            },
            [],
        ),
        (
            TWO,
            {
                "revolution": [1, 2],
                "finish": [4, 3, 1, 2, 5, 6],
                "burns": [{"burner": 3, "burned": 5, "outcome": "success"}],
            },
            [("D11", "burner_not_top_two")],
        ),
        # eight seats: places 4th and 5th (R56)
        (
            {"preset": EIGHT, "two_revolutions": True},
            {"revolution": [1, 6], "finish": [2, 5, 3, 1, 6, 4, 7, 8]},
            [],
        ),
        (
            {"preset": EIGHT, "two_revolutions": True},
            {"revolution": [1, 6], "finish": [2, 3, 4, 1, 6, 5, 7, 8]},
            [],
        ),
        (
            {"preset": EIGHT, "two_revolutions": True},
            {"revolution": [1, 6], "finish": [2, 3, 4, 6, 1, 5, 7, 8]},
            [("R56", "revolution_place"), ("R56", "revolution_place")],
        ),
    ],
)
def test_r56_two_revolutions(rules, fields, expected):
    fields.setdefault("points", [])
    verdict = settle(summary(rules=rules, **fields))
    assert [(e["rule"], e["code"]) for e in verdict.get("errors", [])] == expected


def test_d40_rebels_who_are_head_rivals_get_no_point_and_owe_the_plain_tribute():
    fields = {"revolution": [1, 4], "finish": [3, 2, 1, 4, 5, 6], "points": [2, 3, 5, 6]}
    verdict = settle(summary(rules=TWO, **fields))
    assert verdict["valid"], verdict["errors"]
    assert point_entries(verdict) == [(1, 4, 1), (4, 1, 1)]
    both = {**TWO, "point_tributes_cancel": True}
    assert point_entries(settle(summary(rules=both, **fields))) == []


def test_r56_each_rebels_head_rival_opens_a_point_automatically():
    fields = {"revolution": [1, 2], "finish": [4, 3, 1, 2, 5, 6], "points": []}
    verdict = settle(summary(rules=TWO, **fields))
    # seats 4 and 5 (the rivals) opened points: they owe no plain point tribute; 1 and 2 do
    assert point_entries(verdict) == [(1, 4, 1), (2, 5, 1), (3, 6, 1), (6, 3, 1)]


def test_r56_replay_two_revolutionaries_take_places_3_and_4():
    # seats 1 and 2 revolt; 3, 4, 5, 6 play single cards: 3 leads its last card
    hands = ["33", "44", "9", "T", "J", "Q"]
    doc = deal(hands, "3:9 6:Q", rules=TWO, revolution=[1, 2], leader=3)
    verdict = replay(doc)
    assert verdict["valid"], verdict["error"]
    assert verdict["points"] == [4, 5]
    doc = deal(hands, "", rules="standard", revolution=[1, 2], leader=3)
    error = replay(doc)["error"]
    assert (error["action"], error["rule"], error["code"]) == (None, "R29", "deal_void")
