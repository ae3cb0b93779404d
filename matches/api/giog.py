"""The public pairings of a Giog round: tables of 2-4 players and each hand's result."""
from __future__ import annotations

from matches.models import DealTally, TableSeat
from matches.games.giog.public import hand_row


def giog_tables(round_, visible: bool) -> list[dict]:
    seats: dict = {}
    for seat in TableSeat.objects.filter(round=round_).select_related("player").order_by("seat"):
        seats.setdefault(seat.table_id, []).append(seat)
    tallies: dict = {}
    if visible:
        for t in DealTally.objects.filter(match__round=round_).select_related("deal").order_by(
                "deal__number"):
            tallies.setdefault(t.match_id, []).append(t)
    tables = []
    place_points = round_.event.place_points
    for match in round_.matches.select_related("table").order_by("table__number", "id"):
        table_seats = seats.get(match.table_id, [])
        entry = {"table": match.table.number, "bye": False,
                 "players": [{"seat": s.seat, "id": s.player_id, "name": s.player.name}
                             for s in table_seats]}
        if visible:
            by_seat = {s.seat: s for s in table_seats}
            entry["result"] = {
                "complete": match.points_a is not None,
                "hands": [{"number": t.deal.number, "places": t.finish,
                           "won": {str(k): n for k, n in enumerate(t.points, 1)},
                           "beheaded": t.burners,
                           "points": {str(p["seat"]): p["points"]
                                      for p in hand_row(t, by_seat, place_points)}}
                          for t in tallies.get(match.pk, [])],
            }
        tables.append(entry)
    return tables
