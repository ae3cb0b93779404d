"""What the public sees of a Giog table and player: each hand's places, pieces won, beheadings
and points (the shared public pages and API call these through the Giog adapter)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from matches.games.giog.engine.outcome import points_for_places
from matches.games.giog.standings import format_points, numbered, points_table, read_tally
from matches.kernel.engine_types import places_to_json
from matches.models import TableSeat


def hand_row(row, seats: dict, place_points: list) -> list[dict]:
    """One tallied hand (a `DealTally`) as places: [{place, seat, player, won, points,
    beheaded}]."""
    tally = read_tally(row)
    won = tally.detail.won_by_seat
    seated = len(tally.seats)
    points = points_for_places(tally.places, points_table(place_points, seated))
    rows = []
    for place, group in numbered(tally.places):
        for seat in group:
            rows.append(
                {
                    "place": place,
                    "seat": seat,
                    "player": seats.get(seat),
                    "won": won.get(seat),
                    "points": format_points(points[seat]),
                    "beheaded": seat in tally.detail.beheaded,
                }
            )
    return rows


def table(event, round_, match, read) -> tuple[str, str, dict]:
    """(page template, live fragment template, context) of a table's public page, from what the
    public view read (`matches.kernel.games.adapter.PublicTable`)."""
    seats, tallies, logged = read.seats, read.tallies, read.logged
    hands = [
        {
            "deal": deal,
            "places": hand_row(tallies[deal.pk], seats, list(event.game_rules.place_points))
            if deal.pk in tallies
            else [],
            "viewer_url": reverse(
                "public:deal", args=[event.pk, round_.number, match.table.number, deal.number]
            )
            if deal.number in logged
            else None,
        }
        for deal in match.deals.order_by("number")
    ]
    context = {"seats": sorted(seats.values(), key=lambda s: s.seat), "hands": hands}
    return "giog/public/table.html", "giog/public/_table_hands.html", context


def player(event, player, seats: list) -> tuple[str, dict]:
    """(template, context) of a player's public page: place, pieces and points per hand."""
    rows: list[dict[str, Any]] = []
    totals: dict[str, Any] = {"points": 0, "pieces": 0, "hands": 0}
    total = Fraction(0)
    for played in seats:
        seat, visible = played.seat, played.visible
        hands = []
        if visible:
            for row in played.tallies:
                tally = read_tally(row)
                points = points_for_places(
                    tally.places,
                    points_table(list(event.game_rules.place_points), len(tally.seats)),
                )
                place = tally.place_of(seat.seat)
                won = tally.detail.won_by_seat[seat.seat]
                hands.append(
                    {
                        "number": row.deal.number,
                        "place": place,
                        "won": won,
                        "points": format_points(points[seat.seat]),
                        "beheaded": seat.seat in tally.detail.beheaded,
                    }
                )
                total += points[seat.seat]
                totals["pieces"] += won
                totals["hands"] += 1
        rows.append({"seat": seat, "visible": visible, "hands": hands})
    totals["points"] = format_points(total)
    return "giog/public/player.html", {"rows": rows, "totals": totals}


def table_json(row: dict, visible: bool) -> dict:
    """A table of the public pairings API: its players by seat, and each hand's result."""
    match = row["match"]
    entry = {
        "table": match.table.number,
        "bye": False,
        "players": [
            {"seat": s.seat, "id": s.player_id, "name": s.player.name} for s in row["seats"]
        ],
    }
    if visible:
        by_seat = {s.seat: s for s in row["seats"]}
        entry["result"] = {
            "complete": match.is_complete,
            "hands": [
                {
                    "number": t.deal.number,
                    "places": places_to_json(tally.places),
                    "won": tally.detail.to_json()["won"],
                    "beheaded": list(tally.detail.beheaded),
                    "points": {
                        str(p["seat"]): p["points"]
                        for p in hand_row(
                            t, by_seat, list(match.round.event.game_rules.place_points)
                        )
                    },
                }
                for t, tally in ((t, read_tally(t)) for t in row["deals"])
            ],
        }
    return entry


def results_table(event, matches, tallies: dict) -> tuple[list[str], list[list]]:
    """One line per seat and hand: places (G11/G12), pieces won, beheaded, points."""
    header = [
        _("轮次"),
        _("桌号"),
        _("手"),
        _("名次"),
        _("座位"),
        _("选手"),
        _("赢子"),
        _("斩首"),
        _("积分"),
    ]
    seats: dict[int, dict[int, TableSeat]] = {}
    for seat in TableSeat.objects.filter(round__event=event).select_related("player"):
        seats.setdefault(seat.table_id, {})[seat.seat] = seat
    rows = []
    for match in matches:
        for t in sorted(tallies.get(match.pk, []), key=lambda t: t.deal.number):
            table_seats = seats.get(match.table_id, {})
            for p in hand_row(t, table_seats, list(event.game_rules.place_points)):
                rows.append(
                    [
                        match.round.number,
                        match.table.number,
                        t.deal.number,
                        p["place"],
                        p["seat"],
                        p["player"].player.name if p["player"] else "",
                        p["won"],
                        "1" if p["beheaded"] else "",
                        p["points"],
                    ]
                )
    return header, rows
