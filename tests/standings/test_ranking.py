"""The pure ranking: properties over random tournaments."""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from matches.services.ranking import CRITERIA, MatchRecord, rank_unions

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
            matches.append(MatchRecord(
                round=number, union_a=order[k], union_b=order[k + 1], points_a=points[0],
                points_b=points[1], score_a=score, score_b=-score,
                deal_wins_a=rng.randint(0, 3), deal_wins_b=rng.randint(0, 3),
                strings_a=rng.randint(0, 1), strings_b=rng.randint(0, 1)))
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
        assert line.rank == next(i for i, other in enumerate(lines, start=1) if other.rank == line.rank)
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
