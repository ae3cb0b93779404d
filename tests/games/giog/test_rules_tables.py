"""Table-driven tests of the Giog tournament rules: table sizes, points per place (ties and
beheading), rotation of opponents, clubmates apart, reproducible draws."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from matches.games.giog.engine.outcome import places, points_for_places
from matches.games.giog.seating import GiogPlayer, apply_round, draw_giog, table_sizes
from matches.games.giog.standings import format_points, points_table, rank
from matches.kernel.pairing.types import SeatingError


@pytest.mark.parametrize(
    "players, sizes",
    [
        (2, [2]),
        (3, [3]),
        (4, [4]),
        (5, [3, 2]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (12, [4, 4, 4]),
        (13, [4, 3, 3, 3]),
    ],
)
def test_table_sizes(players, sizes):
    assert table_sizes(players) == sizes


def test_one_player_cannot_be_seated():
    with pytest.raises(SeatingError):
        table_sizes(1)


@pytest.mark.parametrize(
    "won, beheaded, expected",
    [
        # 4 players, 3/2/1/0
        ({1: 12, 2: 8, 3: 8, 4: 4}, [], {1: 3, 2: Fraction(3, 2), 3: Fraction(3, 2), 4: 0}),
        (
            {1: 8, 2: 8, 3: 8, 4: 8},
            [],
            {1: Fraction(3, 2), 2: Fraction(3, 2), 3: Fraction(3, 2), 4: Fraction(3, 2)},
        ),
        # The beheaded player is last whatever they won (G12).
        ({1: 20, 2: 4, 3: 4, 4: 4}, [1], {1: 0, 2: 2, 3: 2, 4: 2}),
        # Two beheaded share the last two places.
        (
            {1: 16, 2: 8, 3: 4, 4: 4},
            [1, 2],
            {3: Fraction(5, 2), 4: Fraction(5, 2), 1: Fraction(1, 2), 2: Fraction(1, 2)},
        ),
        # 3 players: 3/2/0 (the last place takes the table's last entry).
        ({1: 15, 2: 9, 3: 6}, [], {1: 3, 2: 2, 3: 0}),
        ({1: 15, 2: 9, 3: 6}, [1], {2: 3, 3: 2, 1: 0}),
        ({1: 12, 2: 12, 3: 6}, [], {1: Fraction(5, 2), 2: Fraction(5, 2), 3: 0}),
        # 2 players: 3/0.
        ({1: 12, 2: 12}, [], {1: Fraction(3, 2), 2: Fraction(3, 2)}),
        ({1: 24, 2: 0}, [1], {2: 3, 1: 0}),
    ],
)
def test_points_per_place(won, beheaded, expected):
    groups = places(won, beheaded)
    assert points_for_places(groups, points_table([3, 2, 1, 0], len(won))) == expected


@pytest.mark.parametrize(
    "table, players, used",
    [
        ([3, 2, 1, 0], 4, [3, 2, 1, 0]),
        ([3, 2, 1, 0], 3, [3, 2, 0]),
        ([3, 2, 1, 0], 2, [3, 0]),
        ([5, 3, 1, 0], 3, [5, 3, 0]),
        ([4, 2, 1, 1], 2, [4, 1]),
    ],
)
def test_points_table_for_a_table_size(table, players, used):
    assert points_table(table, players) == used


@pytest.mark.parametrize(
    "value, text",
    [
        (Fraction(3), "3"),
        (Fraction(3, 2), "1.5"),
        (Fraction(4, 3), "1.33"),
        (Fraction(0), "0"),
    ],
)
def test_points_are_displayed_with_at_most_two_decimals(value, text):
    assert format_points(value) == text


def line(pid, name, points, pieces=0, firsts=0, beheaded=0):
    return {
        "player": pid,
        "name": name,
        "union": "",
        "points": Fraction(points),
        "pieces": pieces,
        "firsts": firsts,
        "beheaded": beheaded,
        "hands": 2,
    }


@pytest.mark.parametrize(
    "lines, ranks",
    [
        # points decide
        ([line(1, "a", 3), line(2, "b", 5)], {2: 1, 1: 2}),
        # then pieces won
        ([line(1, "a", 3, 10), line(2, "b", 3, 20)], {2: 1, 1: 2}),
        # then first places
        ([line(1, "a", 3, 10, 2), line(2, "b", 3, 10, 1)], {1: 1, 2: 2}),
        # then fewer beheadings
        ([line(1, "a", 3, 10, 1, 1), line(2, "b", 3, 10, 1, 0)], {2: 1, 1: 2}),
        # equal on everything: a shared rank
        ([line(1, "a", 3, 10, 1), line(2, "b", 3, 10, 1), line(3, "c", 1)], {1: 1, 2: 1, 3: 3}),
    ],
)
def test_ranking_and_tie_breaks(lines, ranks):
    assert {row["player"]: row["rank"] for row in rank(lines)} == ranks


def simulate(count: int, rounds: int, clubs: int = 0) -> tuple[list, list]:
    players = {
        i: GiogPlayer(id=i, rank=i, club=(i % clubs) if clubs else None) for i in range(count)
    }
    repeats, clashes = [], []
    for number in range(1, rounds + 1):
        draw = draw_giog(players.values(), seed=number)
        seated = sorted(int(str(p)) for t in draw.tables for p in t.seats)  # ids are ints
        assert seated == list(range(count))  # everyone plays, once
        assert all(2 <= len(t.seats) <= 4 for t in draw.tables)
        repeats.append(draw.quality["repeat_opponents"])
        clashes.append(draw.quality["club_clashes"])
        players = apply_round(players, draw)
    return repeats, clashes


@pytest.mark.parametrize(
    "count, rounds, most",
    [
        # Meeting everyone new is possible: no repeat at all.
        (9, 3, [0, 0, 0]),
        (16, 3, [0, 0, 0]),
        (20, 4, [0, 0, 0, 0]),
        (40, 5, [0, 0, 0, 0, 0]),
        # 8 players at two tables of 4: the second round must repeat at least 4 pairs
        # (each table holds two players of each first-round table).
        (8, 2, [0, 4]),
        # 12 at three tables of 4: by pigeonhole at least one repeat per table in round 2.
        (12, 2, [0, 3]),
    ],
)
def test_rotation_keeps_repeated_opponents_to_the_minimum(count, rounds, most):
    repeats, _ = simulate(count, rounds)
    assert repeats == most


@pytest.mark.parametrize("count, clubs", [(8, 4), (12, 6), (16, 4), (10, 5)])
def test_clubmates_sit_apart_when_possible(count, clubs):
    _, clashes = simulate(count, 1, clubs)
    assert clashes == [0]


def test_clubs_that_cannot_be_kept_apart_are_flagged():
    # Two clubs of four at two tables of four: every table holds clubmates.
    players = [GiogPlayer(id=i, club=i % 2) for i in range(8)]
    draw = draw_giog(players, seed=1)
    assert draw.quality["club_clashes"] == 4
    assert all("club_clash" in t.flags for t in draw.tables)


def test_the_same_seed_gives_the_same_draw_and_another_seed_another():
    players = [GiogPlayer(id=i, rank=i) for i in range(14)]
    first = [t.seats for t in draw_giog(players, seed=42).tables]
    assert first == [t.seats for t in draw_giog(list(reversed(players)), seed=42).tables]
    others = {
        tuple(map(tuple, (t.seats for t in draw_giog(players, seed=s).tables))) for s in range(5)
    }
    assert len(others) > 1


def test_a_player_entered_twice_is_refused():
    with pytest.raises(SeatingError):
        draw_giog([GiogPlayer(id=1), GiogPlayer(id=1), GiogPlayer(id=2)])


def test_repeat_flags_name_the_pairs_that_met():
    players = {i: GiogPlayer(id=i) for i in range(4)}
    players = apply_round(players, draw_giog(players.values(), seed=1))
    draw = draw_giog(players.values(), seed=2)
    table = draw.tables[0]
    assert "repeat_opponent" in table.flags
    assert len(table.details["repeat_opponents"]) == len(list(itertools.combinations(range(4), 2)))


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=30, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=24),
    rounds=st.integers(min_value=1, max_value=2),
    clubs=st.integers(min_value=0, max_value=5),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_any_field_is_seated_once_at_tables_of_two_to_four(count, rounds, clubs, seed):
    players = {
        i: GiogPlayer(id=i, rank=i, club=(i % clubs) if clubs else None) for i in range(count)
    }
    for number in range(rounds):
        draw = draw_giog(players.values(), seed=seed + number)
        again = draw_giog(players.values(), seed=seed + number)
        assert [t.seats for t in draw.tables] == [t.seats for t in again.tables]
        seated = sorted(int(str(p)) for t in draw.tables for p in t.seats)  # ids are ints
        assert seated == list(range(count))
        assert [len(t.seats) for t in draw.tables] == table_sizes(count)
        players = apply_round(players, draw)


@pytest.mark.parametrize(
    "groups, shown",
    [
        ([[1], [2], [3], [4]], [1, 2, 3, 4]),
        ([[1], [2, 3], [4]], [1, 2, 2, 4]),
        ([[1, 2, 3, 4]], [1, 1, 1, 1]),
        ([[3], [1, 2]], [1, 2, 2]),
    ],
)
def test_shared_places_are_numbered_as_a_table_shows_them(groups, shown):
    from matches.games.giog.standings import numbered

    assert [place for place, group in numbered(groups) for _seat in group] == shown
