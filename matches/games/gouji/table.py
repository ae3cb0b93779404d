"""Gou Ji's table for the shared code: six seats with the unions on alternate seats (R1), or
eight seats with each union's four together (R44), as the rule set's `players` says (the
engine's `seating` decides which seat is whose)."""

from __future__ import annotations

from matches.games.gouji.engine import seating
from matches.kernel.engine_types import TableShape


def shape_for(players: int) -> TableShape:
    """The table of the rule set's `players`: union A on 1-3-5 at six seats, on 1-4 at eight."""
    return TableShape(sides=tuple(seating.union_of(s, players) for s in seating.seats(players)))
