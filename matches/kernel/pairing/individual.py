"""The individual draw (抽签组邦): a full table of players, two unions formed at each table.

The game gives the table (`sides`: the side, A or B, of each seat): Gou Ji's six seats with
unions on alternate seats (R1), or eight seats with each union's four together (R44).

1. Order the field: by score (players of like score sit together) or at random from the seed.
   When the field is not a multiple of the table's size, the lowest-placed players who have
   sat out least sit out this round.
2. Cut the order into tables, then improve by swapping players between nearby tables.
   A table's cost ranks, strictly: pairs who have met before (as partners or opponents),
   then clubmates at one table, then the spread of scores at the table.
3. At each table choose, of the ways to form two unions (ten at six seats, 35 at eight), the
   one with the fewest repeated partners and opponents, then the most even union scores.
   Union A takes the seats `sides` gives it, union B the others.
"""

from __future__ import annotations

import itertools
import random
import time
from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable

from . import types as flags
from .types import SeatingError

NEIGHBOUR_TABLES = 8  # a conflict is resolved by swapping with a table at most this far away
PASSES = 6
ATTEMPTS = 20
SIDEWAYS = 0.05
ATTEMPT_BUDGET = 1200  # players x attempts

#: a table's cost: (players meeting again, clubmates together, spread of scores)
Cost = tuple[int, int, int]
#: two players' ids
IdPair = tuple[Hashable, Hashable]


@dataclass(frozen=True)
class Player:
    id: Hashable
    score: int = 0
    rank: int = 0
    club: Hashable | None = None
    partners: frozenset[Hashable] = frozenset()
    opponents: frozenset[Hashable] = frozenset()
    byes: int = 0


@dataclass
class TableDraw:
    """Seats 1..n in order: seats[0] sits on seat 1; `sides[k]` is the side of seats[k]
    (empty for a game without unions)."""

    seats: list[Hashable]
    flags: list[str] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)
    sides: tuple[str, ...] = ()

    @property
    def union_a(self) -> list[Hashable]:
        return [p for p, side in zip(self.seats, self.sides) if side == "A"]

    @property
    def union_b(self) -> list[Hashable]:
        return [p for p, side in zip(self.seats, self.sides) if side == "B"]


@dataclass
class IndividualDraw:
    tables: list[TableDraw]
    sitting_out: list[Hashable]
    quality: dict[str, Any] = field(default_factory=dict)


def draw_individual(
    players: Iterable[Player],
    *,
    sides: tuple[str, ...],
    round_number: int,
    seed: int = 0,
    by_score: bool = True,
    avoid_clubs: bool = True,
) -> IndividualDraw:
    """`sides`: the side of each seat of a table (its length is the table's size).
    `avoid_clubs`: clubmates at one table are a cost (below meeting again, above the spread of
    scores); False: they are only flagged."""
    players = list(players)
    started = time.perf_counter()
    size = len(sides)
    if len(players) < size:
        raise SeatingError(
            f"an individual draw needs at least {size} players", code="too_few", at_least=size
        )
    if len({p.id for p in players}) != len(players):
        raise SeatingError("the same player is entered twice", code="entered_twice")
    rng = random.Random(seed)
    group_by_score = by_score and round_number > 1
    order = _shuffled(sorted(players, key=lambda p: (p.rank, str(p.id))), rng, group_by_score)
    order, sitting_out = _choose_sitting_out(order, size)
    context = _Context(order, avoid_clubs)
    tables, swaps = _best_seating(order, size, context, rng, group_by_score)
    drawn = [_form_unions(table, sides, context, rng) for table in tables]
    quality = _measure(drawn)
    quality.update(swaps=swaps, seconds=round(time.perf_counter() - started, 4))
    return IndividualDraw(tables=drawn, sitting_out=[p.id for p in sitting_out], quality=quality)


def _shuffled(players: list[Player], rng: random.Random, group_by_score: bool) -> list[Player]:
    order = list(players)
    rng.shuffle(order)
    if group_by_score:
        order.sort(key=lambda p: -p.score)  # stable: random within a score group
    return order


def _best_seating(
    order: list[Player], size: int, context: "_Context", rng: random.Random, group_by_score: bool
) -> tuple[list[list[Player]], int]:
    """Tables of `size` from the order, improved by swaps. Small fields get several tries from
    reshuffled starts and keep the best; large fields have room enough for one try."""
    attempts = max(1, min(ATTEMPTS, ATTEMPT_BUDGET // len(order)))
    best: tuple[Cost, list[list[Player]], int] | None = None
    for attempt in range(attempts):
        start = _shuffled(order, rng, group_by_score) if attempt else list(order)
        tables = [start[k : k + size] for k in range(0, len(start), size)]
        swaps = _improve(tables, context, rng)
        total: Cost = (0, 0, 0)
        for table in tables:
            total = _add(total, context.table_cost(table))
        if best is None or total < best[0]:
            best = (total, tables, swaps)
        if total[:2] == (0, 0):
            break
    if best is None:
        raise SeatingError("no seating was tried")
    return best[1], best[2]


def _choose_sitting_out(order: list[Player], size: int) -> tuple[list[Player], list[Player]]:
    """The players who sit out when the field is not a multiple of the table's size: fewest
    sit-outs so far first, then the lowest-placed."""
    extra = len(order) % size
    if not extra:
        return order, []
    chosen = sorted(range(len(order)), key=lambda i: (order[i].byes, -i))[:extra]
    out = [order[i] for i in chosen]
    leaving = set(chosen)
    return [p for i, p in enumerate(order) if i not in leaving], out


class _Context:
    def __init__(self, players: list[Player], avoid_clubs: bool = True):
        self.met = {p.id: p.partners | p.opponents for p in players}
        self.avoid_clubs = avoid_clubs

    def table_cost(self, table: list[Player]) -> Cost:
        meetings = clubs = 0
        for x, y in itertools.combinations(table, 2):
            if y.id in self.met[x.id]:
                meetings += 1
            if self.avoid_clubs and x.club is not None and x.club == y.club:
                clubs += 1
        scores = [p.score for p in table]
        return (meetings, clubs, max(scores) - min(scores))

    def troubled(self, table: list[Player]) -> list[Player]:
        """Players at the table who meet someone again or sit with a clubmate."""
        found: list[Player] = []
        for x, y in itertools.combinations(table, 2):
            if y.id in self.met[x.id] or (
                self.avoid_clubs and x.club is not None and x.club == y.club
            ):
                found += [x, y]
        return list(dict.fromkeys(found))


def _add(a: Cost, b: Cost) -> Cost:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _improve(tables: list[list[Player]], context: _Context, rng: random.Random) -> int:
    """Swap players between nearby tables while that lowers the two tables' cost."""
    costs = [context.table_cost(t) for t in tables]
    swaps = 0
    for _ in range(PASSES):
        changed = False
        for t in range(len(tables)):
            if costs[t][:2] == (0, 0):
                continue
            for player in context.troubled(tables[t]):
                if player not in tables[t]:
                    continue
                if _swap_away(t, player, tables, costs, context, rng):
                    swaps += 1
                    changed = True
                if costs[t][:2] == (0, 0):
                    break
        if not changed:
            break
    return swaps


def _swap_away(
    t: int,
    player: Player,
    tables: list[list[Player]],
    costs: list[Cost],
    context: _Context,
    rng: random.Random,
) -> bool:
    near = [
        u
        for u in range(t - NEIGHBOUR_TABLES, t + NEIGHBOUR_TABLES + 1)
        if 0 <= u < len(tables) and u != t
    ]
    rng.shuffle(near)
    before_t = costs[t]
    for u in near:
        before = _add(before_t, costs[u])
        for k, other in enumerate(tables[u]):
            new_t = [other if p is player else p for p in tables[t]]
            new_u = tables[u][:k] + [player] + tables[u][k + 1 :]
            cost_t, cost_u = context.table_cost(new_t), context.table_cost(new_u)
            after = _add(cost_t, cost_u)
            # Sideways moves (same conflicts, any spread) now and then shake a stuck table.
            if after < before or (after[:2] == before[:2] and rng.random() < SIDEWAYS):
                tables[t], tables[u] = new_t, new_u
                costs[t], costs[u] = cost_t, cost_u
                return after < before
    return False


def _form_unions(
    table: list[Player], sides: tuple[str, ...], context: _Context, rng: random.Random
) -> TableDraw:
    first, rest = table[0], table[1:]
    best: tuple[tuple[int, int], list[Player], list[Player]] | None = None
    for mates in itertools.combinations(rest, len(table) // 2 - 1):
        union_a = [first, *mates]
        union_b = [p for p in rest if p not in mates]
        repeats = _role_repeats(union_a, union_b)
        balance = abs(sum(p.score for p in union_a) - sum(p.score for p in union_b))
        key = (len(repeats[0]) + len(repeats[1]), balance)  # fewest repeats, then balance
        if best is None or key < best[0]:
            best = (key, union_a, union_b)
    if best is None:
        raise SeatingError("a table too small for two unions")
    _, union_a, union_b = best
    union_a, union_b = list(union_a), list(union_b)
    rng.shuffle(union_a)
    rng.shuffle(union_b)
    if rng.random() < 0.5:
        union_a, union_b = union_b, union_a
    queues = {"A": iter(union_a), "B": iter(union_b)}
    seats = [next(queues[side]) for side in sides]
    return _annotate(
        TableDraw(seats=[p.id for p in seats], sides=tuple(sides)), union_a, union_b, context
    )


def _role_repeats(
    union_a: list[Player], union_b: list[Player]
) -> tuple[list[IdPair], list[IdPair]]:
    partners = [
        (x.id, y.id)
        for union in (union_a, union_b)
        for x, y in itertools.combinations(union, 2)
        if y.id in x.partners
    ]
    opponents = [(x.id, y.id) for x in union_a for y in union_b if y.id in x.opponents]
    return partners, opponents


def _annotate(
    draw: TableDraw, union_a: list[Player], union_b: list[Player], context: _Context
) -> TableDraw:
    partners, opponents = _role_repeats(union_a, union_b)
    everyone = union_a + union_b
    clubs = [
        (x.id, y.id)
        for x, y in itertools.combinations(everyone, 2)
        if x.club is not None and x.club == y.club
    ]
    met = [
        (x.id, y.id) for x, y in itertools.combinations(everyone, 2) if y.id in context.met[x.id]
    ]
    if partners:
        draw.flags.append(flags.REPEAT_PARTNER)
        draw.details["repeat_partners"] = partners
    if opponents:
        draw.flags.append(flags.REPEAT_OPPONENT)
        draw.details["repeat_opponents"] = opponents
    if clubs:
        draw.flags.append(flags.CLUB_CLASH)
        draw.details["club_clashes"] = clubs
    draw.details["met_before"] = met
    return draw


def _measure(tables: list[TableDraw]) -> dict[str, Any]:
    return {
        "tables": len(tables),
        "repeat_partners": sum(len(t.details.get("repeat_partners", ())) for t in tables),
        "repeat_opponents": sum(len(t.details.get("repeat_opponents", ())) for t in tables),
        "repeat_meetings": sum(len(t.details["met_before"]) for t in tables),
        "club_clashes": sum(len(t.details.get("club_clashes", ())) for t in tables),
    }


def apply_individual_round(
    players: dict[Hashable, Player], draw: IndividualDraw, points: dict[Hashable, int]
) -> dict[Hashable, Player]:
    """Players after a round: partners, opponents, byes and `points[id]` added to scores."""
    from dataclasses import replace

    updated = dict(players)
    for table in draw.tables:
        for union, other in ((table.union_a, table.union_b), (table.union_b, table.union_a)):
            for pid in union:
                p = updated[pid]
                updated[pid] = replace(
                    p,
                    score=p.score + points.get(pid, 0),
                    partners=p.partners | {q for q in union if q != pid},
                    opponents=p.opponents | set(other),
                )
    for pid in draw.sitting_out:
        p = updated[pid]
        updated[pid] = replace(p, byes=p.byes + 1, score=p.score + points.get(pid, 0))
    return updated


def describe_table(
    seat_ids: list[Hashable], players_by_id: dict[Hashable, Player], sides: tuple[str, ...]
) -> TableDraw:
    """Flags and details of a table as seated (used again after a swap by hand)."""
    players = [players_by_id[pid] for pid in seat_ids]
    context = _Context(players)
    union_a = [p for p, side in zip(players, sides) if side == "A"]
    union_b = [p for p, side in zip(players, sides) if side == "B"]
    return _annotate(TableDraw(seats=list(seat_ids), sides=tuple(sides)), union_a, union_b, context)


def measure_tables(tables: list[TableDraw]) -> dict[str, Any]:
    return _measure(tables)
