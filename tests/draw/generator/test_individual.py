"""The individual draw (抽签组邦), on plain objects."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.kernel.pairing import types as flags
from matches.kernel.pairing.individual import Player, apply_individual_round, draw_individual
from matches.kernel.pairing.types import SeatingError

#: Gou Ji's tables: six seats, unions alternate (R1); eight seats, unions together (R44)
SIX = ("A", "B") * 3
EIGHT = ("A",) * 4 + ("B",) * 4


def seated(draw):
    return [pid for table in draw.tables for pid in table.seats]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=6, max_value=80), st.integers(min_value=0, max_value=2**31))
def test_everyone_sits_once_or_sits_out(count, seed):
    players = [Player(id=k, rank=k) for k in range(count)]
    draw = draw_individual(sides=SIX, players=players, round_number=1, seed=seed)
    assert sorted(seated(draw) + draw.sitting_out) == list(range(count))
    assert len(draw.sitting_out) == count % 6
    for table in draw.tables:
        assert len(table.seats) == 6
        assert table.union_a == table.seats[0::2] and table.union_b == table.seats[1::2]


def test_clubmates_sit_apart_when_the_clubs_allow_it():
    # Six clubs of six players: one from each club at each table is possible.
    players = [Player(id=k, club=k % 6) for k in range(36)]
    draw = draw_individual(sides=SIX, players=players, round_number=1, seed=3)
    assert draw.quality["club_clashes"] == 0
    for table in draw.tables:
        assert CLUB_SPREAD(table, players) == 6


def CLUB_SPREAD(table, players):
    clubs = {p.id: p.club for p in players}
    return len({clubs[pid] for pid in table.seats})


def test_club_clash_is_flagged_when_unavoidable():
    players = [Player(id=k, club="same" if k < 2 else k) for k in range(6)]
    draw = draw_individual(sides=SIX, players=players, round_number=1, seed=1)
    assert flags.CLUB_CLASH in draw.tables[0].flags
    assert draw.quality["club_clashes"] == 1


def test_no_one_meets_again_over_rounds_in_a_large_field():
    players = {k: Player(id=k, rank=k, club=k % 40) for k in range(600)}
    rng = random.Random(2)
    for round_number in range(1, 6):
        draw = draw_individual(
            sides=SIX, players=players.values(), round_number=round_number, seed=round_number
        )
        assert draw.quality["repeat_meetings"] == 0
        assert draw.quality["club_clashes"] == 0
        points = {}
        for table in draw.tables:
            for pid in table.union_a if rng.random() < 0.5 else table.union_b:
                points[pid] = 3
        players = apply_individual_round(players, draw, points)
    assert all(len(p.partners) == 10 and len(p.opponents) == 15 for p in players.values())


def test_unions_are_formed_to_avoid_repeated_partners():
    # Six players who have all met: 0,1,2 were partners and so were 3,4,5.
    history = {0: {1, 2}, 1: {0, 2}, 2: {0, 1}, 3: {4, 5}, 4: {3, 5}, 5: {3, 4}}
    players = [Player(id=k, partners=frozenset(history[k])) for k in range(6)]
    table = draw_individual(sides=SIX, players=players, round_number=2, seed=9).tables[0]
    for union in (table.union_a, table.union_b):
        assert len({pid // 3 for pid in union}) == 2  # never three old partners again
    assert (
        draw_individual(sides=SIX, players=players, round_number=2, seed=9).quality[
            "repeat_partners"
        ]
        == 2
    )


def test_sitting_out_goes_round():
    players = {k: Player(id=k, rank=k) for k in range(7)}
    sat_out = []
    for round_number in range(1, 8):
        draw = draw_individual(
            sides=SIX, players=players.values(), round_number=round_number, seed=round_number
        )
        sat_out += draw.sitting_out
        players = apply_individual_round(players, draw, {})
    assert Counter(sat_out) == Counter(range(7))


def test_reproducible_from_seed_and_refuses_small_fields():
    players = [Player(id=k) for k in range(30)]
    assert seated(draw_individual(sides=SIX, players=players, round_number=1, seed=5)) == seated(
        draw_individual(sides=SIX, players=players, round_number=1, seed=5)
    )
    with pytest.raises(SeatingError):
        draw_individual(sides=SIX, players=players[:5], round_number=1)


def test_clubs_ignored_when_the_event_says_so():
    # Six clubs of six: kept apart no table holds two clubmates; ignored, the clubs are only
    # counted and the plain order seats clubmates together.
    players = [Player(id=k, rank=k, club=k // 6) for k in range(36)]
    kept = draw_individual(sides=SIX, players=players, round_number=1, seed=3)
    ignored = draw_individual(sides=SIX, players=players, round_number=1, seed=3, avoid_clubs=False)
    assert kept.quality["club_clashes"] == 0
    assert ignored.quality["club_clashes"] > 0
    assert ignored.quality["swaps"] == 0


# --- eight seats (R44): two unions of four, union A on seats 1-4, B on 5-8 -------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=8, max_value=80), st.integers(min_value=0, max_value=2**31))
def test_eight_seat_tables_hold_two_unions_of_four_seated_together(count, seed):
    players = [Player(id=k, rank=k) for k in range(count)]
    draw = draw_individual(sides=EIGHT, players=players, round_number=1, seed=seed)
    assert sorted(seated(draw) + draw.sitting_out) == list(range(count))
    assert len(draw.sitting_out) == count % 8
    for table in draw.tables:
        assert len(table.seats) == 8
        assert table.union_a == table.seats[:4] and table.union_b == table.seats[4:]


def test_eight_seats_no_one_meets_again_and_clubs_stay_apart_over_rounds():
    players = {k: Player(id=k, rank=k, club=k % 50) for k in range(800)}
    rng = random.Random(4)
    for round_number in range(1, 5):
        draw = draw_individual(
            sides=EIGHT, players=players.values(), round_number=round_number, seed=round_number
        )
        assert draw.quality["repeat_meetings"] == 0
        assert draw.quality["club_clashes"] == 0
        points = {}
        for table in draw.tables:
            for pid in table.union_a if rng.random() < 0.5 else table.union_b:
                points[pid] = 3
        players = apply_individual_round(players, draw, points)
    # four rounds: three partners and four opponents a round, never the same person twice
    assert all(len(p.partners) == 12 and len(p.opponents) == 16 for p in players.values())


def test_eight_seat_unions_are_formed_to_avoid_repeated_partners():
    # Eight players who have all met: 0-3 were partners and so were 4-7. Two old partners from
    # each old union in each new one repeat four pairs; three and one would repeat six.
    history = {k: {j for j in range(8) if j // 4 == k // 4 and j != k} for k in range(8)}
    players = [Player(id=k, partners=frozenset(history[k])) for k in range(8)]
    draw = draw_individual(sides=EIGHT, players=players, round_number=2, seed=9)
    table = draw.tables[0]
    for union in (table.union_a, table.union_b):
        assert sorted(pid // 4 for pid in union) == [0, 0, 1, 1]
    assert draw.quality["repeat_partners"] == 4


def test_eight_seats_refuse_a_field_of_seven():
    with pytest.raises(SeatingError) as refused:
        draw_individual(sides=EIGHT, players=[Player(id=k) for k in range(7)], round_number=1)
    assert refused.value.code == "too_few"
