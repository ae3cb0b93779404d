"""The season's points table: league points over its title challenges (knockouts score
none), and the outcomes of title challenges the rules count them from."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from ladders import rules
from ladders.models import LadderChallenge, LadderSeason, LadderTeam
from ladders.rules import Slot


def title_outcomes(challenges) -> list[rules.Outcome[int]]:
    outcomes = []
    for c in challenges:
        if c.kind != LadderChallenge.Kind.TITLE or c.winner_id is None:
            continue
        won = sum(1 for g in c.games if rules.game_winner(g) == 0)
        lost = sum(1 for g in c.games if rules.game_winner(g) == 1)
        margin = sum(a - b for g in c.games for a, b in g)
        outcomes.append(
            rules.Outcome(
                c.challenger_id,
                Slot.from_key(c.slot),
                c.defender_id,
                c.winner_id == c.challenger_id,
                won - lost,
                margin,
            )
        )
    return outcomes


@dataclass
class PointsRow:
    team: LadderTeam
    points: int
    won: int
    lost: int


def points_table(season: LadderSeason) -> list[PointsRow]:
    """League points over the season's title challenges (knockouts score none), best first;
    ties by challenges won, then the title held, then by name."""
    challenges = LadderChallenge.objects.filter(session__season=season, kind="title").filter(
        Q(winner__isnull=False)
    )
    outcomes = title_outcomes(challenges)
    points = rules.points_table(outcomes)
    won: dict[int, int] = {}
    lost: dict[int, int] = {}
    for o in outcomes:
        winner, loser = (o.challenger, o.holder) if o.challenger_won else (o.holder, o.challenger)
        won[winner] = won.get(winner, 0) + 1
        lost[loser] = lost.get(loser, 0) + 1
    rows = [
        PointsRow(t, points.get(t.pk, 0), won.get(t.pk, 0), lost.get(t.pk, 0))
        for t in season.teams.all()
    ]
    order = {slot.key: i for i, slot in enumerate(rules.SLOTS)}
    # Level on points and wins: the higher title held now goes first (it seeds next season's
    # titles), then the name, so the order never depends on the database.
    rows.sort(key=lambda r: (-r.points, -r.won, order.get(r.team.title, len(order)), r.team.name))
    return rows
