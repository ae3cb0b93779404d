"""Single elimination with seeding and byes.

The bracket has the next power of two places. Seeds are placed so that 1 and 2 can only meet
in the final, 1-4 and 2-3 in the semi-finals, and so on; the places left over are byes, which
therefore go to the top seeds.
"""

from __future__ import annotations

from typing import Hashable, Sequence

from . import types as flags
from .types import Pairing, SeatingError


def bracket_order(places: int) -> list[int]:
    """Seed numbers in bracket order: 2 -> [1, 2]; 4 -> [1, 4, 2, 3];
    8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    if places < 2 or places & (places - 1):
        raise SeatingError("a bracket has a power of two places")
    order = [1, 2]
    while len(order) < places:
        total = len(order) * 2 + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def first_round(seeded: Sequence[Hashable]) -> list[Pairing]:
    """Pairings of the first knockout round, top of the bracket first; a bye where the seed
    number is past the field."""
    seeded = list(seeded)
    if len(seeded) < 2:
        raise SeatingError("a knockout needs at least two entrants")
    if len(set(seeded)) != len(seeded):
        raise SeatingError("the same entrant is seeded twice")
    places = 1
    while places < len(seeded):
        places *= 2
    order = bracket_order(places)
    pairings = []
    for k in range(0, places, 2):
        top, bottom = order[k], order[k + 1]
        if bottom > len(seeded):
            pairings.append(
                Pairing(a=seeded[top - 1], b=None, flags=[flags.BYE], details={"seed_a": top})
            )
        else:
            pairings.append(
                Pairing(
                    a=seeded[top - 1],
                    b=seeded[bottom - 1],
                    details={"seed_a": top, "seed_b": bottom},
                )
            )
    return pairings


def next_round(winners_in_bracket_order: Sequence[Hashable]) -> list[Pairing]:
    """Winners of the previous round, in bracket order, meet their neighbours."""
    winners = list(winners_in_bracket_order)
    if len(winners) < 2 or len(winners) % 2:
        raise SeatingError("a knockout round needs an even number of winners")
    return [Pairing(a=winners[k], b=winners[k + 1]) for k in range(0, len(winners), 2)]
