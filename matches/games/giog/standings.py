"""Giog standings: hand tallies, table completion and individual standings by place points.

Called by `matches.standings.service` for Giog events (the Celery tasks and the
`deal_result_changed` signal are the same as for Gou Ji). A hand's `DealTally` row holds the
places (seats grouped best first; G11, beheaded last, G12), no sides' scores (a side is one
player), and the hand's `GiogTally` as its `detail`: the pieces each seat won and the beheaded
seats. A table is complete (`Match.completed_at`) when every hand has its final result.

Ranking (docs/giog.md): total place points, then pieces won, then first places, then fewer
beheadings; players equal on all four share a rank.
"""

from __future__ import annotations

import logging
from fractions import Fraction
from typing import Any, Sequence

from matches.games.giog.engine.outcome import points_for_places
from matches.games.giog.engine.verdict import GiogDealVerdict, GiogTally
from matches.kernel.engine_types import Tally, places_from_json
from matches.kernel.match_result import store_match_result
from matches.kernel.tallies import write_tallies
from matches.models import DealTally, Match, Registration, TableSeat

log = logging.getLogger(__name__)


def tally_hand(report) -> Tally[GiogTally] | None:
    """A final hand report's tally, or None when it cannot be read."""
    try:
        verdict = GiogDealVerdict.from_json(report.verdict or {})
        won = verdict.won or tuple(
            (int(seat), n) for seat, n in ((report.summary or {}).get("won") or {}).items()
        )
        if not verdict.checked.places or not won:
            return None
        return Tally(
            places=tuple(tuple(sorted(group)) for group in verdict.checked.places),
            detail=GiogTally(
                won=tuple(sorted((int(seat), int(n)) for seat, n in won)),
                beheaded=tuple(sorted(verdict.beheaded)),
            ),
        )
    except (AttributeError, KeyError, TypeError, ValueError) as error:
        log.error("deal %s: final report %s unreadable: %s", report.deal_id, report.pk, error)
        return None


def read_tally(row) -> Tally[GiogTally]:
    """A stored `DealTally` with its Giog document."""
    return Tally(
        places=places_from_json(row.places),
        detail=GiogTally.from_json(row.detail),
        score_a=row.score_a,
        score_b=row.score_b,
    )


def settle_match(match: Match) -> Match:
    """Tally every final hand of a Giog table; the table is complete when every hand is."""
    event = match.round.event
    deals = list(match.deals.order_by("number"))
    tallies = write_tallies(match, deals, lambda report, _before: tally_hand(report))
    regular = [d for d in deals if d.number <= event.deals_per_match]
    done = all(d.pk in tallies for d in regular)
    # Giog has no match result: the table is complete when every hand has its final result.
    store_match_result(match, {}, complete=done)
    return match


def points_table(place_points: list, players: int) -> list[int]:
    """The event's points for a table of `players`: the best places take the first entries,
    the last place always the last entry (so a beheaded or last player scores the bottom
    value at any table, and tables of 3 and 4 give nearly the same points on average)."""
    table = list(place_points)
    return table[: players - 1] + [table[-1]]


def numbered(groups: Sequence[Any]) -> list[tuple[int, Any]]:
    """Places as a table shows them: a shared place counts its players, so 1, 2, 2, 4."""
    numbered_groups, ahead = [], 0
    for group in groups:
        numbered_groups.append((ahead + 1, group))
        ahead += len(group)
    return numbered_groups


def format_points(value: Fraction) -> str:
    """7.5, 4⅓ would be 4.33: two decimals at most, exact value kept in `points`."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def player_rows(event, rounds) -> list[dict]:
    players = dict(
        Registration.objects.filter(event=event, player__isnull=False).values_list(
            "player_id", "player__name"
        )
    )
    seats = {}
    for table_id, seat, player_id, name in TableSeat.objects.filter(round__in=rounds).values_list(
        "table_id", "seat", "player_id", "player__name"
    ):
        seats[(table_id, seat)] = player_id
        players.setdefault(player_id, name)
    lines: dict[int, dict[str, Any]] = {
        pid: {
            "player": pid,
            "name": name,
            "union": "",
            "points": Fraction(0),
            "pieces": 0,
            "firsts": 0,
            "beheaded": 0,
            "hands": 0,
        }
        for pid, name in players.items()
    }
    place_points = list(event.game_rules.place_points)
    for table_id, places, detail in DealTally.objects.filter(match__round__in=rounds).values_list(
        "match__table_id", "places", "detail"
    ):
        tally = GiogTally.from_json(detail)
        won, beheaded = tally.won_by_seat, tally.beheaded
        seated = sum(len(group) for group in places)
        points = points_for_places(places, points_table(place_points, seated))
        for seat, value in points.items():
            pid = seats.get((table_id, seat))
            if pid is None:
                continue
            line = lines[pid]
            line["hands"] += 1
            line["points"] += value
            line["pieces"] += won.get(seat, 0)
            line["firsts"] += int(seat in places[0] and seat not in beheaded)
            line["beheaded"] += int(seat in beheaded)
    return rank(list(lines.values()))


def rank_key(line: dict) -> tuple:
    return (line["points"], line["pieces"], line["firsts"], -line["beheaded"])


def rank(lines: list[dict]) -> list[dict]:
    """Best first; lines equal on every criterion share a rank (listed by name)."""
    ordered = sorted(lines, key=lambda x: (tuple(-v for v in rank_key(x)), x["name"], x["player"]))
    previous, position = None, 0
    rows = []
    for index, line in enumerate(ordered, start=1):
        if rank_key(line) != previous:
            position, previous = index, rank_key(line)
        rows.append(
            {
                **line,
                "rank": position,
                "points": str(line["points"]),
                "points_display": format_points(line["points"]),
            }
        )
    return rows
