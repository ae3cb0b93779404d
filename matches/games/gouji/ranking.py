"""Gou Ji's player ranking from plain deal records. Pure Python, no Django.

`rank_players` orders players by place points, then points opened, then burns.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class PlayerLine:
    player: int
    name: str = ""
    union: str = ""
    deals: int = 0
    place_points: int = 0
    points_opened: int = 0
    burns: int = 0
    firsts: int = 0
    tables: int = 0
    rank: int = 0

    def as_dict(self) -> dict:
        return {
            "rank": self.rank,
            "player": self.player,
            "name": self.name,
            "union": self.union,
            "deals": self.deals,
            "tables": self.tables,
            "place_points": self.place_points,
            "points_opened": self.points_opened,
            "burns": self.burns,
            "firsts": self.firsts,
        }


@dataclass(frozen=True)
class SeatRecord:
    """One player's part in one deal."""

    player: int
    table: int  # any id of the table (or match) the deal was played at
    place: int  # 0-based finishing place
    place_points: int
    opened_point: bool
    burns: int  # successful burns (and counter-burns) this player made


def rank_players(
    players: dict[int, tuple[str, str]], seats: list[SeatRecord], carried: list[dict] = ()
) -> list[PlayerLine]:
    """Players best first: place points, then points opened, then burns; equal lines share a rank.

    `carried`: the rows (`PlayerLine.as_dict()`) of the rounds before those of `seats`, which
    the new seats add to; every total is a plain sum over deals, so the standings after round N
    are those after round N-1 plus round N, and a festival's round 9 reads one round, not nine."""
    lines = {
        p: PlayerLine(player=p, name=name, union=union) for p, (name, union) in players.items()
    }
    for row in carried:
        line = lines.setdefault(
            row["player"], PlayerLine(player=row["player"], name=row["name"], union=row["union"])
        )
        line.deals += row["deals"]
        line.tables += row["tables"]  # a table (its id) belongs to one round only
        line.place_points += row["place_points"]
        line.points_opened += row["points_opened"]
        line.burns += row["burns"]
        line.firsts += row["firsts"]
    tables: dict[int, set] = {}
    for s in seats:
        line = lines.setdefault(s.player, PlayerLine(player=s.player))
        line.deals += 1
        line.place_points += s.place_points
        line.points_opened += int(s.opened_point)
        line.burns += s.burns
        line.firsts += int(s.place == 0)
        tables.setdefault(s.player, set()).add(s.table)
    for player, seen in tables.items():
        lines[player].tables += len(seen)

    def key(line):
        return (line.place_points, line.points_opened, line.burns)

    ordered = sorted(lines.values(), key=lambda x: (tuple(-v for v in key(x)), x.name, x.player))
    previous, position = None, 0
    for index, line in enumerate(ordered, start=1):
        if key(line) != previous:
            position, previous = index, key(line)
        line.rank = position
    return ordered
