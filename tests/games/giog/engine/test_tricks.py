"""G8-G12 on small positions (every hand the same size, fewer pieces than a deal)."""

from __future__ import annotations

import pytest

from .helpers import run

SEAT = {"tie_order": "seat"}
PLAY = {"tie_order": "play"}
MUST = {"must_compete": True}


def trick_winners(verdict: dict) -> list[int]:
    return [t["winner"] for t in verdict["tricks"]]


def error_of(verdict: dict) -> tuple | None:
    e = verdict["error"]
    return None if e is None else (e["action"], e["rule"], e["code"])


# -- G8: who plays, and how many --------------------------------------------------------------


def test_g8_followers_play_round_the_table_from_the_leader():
    v = run(["p", "A", "c", "n"], "2A 3c 4n 1p", leader=2)
    assert v["valid"] and v["complete"]
    assert v["tricks"] == [{"leader": 2, "winner": 2, "pieces": 4}]
    assert v["won"] == {"1": 0, "2": 4, "3": 0, "4": 0}


@pytest.mark.parametrize(
    "hands, actions, leader, expected",
    [
        # after seat 2 of 4 comes 3, not 4
        (["p", "A", "c", "n"], "2A 4n", 2, (1, "G8", "out_of_turn")),
        # the first trick is led by the leader of the record
        (["p", "A", "c", "n"], "1p", 2, (0, "G10", "out_of_turn")),
        # a follower plays exactly as many pieces as the lead
        (["RN", "pp", "cc", "nn"], "1R 2pp", 1, (1, "G8", "size_mismatch")),
        (["RN", "pp", "cc", "nn"], "1R 2", 1, (1, "G8", "size_mismatch")),
        # a lead must be a combination (G5-G7)
        (["RN", "pp", "cc", "nn"], "1RN", 1, (0, "G8", "not_a_combination")),
        (["Rr", "pp", "cc", "nn"], "1Rr", 1, (0, "G8", "not_a_combination")),
        (["RN", "pp", "cc", "nn"], "1", 1, (0, "G8", "empty_play")),
        # only pieces in hand can be played
        (["RN", "pp", "cc", "nn"], "1R 2P", 1, (1, "G4", "not_in_hand")),
        (["RN", "pp", "cc", "nn"], "1RR", 1, (0, "G4", "not_in_hand")),
    ],
)
def test_g8_illegal_plays_stop_the_replay(hands, actions, leader, expected):
    v = run(hands, actions, leader=leader)
    assert not v["valid"] and not v["complete"]
    assert error_of(v) == expected
    assert v["error"]["message"]


@pytest.mark.parametrize(
    "hands, actions, winner, why",
    [
        (
            ["RNC", "ppp", "rnC", "cba"],
            "1RNC 2ppp 3rnC 4cba",
            4,
            "a Sam Mui and a mixed triple are discards on a Giog; a higher Giog wins",
        ),
        (
            ["RNC", "ppp", "rnC", "PPP"],
            "1RNC 2ppp 3rnC 4PPP",
            1,
            "no follower competes, so the lead wins",
        ),
        (
            ["PP", "AB", "aa", "pp"],
            "1PP 2AB 3aa 4pp",
            3,
            "AB is a discard on a Dui; aa is a higher Dui; pp a lower one",
        ),
        (["C", "p", "P", "B"], "1C 2p 3P 4B", 4, "a Liab of a higher type wins"),
        (["C", "n", "P", "p"], "1C 2n 3P 4p", 2, "a black Horse beats a red Cannon (type first)"),
        (["ppp", "PPP"], "1ppp 2PPP", 2, "Sam Mui compares by colour"),
        (["pppp", "PPPP"], "1pppp 2PPPP", 2, "Si Mui compares by colour"),
        (["PPPPP", "ppppp"], "1PPPPP 2ppppp", 1, "Wu Mui compares by colour"),
        (["ppp", "RNC", "PPA"], "1ppp 2RNC 3PPA", 1, "a Giog does not compete with a Mui"),
    ],
)
def test_g8_g9_who_competes_and_who_wins(hands, actions, winner, why):
    v = run(hands, actions)
    assert v["valid"] and v["complete"], v["error"]
    assert trick_winners(v) == [winner], why


def test_g8_nobody_is_forced_to_compete_by_default():
    # Seat 2 could beat the Horse with its Chariot but discards the Cannon.
    v = run(["Np", "Rc", "Cc", "Pa"], "1N 2c 3C 4P")
    assert v["valid"]
    assert trick_winners(v) == [1]


# -- G8 variant must_compete ------------------------------------------------------------------


@pytest.mark.parametrize(
    "hands, actions, leader, rules, expected",
    [
        # holds a Chariot that beats the lead: discarding is illegal
        (["Np", "Rc", "Cc", "Pa"], "1N 2c", 1, MUST, (1, "G8", "must_compete")),
        # ... and a competing but losing Liab is not enough either
        (["Np", "RC", "cc", "Pa"], "1N 2C", 1, MUST, (1, "G8", "must_compete")),
        # the winning play is fine
        (["Np", "Rc", "Cc", "Pa"], "1N 2R", 1, MUST, None),
        # nothing that beats the Chariot already played: free to discard
        (["Np", "Rc", "Cc", "Pa"], "1N 2R 3c 4a", 1, MUST, None),
        # a tie with the trick-starter never beats it (G9)
        (["Ap", "Ac", "pp", "Pn"], "1A 2c", 1, MUST, None),
        # tie between followers, tie_order seat: seat 1 would take it from seat 4, so must play
        (["Rp", "cc", "nP", "RP"], "3n 4R 1p", 3, {**MUST, **SEAT}, (2, "G8", "must_compete")),
        # ... with tie_order play, seat 4 keeps it, so seat 1 may discard
        (["Rp", "cc", "nP", "RP"], "3n 4R 1p", 3, {**MUST, **PLAY}, None),
        # other kinds: a Dui
        (["ppa", "PPc", "ncp", "NAB"], "1pp 2Pc", 1, MUST, (1, "G8", "must_compete")),
        # and a Giog
        (["rncp", "CBAP", "pppP", "KNRP"], "1rnc 2CBP", 1, MUST, (1, "G8", "must_compete")),
        (["rncp", "CBAP", "pppP", "KNRP"], "1rnc 2CBA 3ppp 4KNR", 1, MUST, None),
    ],
)
def test_g8_must_compete(hands, actions, leader, rules, expected):
    v = run(hands, actions, leader=leader, rules=rules)
    assert error_of(v) == expected
    # The same plays are always legal without the variant.
    assert run(hands, actions, leader=leader, rules={**rules, "must_compete": False})["valid"]


# -- G9 ties ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "hands, actions, leader, by_seat, by_play",
    [
        # a follower ties the trick-starter: the starter wins either way
        (["c", "A", "A", "p"], "2A 3A 4p 1c", 2, 2, 2),
        # two followers tie on a Liab; seat 1 plays after seat 4
        (["R", "p", "n", "R"], "3n 4R 1R 2p", 3, 1, 4),
        # on a Dui
        (["PP", "pp", "PP", "PA"], "2pp 3PP 4PA 1PP", 2, 1, 3),
        # on a Giog
        (["RNC", "ppp", "rnc", "RNC"], "3rnc 4RNC 1RNC 2ppp", 3, 1, 4),
        # the article's example: the first and fourth player tie, the second started
        (["A", "c", "p", "A"], "2c 3p 4A 1A", 2, 1, 4),
        # ... unless the fourth player is the trick-starter
        (["A", "c", "p", "A"], "4A 1A 2c 3p", 4, 4, 4),
        # a strictly stronger later play beats an earlier one whatever the tie order
        (["R", "p", "n", "A"], "3n 4A 1R 2p", 3, 4, 4),
    ],
)
def test_g9_ties(hands, actions, leader, by_seat, by_play):
    assert trick_winners(run(hands, actions, leader=leader)) == [by_seat]  # default is "seat"
    assert trick_winners(run(hands, actions, leader=leader, rules=SEAT)) == [by_seat]
    assert trick_winners(run(hands, actions, leader=leader, rules=PLAY)) == [by_play]


# -- G10: the winner collects and leads -------------------------------------------------------

HANDS_3 = ["Rp", "Nc", "Bn"]


def test_g10_the_winner_collects_and_leads_the_next_trick():
    v = run(HANDS_3, "1R 2N 3B 3n 1p 2c")
    assert v["valid"] and v["complete"]
    assert v["tricks"] == [
        {"leader": 1, "winner": 3, "pieces": 3},
        {"leader": 3, "winner": 3, "pieces": 3},
    ]
    assert v["won"] == {"1": 0, "2": 0, "3": 6}
    assert v["places"] == [[3], [1, 2]]


@pytest.mark.parametrize(
    "actions, expected",
    [
        ("1R 2N 3B 1p", (3, "G10", "out_of_turn")),
        ("1R 2N 3B 3n 1p 2c 1R", (6, "G10", "hand_over")),
    ],
)
def test_g10_illegal_after_a_trick(actions, expected):
    v = run(HANDS_3, actions)
    assert error_of(v) == expected
    assert not v["complete"] and v["places"] == []


def test_g10_an_unfinished_hand_is_valid_but_not_complete():
    v = run(HANDS_3, "1R 2N 3B 3n")
    assert v["valid"] and not v["complete"]
    assert v["tricks"] == [{"leader": 1, "winner": 3, "pieces": 3}]
    assert v["won"] == {"1": 0, "2": 0, "3": 3}
    assert v["places"] == []


# -- G11: places ------------------------------------------------------------------------------


def test_g11_equal_counts_share_a_place():
    v = run(["Rp", "Ac", "Nn", "Pc"], "1R 2A 3N 4P 2c 3n 4c 1p")
    assert trick_winners(v) == [2, 3]
    assert v["won"] == {"1": 0, "2": 4, "3": 4, "4": 0}
    assert v["places"] == [[2, 3], [1, 4]]
    assert v["beheaded"] == []


# -- G12: beheading the cock ------------------------------------------------------------------


@pytest.mark.parametrize(
    "hands, actions, beheaded, places, why",
    [
        (
            ["Rp", "Kc", "Nn", "Pc"],
            "1R 2K 3N 4P 2c 3n 4c 1p",
            [2],
            [[3], [1, 4], [2]],
            "a General wins the first trick: that player ties for most pieces but is last",
        ),
        (
            ["PPr", "Kcn", "Nnc", "ABp"],
            "1PP 2Kc 3Nn 4AB 1r 2n 3c 4p",
            [2],
            [[1], [3, 4], [2]],
            "a General discarded in the first trick",
        ),
        (
            ["Rp", "kc"],
            "1R 2c 1p 2k",
            [2],
            [[1], [2]],
            "a General played in the last trick takes it, but its player loses",
        ),
        (
            ["RPP", "cKa"],
            "1R 2c 1PP 2Ka",
            [2],
            [[1], [2]],
            "a General discarded in a last trick of two pieces",
        ),
        (
            ["Rpn", "Kcc"],
            "1R 2c 1p 2K 2c 1n",
            [],
            [[1], [2]],
            "a General in a middle trick is safe",
        ),
        (
            ["Kp", "kP"],
            "1K 2k 1p 2P",
            [1, 2],
            [[1, 2]],
            "both Generals in the first trick: both beheaded, sharing the last place",
        ),
        (
            ["Kp", "Pk"],
            "1K 2P 1p 2k",
            [1, 2],
            [[1, 2]],
            "one General in the first trick and one in the last",
        ),
        (
            ["K", "p", "c", "n"],
            "1K 2p 3c 4n",
            [1],
            [[2, 3, 4], [1]],
            "a one-trick position: the first trick is also the last",
        ),
    ],
)
def test_g12_beheading_the_cock(hands, actions, beheaded, places, why):
    v = run(hands, actions)
    assert v["valid"] and v["complete"], why
    assert v["beheaded"] == beheaded, why
    assert v["places"] == places, why


def test_g12_beheading_shows_before_the_hand_is_over():
    v = run(["Rp", "Kc", "Nn", "Pc"], "1R 2K 3N 4P 2c")
    assert v["valid"] and not v["complete"]
    assert v["beheaded"] == [2]
    assert v["places"] == []


def test_g12_a_beheading_is_legal_even_under_must_compete():
    # Seat 2 must beat the Chariot, and only the General can: forced into beheading.
    v = run(["Rp", "Kc", "Nn", "Pc"], "1R 2K 3N 4P 2c 3n 4c 1p", rules=MUST)
    assert v["valid"] and v["beheaded"] == [2]
