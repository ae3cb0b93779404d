"""The rating arithmetic, pure Python (no Django): openskill's Plackett-Luce model over rated
games in a fixed order. The same games in the same order give the same floats, so an update
that replays from a stored state is identical to a recompute from scratch (docs/ratings.md).

What one update is (decided by the backtest in docs/ratings.md, `bench/ratings.py --backtest`):
each deal is one update of six one-player teams ranked by the deal's finishing order (头科
first). The union scores enter only where a deal has no full finishing order (then the two
unions are two teams ranked by their scores); the match result is not a second update (the
backtest found it adds nothing once the deals are rated).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MU = 25.0
SIGMA = 25.0 / 3.0
#: the modes the backtest compares; DEFAULT_MODE is the one the site uses.
MODES = ("union_deal", "finish", "match", "finish_and_match")
DEFAULT_MODE = "finish"

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True)
class RatedDeal:
    """One settled deal: its sides (player ids per union; a side of one for a player's side),
    each side's score, the finishing order (player ids, 1st first; may be empty)."""

    sides: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    finish: tuple[int, ...] = ()


@dataclass(frozen=True)
class RatedMatch:
    deals: tuple[RatedDeal, ...]

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return self.deals[0].sides if self.deals else ()

    @property
    def totals(self) -> tuple[int, ...]:
        if not self.deals:
            return ()
        return tuple(sum(d.scores[k] for d in self.deals) for k in range(len(self.deals[0].scores)))


State = dict[int, tuple[float, float]]  # player id -> (mu, sigma)


def ordinal(mu: float, sigma: float) -> float:
    """The number shown on the list: a conservative estimate (mu - 3 sigma)."""
    return mu - 3.0 * sigma


def _rate(state: State, teams: Sequence[Sequence[int]], scores: Sequence[float]) -> None:
    """One update. A strict order (no two teams level: every finishing order) takes the fast
    path (`_rate_ordered`); a tie goes through openskill's public `rate`."""
    if len(teams) < 2 or any(not team for team in teams):
        return
    order = sorted(range(len(teams)), key=lambda k: -scores[k])
    if len(set(scores)) == len(scores):
        _rate_ordered(state, [teams[k] for k in order])
        return
    model_teams = [
        [_MODEL.rating(*state.get(pid, (MU, SIGMA)), name=str(pid)) for pid in team]
        for team in teams
    ]
    rated = _MODEL.rate(model_teams, scores=list(scores))
    for team, ratings in zip(teams, rated, strict=True):
        for pid, r in zip(team, ratings, strict=True):
            state[pid] = (r.mu, r.sigma)


_SPARE: list = []


def _rate_ordered(state: State, teams: Sequence[Sequence[int]]) -> None:
    """openskill's `rate` for teams already in finishing order, without its deep copy of the
    teams and its new rating objects (most of its time): the same steps on reused rating
    objects (tau added to sigma, `_compute` with ranks 1..n; margin 0, no sigma limit: the
    model's defaults). tests/seasons/test_engine.py holds it equal to `rate`, float for float,
    so an openskill upgrade that changes the arithmetic fails there."""
    tau_squared = _MODEL.tau * _MODEL.tau
    need = sum(len(team) for team in teams)
    while len(_SPARE) < need:
        _SPARE.append(_MODEL.rating())
    spare = iter(_SPARE)
    model_teams = []
    for team in teams:
        members = []
        for pid in team:
            mu, sigma = state.get(pid, (MU, SIGMA))
            r = next(spare)
            r.mu, r.sigma = mu, math.sqrt(sigma * sigma + tau_squared)
            members.append(r)
        model_teams.append(members)
    rated = _MODEL._compute(teams=model_teams, ranks=list(range(1, len(teams) + 1)))
    for team, ratings in zip(teams, rated, strict=True):
        for pid, r in zip(team, ratings, strict=True):
            state[pid] = (r.mu, r.sigma)


def apply_match(state: State, match: RatedMatch, mode: str = DEFAULT_MODE) -> None:
    """Update `state` in place with one match's deals, in deal order."""
    if mode in ("union_deal",):
        for deal in match.deals:
            _rate(state, deal.sides, deal.scores)
    if mode in ("finish", "finish_and_match"):
        for deal in match.deals:
            seated = sum(len(side) for side in deal.sides)
            if len(deal.finish) >= 2 and len(deal.finish) == seated:
                n = len(deal.finish)
                _rate(state, [(pid,) for pid in deal.finish], [n - k for k in range(n)])
            else:
                _rate(state, deal.sides, deal.scores)
    if mode in ("match", "finish_and_match") and match.deals:
        _rate(state, match.sides, match.totals)


def apply_round(state: State, matches: Iterable[RatedMatch], mode: str = DEFAULT_MODE) -> None:
    for match in matches:
        apply_match(state, match, mode)
