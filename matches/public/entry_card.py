"""The entry card: a union's or a player's every round (table, seats, opponents, result and
running rank), each only as far as the public may read it."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from matches.models import Event, Match, RefereeZone, Round, Union
from matches.public import ranks as rank_rules
from matches.public import visibility
from matches.public.seats import Place, places
from players.models import Player


@dataclass
class CardRow:
    round: int
    place: Place | None
    result: str = ""  # "3 : 0 (+42)" once the public may read it
    points: int | None = None
    rank: str = ""  # "3", "=3" (shared), "" (no result yet)
    of: int | None = None


def card(event: Event, union: Union | None = None, player: Player | None = None) -> list[CardRow]:
    """A union's or a player's rounds: table, seats, opponents, result and running rank, each
    only as far as the public may read it."""
    rounds = list(visibility.visible_rounds(event))
    zones = list(RefereeZone.objects.filter(event=event))
    kind = "unions" if union is not None else "players"
    ranks = {}
    for snapshot in visibility.visible_snapshots(event, kind):
        key = "union" if union is not None else "player"
        me = union.pk if union is not None else player.pk  # type: ignore[union-attr]
        row = next((r for r in snapshot.rows if r.get(key) == me), None)
        # No rank before the entry's first result ("1/180" before a game said nothing true);
        # a shared rank is marked "=" (`matches.public.ranks`).
        if row and rank_rules.has_result(row):
            ranks[snapshot.round_id] = (
                rank_rules.label(row, rank_rules.shared(snapshot.rows)),
                len(snapshot.rows),
            )
    rows = []
    for round_ in rounds:
        round_.event = event
        u_ids = {union.pk} if union is not None else set()
        p_ids = {player.pk} if player is not None else set()
        by_union, by_player = places(round_, u_ids, p_ids, zones)
        place = by_union.get(union.pk) if union is not None else by_player.get(player.pk)  # type: ignore[union-attr]
        row = CardRow(round=round_.number, place=place)
        if place is not None and visibility.results_visible(round_):
            row.result, row.points = _result(round_, place, union, player)
        if round_.pk in ranks:
            row.rank, row.of = ranks[round_.pk]
        rows.append(row)
    return rows


def _result(round_: Round, place: Place, union, player) -> tuple[str, int | None]:
    """The match's result from this side: "score : score" and match points."""
    if place.table is None:
        return _("轮空"), round_.event.points_bye
    match = Match.objects.filter(round=round_, table__number=place.table).first()
    if match is None or not match.is_complete or not place.side:
        return "", None
    mine, theirs = (
        (match.score_a, match.score_b) if place.side == "A" else (match.score_b, match.score_a)
    )
    points = match.points_a if place.side == "A" else match.points_b
    if mine is None or theirs is None:
        return "", points
    return f"{mine} : {theirs}", points
