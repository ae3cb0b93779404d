"""Places (G11, G12), the giog-outcome/1 summary, and points per place."""

from __future__ import annotations

from fractions import Fraction

import pytest

from matches.games.giog.engine import game
from matches.games.giog.engine.outcome import places, points_for_places
from matches.kernel.engine_errors import BadDocument


@pytest.mark.parametrize(
    "won, beheaded, expected",
    [
        ({1: 12, 2: 4, 3: 8, 4: 8}, [], [[1], [3, 4], [2]]),
        ({1: 8, 2: 8, 3: 8, 4: 8}, [], [[1, 2, 3, 4]]),
        ({1: 20, 2: 4, 3: 8, 4: 0}, [1], [[3], [2], [4], [1]]),
        ({1: 20, 2: 12}, [1, 2], [[1, 2]]),
        ({1: 15, 2: 15, 3: 0}, [2], [[1], [3], [2]]),
    ],
)
def test_g11_g12_places(won, beheaded, expected):
    assert places(won, beheaded) == expected


def summary(**fields) -> dict:
    return {
        "format": "giog-outcome/1",
        "players": 4,
        "won": {"1": 12, "2": 4, "3": 8, "4": 8},
        "beheaded": [],
        **fields,
    }


def test_a_consistent_summary_is_valid_and_placed():
    assert game.check_summary(summary()) == {
        "valid": True,
        "errors": [],
        "places": [[1], [3, 4], [2]],
    }
    assert game.check_summary(summary(beheaded=[1]))["places"] == [[3, 4], [2], [1]]


def test_beheaded_is_optional():
    doc = summary()
    del doc["beheaded"]
    assert game.check_summary(doc)["valid"]


@pytest.mark.parametrize(
    "players, won",
    [
        (3, {"1": 15, "2": 15, "3": 0}),  # 30 pieces in play
        (2, {"1": 24, "2": 0}),  # 24 pieces in play
    ],
)
def test_pieces_in_play_depend_on_the_number_of_players(players, won):
    assert game.check_summary(summary(players=players, won=won))["valid"]


@pytest.mark.parametrize(
    "fields, codes",
    [
        ({"won": {"1": 12, "2": 4, "3": 8, "4": 4}}, ["won_total"]),
        ({"won": {"1": 12, "2": 4, "3": 8}}, ["missing_seat", "won_total"]),
        ({"won": {"1": 14, "2": 2, "3": 8, "4": 8}}, ["not_whole_tricks", "not_whole_tricks"]),
        ({"won": {"1": 40, "2": -8, "3": 0, "4": 0}}, ["negative_won"]),
        ({"beheaded": [2, 2]}, ["duplicate_beheaded"]),
        ({"beheaded": [1, 2, 3]}, ["too_many_beheaded"]),
        ({"players": 3, "won": {"1": 12, "2": 12, "3": 9}}, ["won_total"]),
    ],
)
def test_an_inconsistent_summary_lists_every_error(fields, codes):
    verdict = game.check_summary(summary(**fields))
    assert not verdict["valid"]
    assert [e["code"] for e in verdict["errors"]] == codes
    assert all(e["rule"].startswith("G") and e["message"] for e in verdict["errors"])
    assert verdict["places"] == []


@pytest.mark.parametrize(
    "fields, fragment",
    [
        ({"format": "giog-hand/1"}, "format"),
        ({"players": 6}, "2 to 4"),
        ({"won": {"5": 8}}, "out of range"),
        ({"won": {"1": "12"}}, "number of pieces"),
        ({"beheaded": "2"}, "expected a list"),
        ({"tricks": []}, "unknown field"),
    ],
)
def test_an_unreadable_summary_is_a_bad_document(fields, fragment):
    with pytest.raises(BadDocument, match=fragment):
        game.check_summary(summary(**fields))


# -- points per place -------------------------------------------------------------------------

TABLE = [3, 2, 1, 0]


@pytest.mark.parametrize(
    "groups, expected",
    [
        ([[1], [2], [3], [4]], {1: 3, 2: 2, 3: 1, 4: 0}),
        # two share second place: they split second and third, (2 + 1) / 2 each
        ([[1], [3, 4], [2]], {1: 3, 3: Fraction(3, 2), 4: Fraction(3, 2), 2: 0}),
        # three share first
        ([[1, 2, 3], [4]], {1: 2, 2: 2, 3: 2, 4: 0}),
        # two beheaded share the last two places
        ([[2], [4], [1, 3]], {2: 3, 4: 2, 1: Fraction(1, 2), 3: Fraction(1, 2)}),
        (
            [[1, 2, 3, 4]],
            {1: Fraction(3, 2), 2: Fraction(3, 2), 3: Fraction(3, 2), 4: Fraction(3, 2)},
        ),
    ],
)
def test_points_for_places_split_shared_places(groups, expected):
    points = points_for_places(groups, TABLE)
    assert points == expected
    assert sum(points.values()) == sum(TABLE)  # sharing never creates or loses points


def test_points_for_places_with_fewer_players_than_the_table():
    assert points_for_places([[2], [1]], TABLE) == {2: 3, 1: 2}


def test_points_table_too_short():
    with pytest.raises(ValueError, match="points table"):
        points_for_places([[1], [2], [3]], [1, 0])
