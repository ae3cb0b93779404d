"""The pure ranking: properties over random tournaments."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from matches.games.gouji.ranking import SeatRecord, rank_players
from matches.standings.ranking import CRITERIA, MatchRecord, rank_unions

tie_breaks = st.lists(st.sampled_from([c for c in CRITERIA if c != "match_points"]), unique=True)


@st.composite
def tournaments(draw):
    unions = draw(st.integers(min_value=2, max_value=9))
    rounds = draw(st.integers(min_value=1, max_value=4))
    rng = random.Random(draw(st.integers(min_value=0, max_value=10**6)))
    matches = []
    for number in range(1, rounds + 1):
        order = list(range(unions))
        rng.shuffle(order)
        for k in range(0, unions - 1, 2):
            score = rng.choice([-12, -6, -2, 0, 2, 6, 12])
            points = (3, 0) if score > 0 else (0, 3) if score < 0 else (1, 1)
            matches.append(
                MatchRecord(
                    round=number,
                    union_a=order[k],
                    union_b=order[k + 1],
                    points_a=points[0],
                    points_b=points[1],
                    score_a=score,
                    score_b=-score,
                    deal_wins_a=rng.randint(0, 3),
                    deal_wins_b=rng.randint(0, 3),
                    strings_a=rng.randint(0, 1),
                    strings_b=rng.randint(0, 1),
                )
            )
        if unions % 2:
            matches.append(MatchRecord(round=number, union_a=order[-1], union_b=None, points_a=3))
    entrants = {u: (u + 1, f"U{u}") for u in range(unions)}
    return entrants, matches


@settings(max_examples=150, deadline=None)
@given(tournaments(), tie_breaks)
def test_match_points_decide_first_and_ranks_are_consistent(tournament, order):
    entrants, matches = tournament
    lines = rank_unions(entrants, matches, order)
    assert sorted(line.union for line in lines) == sorted(entrants)
    points = [line.match_points for line in lines]
    assert points == sorted(points, reverse=True)
    ranks = [line.rank for line in lines]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    for position, line in enumerate(lines, start=1):
        # A shared rank is the position of the first of the tied lines (1, 2, 2, 4).
        assert line.rank == next(
            i for i, other in enumerate(lines, start=1) if other.rank == line.rank
        )
        assert line.rank <= position
    # Every match point is someone's: the totals add up.
    assert sum(points) == sum(m.points_a + m.points_b for m in matches)


@settings(max_examples=150, deadline=None)
@given(tournaments(), tie_breaks, st.randoms(use_true_random=False))
def test_the_order_matches_arrive_in_does_not_matter(tournament, order, rnd):
    entrants, matches = tournament
    shuffled = list(matches)
    rnd.shuffle(shuffled)
    first = [line.as_dict() for line in rank_unions(entrants, matches, order)]
    again = [line.as_dict() for line in rank_unions(entrants, shuffled, order)]
    assert first == again


def test_head_to_head_counts_only_the_matches_inside_the_tied_group():
    # A and B tie on 6 points; A beat B. C (3 points) beat A, which must not count for A.
    matches = [
        MatchRecord(round=1, union_a=1, union_b=2, points_a=3, points_b=0),
        MatchRecord(round=2, union_a=3, union_b=1, points_a=3, points_b=0),
        MatchRecord(round=2, union_a=2, union_b=4, points_a=3, points_b=0),
        MatchRecord(round=3, union_a=1, union_b=4, points_a=3, points_b=0),
        MatchRecord(round=3, union_a=2, union_b=3, points_a=3, points_b=0),
    ]
    entrants = {u: (5 - u, f"U{u}") for u in (1, 2, 3, 4)}  # seeds favour B over A
    lines = rank_unions(entrants, matches, ["head_to_head", "seed"])
    assert [(line.union, line.rank) for line in lines[:2]] == [(1, 1), (2, 2)]


@st.composite
def seat_rounds(draw):
    """Per round, seat records of a few players at a few tables."""
    rng = random.Random(draw(st.integers(min_value=0, max_value=10**6)))
    rounds = []
    for number in range(draw(st.integers(min_value=1, max_value=4))):
        seats = []
        for table in range(rng.randint(1, 3)):
            players = rng.sample(range(12), 6)
            for _deal in range(rng.randint(1, 3)):
                rng.shuffle(players)
                for place, player in enumerate(players):
                    seats.append(
                        SeatRecord(
                            player=player,
                            table=100 * number + table,
                            place=place,
                            place_points=[3, 2, 1, 0, -1, -2][place],
                            opened_point=rng.random() < 0.3,
                            burns=rng.choice([0, 0, 0, 1]),
                        )
                    )
        rounds.append(seats)
    return rounds


@settings(max_examples=150, deadline=None)
@given(seat_rounds())
def test_player_standings_carried_round_by_round_equal_reading_every_round(rounds):
    """What snapshot_round does at a festival: round N = the rows after N-1, plus round N."""
    players = {p: (f"P{p}", "U") for p in range(12)}
    at_once = [line.as_dict() for line in rank_players(players, [s for r in rounds for s in r])]
    carried: list[dict] = []
    for seats in rounds:
        carried = [line.as_dict() for line in rank_players(players, seats, carried)]
    assert carried == at_once
