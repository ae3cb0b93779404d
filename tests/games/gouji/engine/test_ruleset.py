"""Rule sets: presets, flags, JSON round trip (spec §8–9, D14)."""

from __future__ import annotations

import dataclasses

import pytest

from matches.games.gouji.engine.ruleset import FLAGS, PRESETS, RuleSet
from matches.games.gouji.engine.seating import head_rival
from matches.kernel.engine_errors import BadDocument


def test_d14_defaults_of_the_standard_preset():
    rules = RuleSet.from_json("standard")
    assert rules.point_sets == "zh"
    assert rules.counter_burn_tribute == "two"
    assert rules.union_score == "difference"
    assert rules.string_three_waives == "all"
    assert rules.place_tribute == "ranked"
    assert rules.false_burn == "place"
    assert rules.no_three == "buy"
    assert rules.next_leader == "last"
    assert rules.tribute_order == ("suffocation", "burn", "point", "place")
    assert rules.decks == 4
    assert rules.place_points == (2, 1, 0, 0, -1, -2)
    assert rules.string_three_score == 12
    assert not rules.hold_three and rules.last_hand_answer and rules.tributes
    assert RuleSet.from_json(None) == rules == RuleSet.from_json({})


def test_presets():
    hold3 = RuleSet.from_json("qingdao-hold3")
    assert (hold3.hold_three, hold3.last_hand_answer, hold3.no_three) == (True, False, "buy")
    six = RuleSet.from_json("six-decks")
    assert (six.decks, six.more_big_jokers_beat, six.twos_open_point) == (6, True, False)
    assert six.joker_groups  # R52, D33
    assert set(PRESETS) == {"standard", "qingdao-hold3", "six-decks", "eight-players"}


def test_flag_overrides_apply_on_top_of_the_preset():
    rules = RuleSet.from_json({"preset": "six-decks", "twos_open_point": True, "tributes": False})
    assert rules.decks == 6 and rules.twos_open_point and not rules.tributes


def test_the_rule_set_is_immutable_and_hashable():
    rules = RuleSet.from_json("standard")
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.decks = 6
    assert hash(rules) == hash(RuleSet.from_json("standard"))


@pytest.mark.parametrize(
    "value",
    [
        "standard",
        "six-decks",
        "qingdao-hold3",
        {"preset": "standard", "point_sets": "en", "place_points": [3, 2, 0, 0, -2, -3]},
        {
            "preset": "six-decks",
            "decks": 4,
            "tribute_order": ["point", "burn", "suffocation", "place"],
        },
        {
            "preset": "standard",
            "counter_burn_tribute": "doubling",
            "false_burn": "tribute",
            "false_burn_cards": 2,
            "union_score": "own",
            "string_three_waives": "place",
        },
    ],
)
def test_json_round_trip(value):
    rules = RuleSet.from_json(value)
    assert RuleSet.from_json(rules.to_json()) == rules
    assert rules.to_json() == value


def test_every_flag_is_a_field():
    assert "preset" not in FLAGS and len(FLAGS) == 34
    for flag in FLAGS:
        assert hasattr(RuleSet(), flag)


@pytest.mark.parametrize(
    "value, words",
    [
        ("nine-decks", "unknown rules preset"),
        ({"preset": 4}, "unknown rules preset"),
        ({"preset": "standard", "jokers_wild": True}, "unknown rules flag 'jokers_wild'"),
        ({"hold_three": "yes"}, "must be true or false"),
        ({"decks": "6"}, "must be an integer"),
        ({"decks": True}, "must be an integer"),
        ({"decks": 5}, "4 or 6"),
        ({"point_sets": "fr"}, "must be one of"),
        ({"place_points": [2, 1, 0, 0, -1]}, "six integers"),
        ({"place_points": [2, 1, 0, 0, -1, "x"]}, "six integers"),
        ({"tribute_order": ["point", "burn", "place"]}, "tribute_order"),
        ({"tribute_order": ["point", "burn", "place", "place"]}, "tribute_order"),
        ({"false_burn_cards": 0}, "at least 1"),
        (7, "preset name or an object"),
        (["standard"], "preset name or an object"),
    ],
)
def test_bad_rules_are_bad_documents(value, words):
    with pytest.raises(BadDocument) as caught:
        RuleSet.from_json(value)
    assert words in caught.value.message


def test_d14_new_flags_are_off_in_standard():
    rules = RuleSet.from_json("standard")
    assert rules.players == 6 and rules.seats == (1, 2, 3, 4, 5, 6) and rules.union_size == 3
    assert not (rules.joker_groups or rules.point_tributes_cancel or rules.two_revolutions)


def test_eight_players_preset_r44_r47_d23():
    rules = RuleSet.from_json("eight-players")
    assert rules.players == 8 and rules.decks == 4 and not rules.short_deck
    assert rules.place_points == (3, 2, 1, 0, 0, -1, -2, -3)
    assert rules.string_three_score == 24
    assert rules.seats == tuple(range(1, 9)) and rules.union_size == 4
    assert rules.union_seats("A") == (1, 2, 3, 4) and rules.union_seats("B") == (5, 6, 7, 8)
    assert [head_rival(s, rules.players) for s in rules.seats] == [5, 6, 7, 8, 1, 2, 3, 4]
    assert rules.to_json() == "eight-players"


def test_six_seat_geometry_r1_r2():
    rules = RuleSet.from_json("standard")
    assert [head_rival(s, rules.players) for s in rules.seats] == [4, 5, 6, 1, 2, 3]
    assert rules.union_seats("A") == (1, 3, 5) and rules.union_seats("B") == (2, 4, 6)


@pytest.mark.parametrize(
    "value, words",
    [
        ({"players": 7}, "6 or 8 (R44)"),
        ({"players": "8"}, "must be an integer"),
        # D28: players = 8 changes no other flag, so six place points are an error
        ({"players": 8}, "eight integers, one a place, for players = 8, not 6"),
        ({"preset": "eight-players", "players": 6}, "six integers, one a place, for players = 6"),
        ({"preset": "eight-players", "place_points": [2, 1, 0, 0, -1, -2]}, "D28"),
        # R46/D18: four packs at eight seats
        ({"preset": "eight-players", "decks": 6}, "R46"),
        ({"preset": "eight-players", "short_deck": True}, "R46"),
        ({"joker_groups": 1}, "must be true or false"),
        ({"two_revolutions": "yes"}, "must be true or false"),
        ({"point_tributes_cancel": None}, "must be true or false"),
    ],
)
def test_bad_new_flags_are_bad_documents(value, words):
    with pytest.raises(BadDocument) as caught:
        RuleSet.from_json(value)
    assert words in caught.value.message


def test_players_8_with_eight_place_points_reads():
    rules = RuleSet.from_json(
        {"preset": "standard", "players": 8, "place_points": [3, 2, 1, 0, 0, -1, -2, -3]}
    )
    assert rules.players == 8 and rules.string_three_score == 12
