"""Read an event's history into the plain values the seating engine takes (no writes)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from matches.draw.entrants import active_registrations
from matches.kernel.pairing.individual import Player as DrawPlayer
from matches.kernel.pairing.types import Entrant
from matches.models import Event, MatchSide, Round, TableSeat
from matches.models.round import SIDE_A, SIDE_B


@dataclass
class History:
    """What earlier rounds of an event say about each union (team) or player (individual)."""

    score: dict = field(default_factory=lambda: defaultdict(int))
    score_difference: dict = field(default_factory=lambda: defaultdict(int))
    opponents: dict = field(default_factory=lambda: defaultdict(set))
    partners: dict = field(default_factory=lambda: defaultdict(set))
    sides: dict = field(default_factory=lambda: defaultdict(list))
    byes: dict = field(default_factory=lambda: defaultdict(int))


def union_history(event: Event, before_round: int) -> History:
    history = History()
    sides = list(
        MatchSide.objects.filter(
            round__event=event, round__number__lt=before_round, union__isnull=False
        )
        .select_related("match")
        .order_by("round__number")
    )
    union_at = {(side.match_id, side.position): side.union_id for side in sides}
    for side in sides:
        match, union = side.match, side.union_id
        if side.position == MatchSide.BYE:
            history.byes[union] += 1
            history.score[union] += match.points_a or 0
            continue
        mine, theirs = ("a", "b") if side.position == SIDE_A else ("b", "a")
        other_position = SIDE_B if side.position == SIDE_A else SIDE_A
        history.opponents[union].add(union_at.get((side.match_id, other_position)))
        history.sides[union].append(side.position)
        history.score[union] += getattr(match, f"points_{mine}") or 0
        own, other = getattr(match, f"score_{mine}"), getattr(match, f"score_{theirs}")
        if own is not None and other is not None:
            history.score_difference[union] += own - other
    return history


def player_history(event: Event, before_round: int) -> History:
    history = History()
    seats = (
        TableSeat.objects.filter(round__event=event, round__number__lt=before_round)
        .select_related("table__match")
        .order_by("table_id", "seat")
    )
    by_table = defaultdict(list)
    for seat in seats:
        by_table[seat.table_id].append(seat)
    for table_seats in by_table.values():
        match = table_seats[0].table.match
        for seat in table_seats:
            mates = {s.player_id for s in table_seats if s.side == seat.side} - {seat.player_id}
            others = {s.player_id for s in table_seats if s.side != seat.side}
            history.partners[seat.player_id] |= mates
            history.opponents[seat.player_id] |= others
            history.sides[seat.player_id].append(seat.side)
            points = match.points_a if seat.side == SIDE_A else match.points_b
            history.score[seat.player_id] += points or 0
    for past in Round.objects.filter(event=event, number__lt=before_round):
        for player_id in past.quality.get("sitting_out", []):
            history.byes[player_id] += 1
            history.score[player_id] += event.points_bye
    return history


def standings(event: Event, before_round: int) -> list[int]:
    """Union ids best first: match points, then deal-score difference, then seed.

    (The full, configurable tie-break order is the standings issue's; this is enough to seed a
    knockout that follows a Swiss stage.)
    """
    history = union_history(event, before_round)
    registrations = active_registrations(event, before_round)
    order = {r.union_id: index for index, r in enumerate(registrations) if r.union_id is not None}
    return sorted(
        order,
        key=lambda u: (-history.score[u], -history.score_difference[u], order[u]),
    )


def entrants(event: Event, round_number: int) -> dict:
    history = union_history(event, round_number)
    entrants = {}
    for rank, registration in enumerate(active_registrations(event, round_number), start=1):
        union = registration.union
        if union is None:
            continue
        entrants[union.id] = Entrant(
            id=union.id,
            score=history.score[union.id],
            rank=rank,
            opponents=frozenset(history.opponents[union.id]),
            sides=tuple(history.sides[union.id]),
            byes=history.byes[union.id],
            club=union.club_id,
        )
    return entrants


def players(event: Event, round_number: int) -> dict:
    history = player_history(event, round_number)
    players = {}
    for rank, registration in enumerate(active_registrations(event, round_number), start=1):
        player = registration.player
        if player is None:
            continue
        players[player.id] = DrawPlayer(
            id=player.id,
            score=history.score[player.id],
            rank=rank,
            club=player.club_id,
            partners=frozenset(history.partners[player.id]),
            opponents=frozenset(history.opponents[player.id]),
            byes=history.byes[player.id],
        )
    return players
