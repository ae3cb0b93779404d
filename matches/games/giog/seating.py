"""The Giog draw: every player seated at tables of 2 to 4 (G4), opponents rotated round by round.

1. Table sizes: as few tables as possible, as equal as possible (4s first, then 3s); nobody sits
   out, since tables of 2-4 seat any field of two or more.
2. Seat a seeded shuffle of the field, then swap players between tables while a swap lowers the
   cost (players who met before at one table, counted as often as they met; then clubmates at
   one table). Several shuffles are tried and the cheapest kept.
3. Seats within a table are shuffled from the seed (the first leader is drawn at the table).

The same players, history and seed give the same draw. Pure Python, like the other pairers.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable, Mapping

from matches.kernel.pairing import types as flags
from matches.kernel.pairing.individual import IndividualDraw, TableDraw
from matches.kernel.pairing.types import SeatingError

MAX_TABLE = 4
ATTEMPTS = 12  # shuffles tried at least; small fields get more (ATTEMPT_BUDGET // players)
MAX_ATTEMPTS = 60
ATTEMPT_BUDGET = 1200
PASSES = 20


@dataclass(frozen=True)
class GiogPlayer:
    id: Hashable
    rank: int = 0  # seed or registration order; only orders the input
    club: Hashable | None = None
    met: Mapping = field(default_factory=dict)  # other player id -> rounds at one table so far


# A drawn Giog table: its players in seat order (the draw writes one side per player).
GiogTable = TableDraw
GiogDraw = IndividualDraw  # nobody sits out of a Giog round: sitting_out stays empty


def table_sizes(count: int) -> list[int]:
    """As few tables as possible and as equal as possible, larger tables first."""
    if count < 2:
        raise SeatingError("a Giog draw needs at least two players", code="too_few", at_least=2)
    tables = math.ceil(count / MAX_TABLE)
    base, extra = divmod(count, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def pair_cost(x: GiogPlayer, y: GiogPlayer) -> tuple[int, int]:
    """(times these two met before, 1 if clubmates): compared repeats first."""
    return x.met.get(y.id, 0), int(x.club is not None and x.club == y.club)


def table_cost(table: list) -> tuple[int, int]:
    repeats = clubs = 0
    for x, y in itertools.combinations(table, 2):
        r, c = pair_cost(x, y)
        repeats += r
        clubs += c
    return repeats, clubs


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return (a[0] + b[0], a[1] + b[1])


def draw_giog(
    players: Iterable[GiogPlayer], *, seed: int = 0, attempts: int | None = None
) -> GiogDraw:
    started = time.perf_counter()
    players = sorted(players, key=lambda p: (p.rank, str(p.id)))
    if len({p.id for p in players}) != len(players):
        raise SeatingError("the same player is entered twice", code="entered_twice")
    sizes = table_sizes(len(players))
    if attempts is None:
        attempts = max(ATTEMPTS, min(MAX_ATTEMPTS, ATTEMPT_BUDGET // len(players)))
    rng = random.Random(seed)
    best: tuple[tuple[int, int], list[list[Any]], int] | None = None
    for _attempt in range(max(1, attempts)):
        order = list(players)
        rng.shuffle(order)
        tables, start = [], 0
        for size in sizes:
            tables.append(order[start : start + size])
            start += size
        swaps = _improve(tables)
        total = (0, 0)
        for table in tables:
            total = _add(total, table_cost(table))
        if best is None or total < best[0]:
            best = (total, tables, swaps)
        if total == (0, 0):
            break
    if best is None:
        raise SeatingError("no seating was tried")
    total, tables, swaps = best
    drawn = []
    for table in tables:
        seated = list(table)
        rng.shuffle(seated)
        drawn.append(describe(seated))
    quality = measure(drawn)
    quality.update(swaps=swaps, seconds=round(time.perf_counter() - started, 4))
    return GiogDraw(tables=drawn, sitting_out=[], quality=quality)


def _improve(tables: list) -> int:
    """Swap two players of different tables while that lowers the two tables' cost."""
    costs = [table_cost(t) for t in tables]
    swaps = 0
    for _ in range(PASSES):
        changed = False
        for t, u in itertools.combinations(range(len(tables)), 2):
            if costs[t] == (0, 0) and costs[u] == (0, 0):
                continue
            before = _add(costs[t], costs[u])
            for i, j in itertools.product(range(len(tables[t])), range(len(tables[u]))):
                new_t = tables[t][:i] + [tables[u][j]] + tables[t][i + 1 :]
                new_u = tables[u][:j] + [tables[t][i]] + tables[u][j + 1 :]
                cost_t, cost_u = table_cost(new_t), table_cost(new_u)
                if _add(cost_t, cost_u) < before:
                    tables[t], tables[u] = new_t, new_u
                    costs[t], costs[u] = cost_t, cost_u
                    before = _add(cost_t, cost_u)
                    swaps += 1
                    changed = True
        if not changed:
            break
    return swaps


def describe(seated: list) -> GiogTable:
    """Flags and details of a table as seated (also after a swap by hand)."""
    table = GiogTable(seats=[p.id for p in seated])
    repeats = [(x.id, y.id) for x, y in itertools.combinations(seated, 2) if x.met.get(y.id)]
    clubs = [
        (x.id, y.id)
        for x, y in itertools.combinations(seated, 2)
        if x.club is not None and x.club == y.club
    ]
    if repeats:
        table.flags.append(flags.REPEAT_OPPONENT)
        table.details["repeat_opponents"] = repeats
    if clubs:
        table.flags.append(flags.CLUB_CLASH)
        table.details["club_clashes"] = clubs
    table.details["players"] = len(seated)
    return table


def measure(tables: list) -> dict:
    return {
        "tables": len(tables),
        "sizes": [len(t.seats) for t in tables],
        "repeat_opponents": sum(len(t.details.get("repeat_opponents", ())) for t in tables),
        "club_clashes": sum(len(t.details.get("club_clashes", ())) for t in tables),
    }


def apply_round(players: dict, draw: GiogDraw) -> dict:
    """Players after a round: each met everyone at their table once more (for simulations)."""
    from dataclasses import replace

    updated = dict(players)
    for table in draw.tables:
        for pid in table.seats:
            met = dict(updated[pid].met)
            for other in table.seats:
                if other != pid:
                    met[other] = met.get(other, 0) + 1
            updated[pid] = replace(updated[pid], met=met)
    return updated
