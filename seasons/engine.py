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
    if len(teams) < 2 or any(not team for team in teams):
        return
    model_teams = [
        [_MODEL.rating(*state.get(pid, (MU, SIGMA)), name=str(pid)) for pid in team]
        for team in teams
    ]
    rated = _MODEL.rate(model_teams, scores=list(scores))
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
