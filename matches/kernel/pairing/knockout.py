"""Single elimination with seeding, byes and clubmates kept apart in the first round.

The bracket has the next power of two places. Seeds are placed so that 1 and 2 can only meet
in the final, 1-4 and 2-3 in the semi-finals, and so on; the places left over are byes, which
therefore go to the top seeds.

Clubs: the top half of the seeds (1 … places/2) keep their places; their first-round opponents
(the bottom half, one band of equal standing) may be exchanged among themselves so that no
union meets a clubmate, the fewest and smallest exchanges first. When that is impossible the
clubmates still meet and their pairings say so (`CLUB_CLASH`): the count is always the real one.
"""

from __future__ import annotations

from typing import Any, Hashable, Mapping, Sequence

from . import types as flags
from .matching import min_cost_perfect_matching
from .types import Pairing, SeatingError

#: entrant -> its club (None: no club)
Clubs = Mapping[Hashable, Hashable | None]


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


def bracket_places(entrants: int) -> int:
    places = 1
    while places < entrants:
        places *= 2
    return places


def same_club(a: Hashable, b: Hashable | None, clubs: Clubs) -> bool:
    if b is None:
        return False
    club = clubs.get(a)
    return club is not None and club == clubs.get(b)


def _opponents_apart(top_seeds: list[int], seeded: list[Hashable], clubs: Clubs) -> dict[int, int]:
    """{top seed: bottom seed it meets}: the standard opponent (places + 1 - seed) unless an
    exchange inside the bottom band keeps clubmates apart. Costs, most important first: a
    clubmate meeting, then how far the opponent moved from its standard place."""
    places = bracket_places(len(seeded))
    standard = {top: places + 1 - top for top in top_seeds}
    bottom = sorted(standard.values())
    costs: dict[tuple[tuple[str, int], tuple[str, int]], tuple[int, ...]] = {}
    for top in top_seeds:
        for low in bottom:
            clash = same_club(seeded[top - 1], seeded[low - 1], clubs)
            costs[(("top", top), ("low", low))] = (int(clash), abs(low - standard[top]))
    nodes = [("top", t) for t in top_seeds] + [("low", b) for b in bottom]
    matched = min_cost_perfect_matching(nodes, costs)
    if matched is None:  # cannot happen: the graph is complete bipartite
        return standard
    return {u[1]: v[1] for u, v in matched}


def first_round(seeded: Sequence[Hashable], clubs: Clubs | None = None) -> list[Pairing]:
    """Pairings of the first knockout round, top of the bracket first; a bye where the seed
    number is past the field. `clubs` maps an entrant to its club (None: no club)."""
    seeded = list(seeded)
    clubs = clubs or {}
    if len(seeded) < 2:
        raise SeatingError("a knockout needs at least two entrants", code="too_few", at_least=2)
    if len(set(seeded)) != len(seeded):
        raise SeatingError("the same entrant is seeded twice", code="entered_twice")
    places = bracket_places(len(seeded))
    order = bracket_order(places)
    playing = [top for top in order[0::2] if places + 1 - top <= len(seeded)]
    opponent = _opponents_apart(playing, seeded, clubs)
    pairings = []
    for k in range(0, places, 2):
        top = order[k]
        if top not in opponent:
            pairings.append(
                Pairing(a=seeded[top - 1], b=None, flags=[flags.BYE], details={"seed_a": top})
            )
            continue
        bottom = opponent[top]
        pairing = Pairing(
            a=seeded[top - 1], b=seeded[bottom - 1], details={"seed_a": top, "seed_b": bottom}
        )
        if bottom != order[k + 1]:
            pairing.details["moved_from"] = order[k + 1]  # exchanged to keep clubmates apart
        if same_club(pairing.a, pairing.b, clubs):
            pairing.flags.append(flags.CLUB_CLASH)
        pairings.append(pairing)
    return pairings


def next_round(
    winners_in_bracket_order: Sequence[Hashable], clubs: Clubs | None = None
) -> list[Pairing]:
    """Winners of the previous round, in bracket order, meet their neighbours (clubmates
    included: the bracket decides; the pairing says so)."""
    winners = list(winners_in_bracket_order)
    clubs = clubs or {}
    if len(winners) < 2 or len(winners) % 2:
        raise SeatingError("a knockout round needs an even number of winners")
    pairings = []
    for k in range(0, len(winners), 2):
        pairing = Pairing(a=winners[k], b=winners[k + 1])
        if same_club(pairing.a, pairing.b, clubs):
            pairing.flags.append(flags.CLUB_CLASH)
        pairings.append(pairing)
    return pairings


def measure(pairings: Sequence[Pairing]) -> dict[str, Any]:
    """A knockout round's record: the real number of clubmate meetings, tables, byes."""
    played = [p for p in pairings if not p.is_bye]
    return {
        "method": "knockout",
        "tables": len(played),
        "byes": len(pairings) - len(played),
        "club_clashes": sum(1 for p in played if flags.CLUB_CLASH in p.flags),
        "moved_for_clubs": sum(1 for p in played if "moved_from" in p.details),
    }
