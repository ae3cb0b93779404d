"""Berger round-robin tables and single-elimination brackets."""

from __future__ import annotations

import itertools

import pytest

from matches.kernel.pairing import types as flags
from matches.kernel.pairing.knockout import bracket_order, first_round, next_round
from matches.kernel.pairing.robin import (
    berger_round,
    round_robin_round,
    rounds_in_group,
    snake_groups,
)
from matches.kernel.pairing.types import SeatingError

# FIDE Handbook C.05, Berger tables (first-named plays White, here: takes seats 1-3-5).
FIDE_BERGER = {
    4: [
        [(1, 4), (2, 3)],
        [(4, 3), (1, 2)],
        [(2, 4), (3, 1)],
    ],
    6: [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ],
}


@pytest.mark.parametrize("size", sorted(FIDE_BERGER))
def test_berger_matches_the_fide_tables(size):
    for round_number, expected in enumerate(FIDE_BERGER[size], start=1):
        assert berger_round(size, round_number) == expected


@pytest.mark.parametrize("size", range(2, 13))
def test_every_pair_meets_exactly_once(size):
    entrants = [f"u{k}" for k in range(size)]
    met = []
    for round_number in range(1, rounds_in_group(size) + 1):
        pairings = round_robin_round(entrants, round_number)
        seated = [u for p in pairings for u in (p.a, p.b) if u is not None]
        assert sorted(seated) == sorted(entrants)
        met += [frozenset((p.a, p.b)) for p in pairings if not p.is_bye]
        assert sum(p.is_bye for p in pairings) == size % 2
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in itertools.combinations(entrants, 2)), key=sorted
    )


def test_odd_group_gives_each_entrant_one_bye():
    entrants = ["a", "b", "c", "d", "e"]
    byes = [p.a for r in range(1, 6) for p in round_robin_round(entrants, r) if p.is_bye]
    assert sorted(byes) == entrants


def test_round_out_of_range_is_refused():
    with pytest.raises(SeatingError):
        berger_round(6, 6)
    with pytest.raises(SeatingError):
        round_robin_round(["a", "a"], 1)


def test_snake_groups_balance_the_seeds():
    assert snake_groups(list(range(1, 9)), 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]


def test_bracket_order_keeps_top_seeds_apart():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    with pytest.raises(SeatingError):
        bracket_order(6)


def test_byes_go_to_the_top_seeds():
    pairings = first_round([f"s{k}" for k in range(1, 7)])
    byes = [p.a for p in pairings if p.is_bye]
    assert byes == ["s1", "s2"]
    assert all(flags.BYE in p.flags for p in pairings if p.is_bye)


@pytest.mark.parametrize("size", [2, 3, 5, 8, 12, 16])
def test_when_the_higher_seed_always_wins_one_meets_two_in_the_final(size):
    seeds = list(range(1, size + 1))
    pairings = first_round(seeds)
    while len(pairings) > 1:
        winners = [p.a if p.is_bye else min(p.a, p.b) for p in pairings]
        pairings = next_round(winners)
    assert {pairings[0].a, pairings[0].b} == {1, 2}
