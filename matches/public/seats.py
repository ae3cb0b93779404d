"""Where a union or a player sits in a round, as the public may read it: the latest round
whose draw is public (`current_round`), and each entry's table, seats, side, partners,
opponents and referee zone in it (`places`). Read by find my table and the entry card."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from matches.models import Event, Match, RefereeZone, Round, TableSeat
from matches.public import visibility


def current_round(event: Event, private: bool = False) -> Round | None:
    """The latest round whose draw the public sees; `private`: the latest published one (a
    player's own page shows their seat the moment the round is published)."""
    if private:
        rounds = event.rounds.filter(state__in=visibility.VISIBLE_ROUND_STATES)
    else:
        rounds = visibility.visible_rounds(event)
    round_ = rounds.select_related("stage").order_by("-number").first()
    if round_ is not None:
        round_.event = event
    return round_


@dataclass
class Place:
    """Where a union or a player sits in a round."""

    round: int
    table: int | None  # None: a bye
    seats: list[int] = field(default_factory=list)
    side: str = ""
    union: str = ""  # a player's union in the round
    partners: list[str] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)
    zone: str = ""

    def as_json(self) -> dict:
        return {
            "round": self.round,
            "table": self.table,
            "bye": self.table is None,
            "seats": self.seats,
            "side": self.side,
            "union": self.union,
            "partners": self.partners,
            "opponents": self.opponents,
            "zone": self.zone,
        }


def zone_name(zones: list, number: int | None) -> str:
    if number is None:
        return ""
    return next((z.name for z in zones if z.holds(number)), "")


#: The columns of a seat that `places_from` reads, in its order.
_SEAT_COLUMNS = (
    "table_id",
    "table__number",
    "seat",
    "side",
    "player_id",
    "player__name",
    "union_id",
    "union__name",
)


def seat_rows(seats) -> list[tuple]:
    return list(seats.values_list(*_SEAT_COLUMNS))


def places(round_: Round, union_ids, player_ids, zones=None) -> tuple[dict, dict]:
    """Where the given unions and players sit in `round_`: two dicts id -> Place."""
    if zones is None:
        zones = list(RefereeZone.objects.filter(event_id=round_.event_id))
    wanted = Q()
    if union_ids:
        wanted |= Q(union_id__in=list(union_ids))
    if player_ids:
        wanted |= Q(player_id__in=list(player_ids))
    if not wanted:
        return {}, {}
    # One read: every seat of the tables where the wanted unions and players sit.
    tables = TableSeat.objects.filter(wanted, round=round_).values("table_id")
    rows_read = seat_rows(TableSeat.objects.filter(table_id__in=tables))
    return places_from(round_, rows_read, union_ids, player_ids, zones)


def places_from(
    round_: Round, rows_read, union_ids, player_ids, zones, byes=None
) -> tuple[dict, dict]:
    """`places` from the seats read (`_SEAT_COLUMNS`); `byes`: the union ids of the round's
    byes when already read (else read for the unions without a seat)."""
    seats_by_table: dict[int, list] = {}
    numbers: dict[int, int] = {}
    mine: list[tuple[int, int, int | None]] = []
    for table_id, number, seat, side, pid, pname, uid, uname in rows_read:
        numbers[table_id] = number
        seats_by_table.setdefault(table_id, []).append((seat, side, pid, pname, uid, uname or ""))
        if uid in union_ids or pid in player_ids:
            mine.append((table_id, pid, uid))
    for rows in seats_by_table.values():
        rows.sort()
    by_union: dict[int, Place] = {}
    by_player: dict[int, Place] = {}
    team = round_.event.is_team

    def place_for(table_id: int, side: str, me_player=None, me_union=None) -> Place:
        rows = seats_by_table[table_id]
        number = numbers[table_id]
        place = Place(round=round_.number, table=number, side=side, zone=zone_name(zones, number))
        others = [r for r in rows if (r[1] != side if side else r[2] != me_player)]
        if side and team:
            place.opponents = list(dict.fromkeys(r[5] for r in others if r[5]))
        else:
            place.opponents = [r[3] for r in others]
        if me_union is not None:
            place.seats = [r[0] for r in rows if r[4] == me_union]
        return place

    for table_id, pid, uid in mine:
        if uid is not None and uid in union_ids and uid not in by_union:
            side = next(r[1] for r in seats_by_table[table_id] if r[4] == uid)
            by_union[uid] = place_for(table_id, side, me_union=uid)
        if pid in player_ids:
            row = next(r for r in seats_by_table[table_id] if r[2] == pid)
            place = place_for(table_id, row[1], me_player=pid)
            place.seats = [row[0]]
            place.union = row[5]
            place.partners = [
                r[3] for r in seats_by_table[table_id] if row[1] and r[1] == row[1] and r[2] != pid
            ]
            by_player[pid] = place
    # Byes: a union side without a table.
    missing = [u for u in union_ids if u not in by_union]
    if missing and byes is None:
        byes = Match.objects.filter(
            round=round_, table__isnull=True, sides__union_id__in=missing
        ).values_list("sides__union_id", flat=True)
    for uid in byes or ():
        if uid in union_ids and uid not in by_union:
            by_union[uid] = Place(round=round_.number, table=None)
    return by_union, by_player
