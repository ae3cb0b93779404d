"""The rows of a round drawn as tables of players: shared by the draw service (an individual
Gou Ji event drawn into unions) and the games that seat their own tables (Giog). Writes models
only; the pairing itself is the pure `matches.draw.generator`'s or the game's."""

from __future__ import annotations

from matches.models import Match, Round, RoundEntry, Table, TableSeat, Union, UnionMember
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
    members, matches, entries, seats = [], [], [], []
    for k, (table, drawn) in enumerate(zip(tables, drawn_tables)):
        union_a, union_b = unions[2 * k], unions[2 * k + 1]
        sides = ((union_a, SIDE_A, drawn.union_a), (union_b, SIDE_B, drawn.union_b))
        for union, _side, players in sides:
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
            Match(
                round=round_,
                table=table,
                union_a=union_a,
                union_b=union_b,
                flags=drawn.flags,
                details=jsonable(drawn.details),
            )
        )
    UnionMember.objects.bulk_create(members)
    Match.objects.bulk_create(matches)
    for k, (table, drawn, match) in enumerate(zip(tables, drawn_tables, matches)):
        union_a, union_b = unions[2 * k], unions[2 * k + 1]
        entries += [
            RoundEntry(round=round_, match=match, union=union_a, side=SIDE_A),
            RoundEntry(round=round_, match=match, union=union_b, side=SIDE_B),
        ]
        for seat, player_id in enumerate(drawn.seats, start=1):
            side = SIDE_A if seat % 2 else SIDE_B
            seats.append(
                TableSeat(
                    table=table,
                    round=round_,
                    seat=seat,
                    side=side,
                    player_id=player_id,
                    union=union_a if seat % 2 else union_b,
                )
            )
    RoundEntry.objects.bulk_create(entries)
    TableSeat.objects.bulk_create(seats)


def jsonable(value):
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    return value
