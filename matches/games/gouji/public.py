"""What the public sees of a Gou Ji table and player: each deal's finish, points opened, the
two unions' scores and the tributes owed before it; a player's places deal by deal."""

from __future__ import annotations

from collections import defaultdict

from django.urls import reverse

from matches.games.gouji.engine.seating import head_rival
from matches.games.gouji.referee_form import seat_name, tribute_kind
from matches.games.gouji.standings import read_tally
from matches.models import TableSeat


def _seat_label(seats: dict, seat: int | None) -> str:
    if seat is None:
        return seat_name(seats, None)  # R38 place_tribute = "pool": 贡牌池
    player = seats.get(seat)
    return f"{seat} {player.player.name}" if player else str(seat)


def table(event, round_, match, read) -> tuple[str, str, dict]:
    """(page template, live fragment template, context) of a table's public page, from what the
    public view read (`matches.kernel.games.adapter.PublicTable`)."""
    seats, tallies, logged, visible = read.seats, read.tallies, read.logged, read.visible
    deals = []
    players = event.game_rules.rules.players  # R47: 串四户贡 at eight seats
    for deal in match.deals.order_by("number"):
        row = tallies.get(deal.pk)
        tally = read_tally(row) if row is not None else None
        finish = []
        if tally:
            finish = [
                {
                    "place": k + 1,
                    "seat": seat,
                    "player": seats.get(seat),
                    "opened": seat in tally.detail.points,
                }
                for k, seat in enumerate(tally.seats)
            ]
        owed = None
        if visible and deal.tributes_owed is not None:
            owed = [
                {
                    "from": _seat_label(seats, t["from"]),
                    "to": _seat_label(seats, t["to"]),
                    "kind": tribute_kind(t["kind"], players),
                    "cards": t["cards"],
                }
                for t in deal.tributes_owed
            ]
        viewer_url = None
        if deal.number in logged:
            viewer_url = reverse(
                "public:deal", args=[event.pk, round_.number, match.table.number, deal.number]
            )
        deals.append(
            {
                "deal": deal,
                "tally": tally,
                "finish": finish,
                "owed": owed,
                "viewer_url": viewer_url,
            }
        )
    context = {
        "seats": sorted(seats.values(), key=lambda s: s.seat),
        "deals": deals,
        "seat_names": {k: v.player.name for k, v in seats.items()},
    }
    return "gouji/public/table.html", "gouji/public/_table_deals.html", context


def head_rivals(seats: list) -> dict[int, TableSeat | None]:
    """Table id -> the seat facing the player's there (their head rival, R2/R45: opposite at
    six or eight seats), for the player's seats in public rounds; one query."""
    mine = {played.seat.table_id: played.seat.seat for played in seats}
    at: dict[int, dict[int, TableSeat]] = defaultdict(dict)
    for other in TableSeat.objects.filter(table_id__in=mine).select_related("player"):
        at[other.table_id][other.seat] = other
    return {
        table: at[table].get(head_rival(seat, len(at[table])))
        for table, seat in mine.items()
        if at[table] and len(at[table]) % 2 == 0
    }


def player(event, player, seats: list) -> tuple[str, dict]:
    """(template, context) of a player's public page: per round, the head rival faced (part of
    the draw, shown with it) and the places and points opened."""
    rows, totals = [], {"place_points": 0, "points": 0, "deals": 0}
    rivals = head_rivals(seats)
    place_points = event.game_rules.rules.place_points
    for played in seats:
        seat, visible = played.seat, played.visible
        places, opened = [], 0
        if visible:
            for tally in map(read_tally, played.tallies):
                place = tally.place_of(seat.seat)
                if place is not None:
                    places.append(place)
                    totals["place_points"] += place_points[place - 1]
                    totals["deals"] += 1
                    if seat.seat in tally.detail.points:
                        opened += 1
                        totals["points"] += 1
        rows.append(
            {
                "seat": seat,
                "rival": rivals.get(seat.table_id),
                "visible": visible,
                "places": places,
                "opened": opened,
            }
        )
    return "gouji/public/player.html", {"rows": rows, "totals": totals}


def table_json(row: dict, visible: bool) -> dict:
    """A table of the public pairings API: the two unions with their seats, and the result."""
    match = row["match"]

    def side(union, seats):
        if union is None:
            return None
        return {
            "id": union.pk,
            "name": union.name,
            "players": [{"seat": s.seat, "id": s.player_id, "name": s.player.name} for s in seats],
        }

    entry = {
        "table": match.table.number if match.table_id else None,
        "bye": match.is_bye,
        "union_a": side(match.union_a, row["seats_a"]),
        "union_b": side(match.union_b, row["seats_b"]),
    }
    if visible:
        entry["result"] = {
            "score_a": match.score_a,
            "score_b": match.score_b,
            "points_a": match.points_a,
            "points_b": match.points_b,
            "deals": [
                {
                    "number": t.deal.number,
                    "extra": t.deal.is_extra,
                    "score_a": t.score_a,
                    "score_b": t.score_b,
                    "finish": list(tally.seats),
                    "points": list(tally.detail.points),
                }
                for t, tally in ((t, read_tally(t)) for t in row["deals"])
            ],
        }
    return entry
