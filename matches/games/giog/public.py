"""Public pages of a Giog table and player: each hand's places, pieces won, beheadings, points.

`matches.views.public` hands over here by `event.game`; visibility is the same (`live`).
"""
from __future__ import annotations

from django.shortcuts import render

from matches.models import DealTally, TableSeat
from matches.games.giog.engine.outcome import points_for_places
from matches.events import live
from matches.games.giog.standings import format_points, numbered, points_table


def hand_row(tally, seats: dict, place_points: list) -> list[dict]:
    """One tallied hand as places: [{place, seat, player, won, points, beheaded}]."""
    seated = sum(len(group) for group in tally.finish)
    points = points_for_places(tally.finish, points_table(place_points, seated))
    rows = []
    for place, group in numbered(tally.finish):
        for seat in group:
            rows.append({"place": place, "seat": seat, "player": seats.get(seat),
                         "won": tally.points[seat - 1] if seat - 1 < len(tally.points) else None,
                         "points": format_points(points[seat]),
                         "beheaded": seat in tally.burners})
    return rows


def table_hands(match, seats: dict, visible: bool) -> list[dict]:
    tallies = {t.deal_id: t for t in DealTally.objects.filter(match=match)} if visible else {}
    hands = []
    for deal in match.deals.order_by("number"):
        tally = tallies.get(deal.pk)
        hands.append({"deal": deal, "places": hand_row(tally, seats, match.round.event.place_points)
                      if tally else []})
    return hands


def table_context(event, round_, match, poll: int) -> dict:
    visible = live.results_visible(round_)
    seats = {s.seat: s for s in TableSeat.objects.filter(table=match.table).select_related("player")}
    return {"event": event, "round": round_, "match": match,
            "seats": sorted(seats.values(), key=lambda s: s.seat),
            "hands": table_hands(match, seats, visible), "results_visible": visible,
            "live": round_.state == "published", "poll": poll}


def player_rows(event, player) -> tuple[list, dict]:
    seats = list(TableSeat.objects.filter(round__event=event, player=player,
                                          round__state__in=live.VISIBLE_ROUND_STATES)
                 .select_related("round", "table").order_by("round__number"))
    rows, totals = [], {"points": 0, "pieces": 0, "hands": 0}
    from fractions import Fraction

    total = Fraction(0)
    for seat in seats:
        visible = live.results_visible(seat.round)
        hands = []
        if visible:
            for tally in DealTally.objects.filter(match__table=seat.table).select_related(
                    "deal").order_by("deal__number"):
                seated = sum(len(group) for group in tally.finish)
                points = points_for_places(tally.finish,
                                           points_table(event.place_points, seated))
                place = next(k for k, g in numbered(tally.finish) if seat.seat in g)
                won = tally.points[seat.seat - 1]
                hands.append({"number": tally.deal.number, "place": place, "won": won,
                              "points": format_points(points[seat.seat]),
                              "beheaded": seat.seat in tally.burners})
                total += points[seat.seat]
                totals["pieces"] += won
                totals["hands"] += 1
        rows.append({"seat": seat, "visible": visible, "hands": hands})
    totals["points"] = format_points(total)
    return rows, totals


def player_page(request, event, player):
    rows, totals = player_rows(event, player)
    return render(request, "public/giog/player.html",
                  {"event": event, "player": player, "rows": rows, "totals": totals})
