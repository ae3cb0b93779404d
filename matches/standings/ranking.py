"""Ranking unions from plain match and deal records. Pure Python, no Django.

`rank_unions` orders unions by match points, then by the event's tie-breaks in order; unions
equal on every configured criterion share a rank (listed by seed). (Each game ranks its own
players: Gou Ji's is `matches/games/gouji/ranking.py`.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: tie-breaks the ranking knows; `matches.models.event.TIE_BREAKS` offers the same names.
CRITERIA = (
    "match_points",
    "score_difference",
    "opponents_match_points",
    "head_to_head",
    "deal_wins",
    "strings_of_three",
    "seed",
)


@dataclass(frozen=True)
class MatchRecord:
    """One finished match (or a bye: `union_b` is None) as the ranking sees it."""

    round: int
    union_a: int
    union_b: int | None
    points_a: int
    points_b: int = 0
    score_a: int = 0
    score_b: int = 0
    deal_wins_a: int = 0
    deal_wins_b: int = 0
    strings_a: int = 0
    strings_b: int = 0
    forfeit: str = ""  # "A", "B" or "both": who did not play


@dataclass
class UnionLine:
    union: int
    seed: int | None = None
    name: str = ""
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    forfeits: int = 0  # matches this union did not turn up for (弃权)
    match_points: int = 0
    score_for: int = 0
    score_against: int = 0
    deal_wins: int = 0
    strings_of_three: int = 0
    opponents: list[int] = field(default_factory=list)
    opponents_match_points: int = 0
    rank: int = 0
    # The criterion that set this line below the line above it (None: first, or tied with it),
    # and each criterion's value as the ranking compared it (head-to-head: within the group
    # still tied when its turn came). The break explains the cut with them.
    decided_by: str | None = None
    compared: dict = field(default_factory=dict)

    @property
    def score_difference(self) -> int:
        """净胜分: the union's own deal scores summed, the figure its tables wrote (A +20 on the
        sheet is 20 here). R32's two deal scores are opposite, so for − against would print
        every figure twice over while ordering the unions the same."""
        return self.score_for

    def as_dict(self) -> dict:
        return {
            "rank": self.rank,
            "union": self.union,
            "name": self.name,
            "seed": self.seed,
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "byes": self.byes,
            "forfeits": self.forfeits,
            "match_points": self.match_points,
            "score_for": self.score_for,
            "score_against": self.score_against,
            "score_difference": self.score_difference,
            "opponents_match_points": self.opponents_match_points,
            "deal_wins": self.deal_wins,
            "strings_of_three": self.strings_of_three,
        }


def union_lines(entrants: dict[int, tuple[int | None, str]], matches: list[MatchRecord]) -> dict:
    """Totals per union. `entrants` maps union id → (seed, name); unknown unions are added."""
    lines = {u: UnionLine(union=u, seed=seed, name=name) for u, (seed, name) in entrants.items()}
    for m in matches:
        a = lines.setdefault(m.union_a, UnionLine(union=m.union_a))
        if m.union_b is None:
            a.byes += 1
            a.match_points += m.points_a
            a.score_for += m.score_a  # the event's bye score
            continue
        b = lines.setdefault(m.union_b, UnionLine(union=m.union_b))
        for mine, theirs, pts, own_score, other_score, wins, strings in (
            (a, b, m.points_a, m.score_a, m.score_b, m.deal_wins_a, m.strings_a),
            (b, a, m.points_b, m.score_b, m.score_a, m.deal_wins_b, m.strings_b),
        ):
            mine.played += 1
            mine.match_points += pts
            mine.score_for += own_score
            mine.score_against += other_score
            mine.deal_wins += wins
            mine.strings_of_three += strings
            mine.opponents.append(theirs.union)
        if m.forfeit in ("A", "both"):
            a.forfeits += 1
        if m.forfeit in ("B", "both"):
            b.forfeits += 1
        if m.forfeit == "both":
            a.losses, b.losses = a.losses + 1, b.losses + 1
        elif m.points_a > m.points_b:
            a.wins, b.losses = a.wins + 1, b.losses + 1
        elif m.points_a < m.points_b:
            a.losses, b.wins = a.losses + 1, b.wins + 1
        else:
            a.draws, b.draws = a.draws + 1, b.draws + 1
    # Buchholz: the opponents' match points as they stand now (a bye has no opponent).
    for line in lines.values():
        line.opponents_match_points = sum(lines[o].match_points for o in line.opponents)
    return lines


def _value(
    line: UnionLine, criterion: str, group: set[int], by_union: dict[int, list[MatchRecord]]
):
    """A number where bigger ranks higher. `by_union`: each union's own matches."""
    if criterion == "head_to_head":
        # Match points from the matches between members of the tied group only. Only the
        # union's own matches are looked at: a festival ties thousands of unions at once.
        total = 0
        for m in by_union.get(line.union, ()):
            if m.union_b is None or m.union_a not in group or m.union_b not in group:
                continue
            total += m.points_a if m.union_a == line.union else m.points_b
        return total
    if criterion == "seed":
        return -(line.seed if line.seed is not None else 10**9)
    return getattr(line, criterion)


def rank_unions(
    entrants: dict[int, tuple[int | None, str]], matches: list[MatchRecord], tie_breaks: list[str]
) -> list[UnionLine]:
    """Unions best first, each with its `rank` (equal lines share a rank)."""
    lines = union_lines(entrants, matches)
    criteria = ["match_points"] + [c for c in tie_breaks if c != "match_points"]
    unknown = [c for c in criteria if c not in CRITERIA]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r}")
    by_union: dict[int, list[MatchRecord]] = {}
    for m in matches:
        by_union.setdefault(m.union_a, []).append(m)
        if m.union_b is not None and m.union_b != m.union_a:
            by_union.setdefault(m.union_b, []).append(m)
    groups = _partition(list(lines.values()), criteria, by_union)
    ranked, position = [], 1
    for group, decided_by in groups:
        # Still equal on every criterion: one shared rank, listed by seed then name.
        for index, line in enumerate(
            sorted(group, key=lambda x: (x.seed if x.seed is not None else 10**9, x.name, x.union))
        ):
            line.rank = position
            line.decided_by = decided_by if index == 0 else None
            ranked.append(line)
        position += len(group)
    return ranked


def _partition(
    group: list[UnionLine], criteria: list[str], by_union, split_by: str | None = None
) -> list[tuple[list[UnionLine], str | None]]:
    """Split a tied group criterion by criterion, best sub-group first; each sub-group comes
    with the criterion that set it below the one before (`split_by` for the first).

    Head-to-head is computed inside the group that is still tied when its turn comes, as a
    referee would: only the matches between exactly those unions count.
    """
    if len(group) <= 1 or not criteria:
        return [(group, split_by)]
    criterion, rest = criteria[0], criteria[1:]
    members = {line.union for line in group}
    buckets: dict = {}
    for line in group:
        value = _value(line, criterion, members, by_union)
        line.compared[criterion] = value
        buckets.setdefault(value, []).append(line)
    result = []
    for index, value in enumerate(sorted(buckets, reverse=True)):
        result.extend(
            _partition(buckets[value], rest, by_union, split_by if index == 0 else criterion)
        )
    return result
