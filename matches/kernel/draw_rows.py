"""The rows of a round drawn as tables of players: shared by the draw service (an individual
Gou Ji event drawn into unions) and the games that seat their own tables (Giog: one side per
player, no unions), and the tables flagged again after a hand swap. Writes models only; the
pairing itself is the pure `matches.kernel.pairing`'s or the game's."""

from __future__ import annotations

from collections import defaultdict

from matches.kernel.pairing import types as flags
from matches.models import Match, MatchSide, Round, Table, TableSeat, Union, UnionMember
from matches.models.round import SIDE_A, SIDE_B


def write_individual_tables(round_: Round, drawn_tables: list) -> None:
    tables = Table.objects.bulk_create(
        [Table(round=round_, number=k) for k in range(1, len(drawn_tables) + 1)]
    )
    unions = Union.objects.bulk_create(
        [
            Union(event=round_.event, round=round_, name=f"{round_.number}-{table.number}{side}")
            for table in tables
            for side in (SIDE_A, SIDE_B)
        ]
    )
    members, matches, sides, seats = [], [], [], []
    for k, (table, drawn) in enumerate(zip(tables, drawn_tables)):
        union_a, union_b = unions[2 * k], unions[2 * k + 1]
        for union, players in ((union_a, drawn.union_a), (union_b, drawn.union_b)):
            for order, player_id in enumerate(players, start=1):
                members.append(
                    UnionMember(
                        union=union,
                        player_id=player_id,
                        event=round_.event,
                        round=round_,
                        order=order,
                        is_captain=order == 1,
                    )
                )
        matches.append(
            Match(round=round_, table=table, flags=drawn.flags, details=jsonable(drawn.details))
        )
    UnionMember.objects.bulk_create(members)
    Match.objects.bulk_create(matches)
    for k, (table, drawn, match) in enumerate(zip(tables, drawn_tables, matches)):
        union_a, union_b = unions[2 * k], unions[2 * k + 1]
        sides += [
            MatchSide(round=round_, match=match, union=union_a, position=SIDE_A),
            MatchSide(round=round_, match=match, union=union_b, position=SIDE_B),
        ]
        for seat, (player_id, side) in enumerate(zip(drawn.seats, drawn.sides), start=1):
            seats.append(
                TableSeat(
                    table=table,
                    round=round_,
                    seat=seat,
                    side=side,
                    player_id=player_id,
                    union=union_a if side == SIDE_A else union_b,
                )
            )
    MatchSide.objects.bulk_create(sides)
    TableSeat.objects.bulk_create(seats)


def write_player_tables(round_: Round, drawn_tables: list) -> None:
    """Tables of a game whose sides are single players (Giog): per table a match with one
    side per seated player, seat order; no unions."""
    tables = Table.objects.bulk_create(
        [Table(round=round_, number=k) for k in range(1, len(drawn_tables) + 1)]
    )
    matches = Match.objects.bulk_create(
        [
            Match(round=round_, table=table, flags=drawn.flags, details=jsonable(drawn.details))
            for table, drawn in zip(tables, drawn_tables)
        ]
    )
    sides, seats = [], []
    for table, drawn, match in zip(tables, drawn_tables, matches):
        for seat, player_id in enumerate(drawn.seats, start=1):
            sides.append(
                MatchSide(round=round_, match=match, position=str(seat), player_id=player_id)
            )
            seats.append(TableSeat(table=table, round=round_, seat=seat, player_id=player_id))
    MatchSide.objects.bulk_create(sides)
    TableSeat.objects.bulk_create(seats)


def seats_by_table(round_: Round) -> dict[int, dict[int, int]]:
    """table id -> {seat: player id}: who sits where in the round now."""
    by_table: defaultdict[int, dict[int, int]] = defaultdict(dict)
    for seat in TableSeat.objects.filter(round=round_):
        by_table[seat.table_id][seat.seat] = seat.player_id
    return by_table


def write_reflagged(round_: Round, table_ids: set, described: dict, quality: dict) -> None:
    """After a hand swap of a round drawn as tables of players: each changed table's match
    takes its table's flags (and the hand swap's) and details as `described` (table id -> the
    table described again), and the round its `quality` with the hand swaps counted."""
    for match in Match.objects.filter(table_id__in=table_ids):
        assert match.table_id is not None  # filtered by its table
        table = described[match.table_id]
        match.flags = table.flags + [flags.HAND_SWAP]
        match.details = jsonable(table.details)
        match.save(update_fields=["flags", "details"])
    quality = {**quality}
    quality["hand_swaps"] = sum(1 for m in round_.matches.all() if flags.HAND_SWAP in m.flags)
    round_.quality = {**round_.quality, **quality}
    round_.save(update_fields=["quality"])


def jsonable(value):
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    return value
