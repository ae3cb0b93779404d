"""Giog rounds: read who met whom, ask `matches.games.giog.seating`, write the tables.

Per table a Table, a Match with one side per seated player (`MatchSide.player`) and the
TableSeats (`matches.kernel.draw_rows.write_player_tables`); no unions are written: Giog has no teams
(docs/giog.md, "Giog tournaments").
"""

from __future__ import annotations

from collections import defaultdict

from matches.games.giog.seating import GiogPlayer, describe, draw_giog, measure
from matches.kernel.draw_rows import seats_by_table, write_player_tables, write_reflagged
from matches.models import Round, TableSeat


def met_counts(event, before_round: int) -> dict:
    """player id -> {other player id: rounds they sat at one table}, before `before_round`."""
    tables: defaultdict[int, list[int]] = defaultdict(list)
    for table_id, player_id in TableSeat.objects.filter(
        round__event=event, round__number__lt=before_round
    ).values_list("table_id", "player_id"):
        tables[table_id].append(player_id)
    met: defaultdict[int, defaultdict[int, int]] = defaultdict(lambda: defaultdict(int))
    for seated in tables.values():
        for pid in seated:
            for other in seated:
                if other != pid:
                    met[pid][other] += 1
    return met


def players(event, round_number: int, field: list) -> dict:
    """The round's field (its registrations in seed order, from the draw service) as the
    seating engine reads them."""
    met = met_counts(event, round_number)
    found = {}
    for rank, registration in enumerate(field, 1):
        player = registration.player
        if player is None:
            continue
        found[player.id] = GiogPlayer(
            id=player.id, rank=rank, club=player.club_id, met=dict(met.get(player.id, {}))
        )
    return found


def draw_round(round_: Round, field: list) -> None:
    draw = draw_giog(players(round_.event, round_.number, field).values(), seed=round_.seed)
    write_player_tables(round_, draw.tables)
    round_.quality = {**draw.quality, "method": "giog", "sitting_out": []}
    round_.save(update_fields=["quality"])


def reflag(round_: Round, table_ids: set, field: list) -> None:
    """Flags of the tables a hand swap changed, and the round's quality again."""
    known = players(round_.event, round_.number, field)
    described = {
        table_id: describe([known.get(seats[k]) or GiogPlayer(id=seats[k]) for k in sorted(seats)])
        for table_id, seats in seats_by_table(round_).items()
    }
    write_reflagged(round_, table_ids, described, measure(list(described.values())))
