"""The result of a hand: places (G11, G12), the referee's summary `giog-outcome/1`, and
tournament points per place.

A summary is what a referee reports without a play log (see docs/giog.md):

    {"format": "giog-outcome/1", "players": 4,
     "won": {"1": 12, "2": 4, "3": 8, "4": 8}, "beheaded": [2]}
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable, Mapping, Sequence

from matches.kernel.engine_errors import BadDocument, JSONObject, RuleError

from .pieces import DISTRIBUTION, SET_SIZE
from .record import parse_players, parse_seat_list, parse_won, reject_unknown, require_object
from .verdict import SummaryVerdict

OUTCOME_FORMAT = "giog-outcome/1"
OUTCOME_FIELDS = ("format", "players", "won", "beheaded")


def places(won: Mapping[int, int], beheaded: Iterable[int] = ()) -> list[list[int]]:
    """Seats grouped by place, best first.

    G11: most pieces won is best, equal counts share a place. G12: beheaded players are the
    losers whatever they won, and together form one last group.
    """
    beheaded = set(beheaded)
    alive = [seat for seat in won if seat not in beheaded]
    groups: list[list[int]] = []
    for count in sorted({won[s] for s in alive}, reverse=True):
        groups.append(sorted(s for s in alive if won[s] == count))
    if beheaded:
        groups.append(sorted(beheaded))
    return groups


def points_for_places(
    groups: Sequence[Sequence[int]], table: Sequence[int | Fraction]
) -> dict[int, Fraction]:
    """Tournament points for each seat from its place and a points table (best place first).

    Players who share a place split the points of the places they fill equally: with 3/2/1/0
    and two players tied second, each gets (2 + 1) / 2 = 3/2. Exact fractions, so that no
    point is lost to rounding; the caller converts for display or storage.
    """
    seats = sum(len(g) for g in groups)
    if len(table) < seats:
        raise ValueError(f"the points table has {len(table)} entries for {seats} players")
    points: dict[int, Fraction] = {}
    filled = 0
    for group in groups:
        share = Fraction(sum(table[filled : filled + len(group)])) / len(group)
        for seat in group:
            points[seat] = share
        filled += len(group)
    return points


def _error(rule: str, code: str, message: str, **params: Any) -> RuleError:
    # params: the numbers of the message, for a translation to fill in
    return RuleError(rule, code, message, params)


def check_summary(document: object) -> JSONObject:
    """`summary_verdict` as the spec's JSON (the command line and the rules API)."""
    return summary_verdict(document).to_json()


def summary_verdict(document: object) -> SummaryVerdict:
    """Check a `giog-outcome/1` summary; the verdict has `valid`, `errors` and `places`.

    Raises `BadDocument` when it cannot be read. Every inconsistency is listed, each with its
    rule id; `places` is given only when the summary is valid.
    """
    doc = require_object(document, "document")
    reject_unknown(doc, OUTCOME_FIELDS, "document")
    missing = [name for name in ("format", "players", "won") if name not in doc]
    if missing:
        raise BadDocument(f"document: missing field(s) {', '.join(missing)}")
    if doc["format"] != OUTCOME_FORMAT:
        raise BadDocument(f"format: expected {OUTCOME_FORMAT!r}, got {doc['format']!r}")
    players = parse_players(doc["players"])
    won = parse_won(doc["won"], players, "won")
    beheaded = parse_seat_list(doc.get("beheaded", []), players, "beheaded")

    errors: list[RuleError] = []
    absent = [s for s in range(1, players + 1) if s not in won]
    if absent:
        errors.append(
            _error(
                "G11",
                "missing_seat",
                f"won has no count for seat(s) {', '.join(map(str, absent))}; "
                "list every seat, zeros included",
                seats=", ".join(map(str, absent)),
            )
        )
    for seat, count in sorted(won.items()):
        if count < 0:
            errors.append(
                _error(
                    "G10", "negative_won", f"seat {seat} won {count} pieces", seat=seat, count=count
                )
            )
        elif count % players:
            # Every trick takes as many pieces from each player, so a trick is worth a
            # multiple of the number of players.
            errors.append(
                _error(
                    "G10",
                    "not_whole_tricks",
                    f"seat {seat} won {count} pieces, not a multiple of "
                    f"{players} (each trick takes the same number from each "
                    "player)",
                    seat=seat,
                    count=count,
                    players=players,
                )
            )
    in_play = SET_SIZE - DISTRIBUTION[players][1]
    total = sum(won.values())
    if total != in_play:
        errors.append(
            _error(
                "G10",
                "won_total",
                f"won adds up to {total} pieces, but {players} players have "
                f"{in_play} pieces in play (G4)",
                total=total,
                players=players,
                in_play=in_play,
            )
        )
    if len(set(beheaded)) != len(beheaded):
        errors.append(_error("G12", "duplicate_beheaded", "a seat is listed twice in beheaded"))
    if len(set(beheaded)) > 2:
        errors.append(
            _error(
                "G12",
                "too_many_beheaded",
                f"{len(set(beheaded))} players beheaded, but there are only two Generals",
                count=len(set(beheaded)),
            )
        )
    return SummaryVerdict(
        valid=not errors,
        errors=tuple(errors),
        places=tuple(map(tuple, places(won, beheaded))) if not errors else (),
    )
