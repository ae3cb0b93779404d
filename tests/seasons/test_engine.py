"""The rating engine: its fast path is openskill's `rate`, float for float."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from seasons.engine import MU, SIGMA, RatedDeal, RatedMatch, _rate, apply_match


def test_the_fast_path_equals_openskills_rate():
    rng = random.Random(5)
    model = PlackettLuce(mu=MU, sigma=SIGMA)
    for _ in range(300):
        state = {pid: (rng.uniform(10, 40), rng.uniform(0.5, 8.5)) for pid in range(6)}
        size = rng.choice([1, 3])
        pids = list(range(6))
        rng.shuffle(pids)
        teams = [tuple(pids[k : k + size]) for k in range(0, 6, size)]
        scores = rng.sample(range(-20, 20), len(teams))  # a strict order
        expected = model.rate(
            [[model.rating(*state[p]) for p in team] for team in teams], scores=scores
        )
        _rate(state, teams, scores)
        for team, rated in zip(teams, expected, strict=True):
            for pid, r in zip(team, rated, strict=True):
                assert state[pid] == (r.mu, r.sigma)


def test_a_deal_rates_by_its_finishing_order_and_a_level_deal_by_its_union_scores():
    a, b = (1, 3, 5), (2, 4, 6)
    state: dict = {}
    apply_match(state, RatedMatch((RatedDeal((a, b), (5, -5), (1, 2, 3, 4, 5, 6)),)))
    assert state[1][0] > state[2][0] > state[3][0] > MU > state[6][0]
    level: dict = {}
    apply_match(level, RatedMatch((RatedDeal((a, b), (2, 2), ()),)))  # no finishing order: a draw
    assert level[1][0] == level[2][0]
    assert all(sigma < SIGMA for _, sigma in level.values())
