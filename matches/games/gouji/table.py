"""Gou Ji's table: six seats with the unions on alternate seats (R1), or eight seats with each
union's four together (R44), as the rule set's `players` says."""

from __future__ import annotations

from matches.games.adapter import TableShape


def shape_for(players: int) -> TableShape:
    """The table of the rule set's `players`: union A on 1-3-5 at six seats, on 1-4 at eight."""
    if players == 8:
        return TableShape(sides=("A",) * 4 + ("B",) * 4)
    return TableShape(sides=("A", "B") * (players // 2))
