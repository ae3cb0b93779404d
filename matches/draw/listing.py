"""A round's pairings listed one line per union, by name A→Z (Chinese names by their pinyin),
for the wall: the pairings PDF sorted by name and the hall's projector read this."""

from __future__ import annotations

from matches.models import Round, TableSeat


def name_key(name: str) -> tuple:
    """A→Z: Latin letters as they are, Chinese characters by their toneless pinyin."""
    # Imported here: pypinyin loads its dictionaries (~0.4 s) on import, and every web process
    # would pay that at start-up for the two pages that sort by name.
    from pypinyin import Style, lazy_pinyin

    return (" ".join(lazy_pinyin(name, style=Style.NORMAL, errors="default")).casefold(), name)


def by_name(round_: Round) -> list[dict]:
    """One row per union (team events) or per player (individual draws): name, table number
    (None for a bye), seats, opponent. Sorted A→Z."""
    rows = []
    matches = round_.matches.with_sides().select_related("table")
    if not round_.event.is_team:
        for seat in TableSeat.objects.filter(round=round_).select_related("player", "table"):
            rows.append(
                {
                    "name": seat.player.name,
                    "table": seat.table.number,
                    "seats": str(seat.seat),
                    "opponent": "",
                    "bye": False,
                }
            )
        return sorted(rows, key=lambda r: name_key(r["name"]))
    for match in matches:
        if match.is_bye:
            rows.append(
                {
                    "name": match.union_a.name,
                    "table": None,
                    "seats": "",
                    "opponent": "",
                    "bye": True,
                }
            )
            continue
        table = match.table.number
        rows.append(
            {
                "name": match.union_a.name,
                "table": table,
                "seats": "1-3-5",
                "opponent": match.union_b.name,
                "bye": False,
            }
        )
        rows.append(
            {
                "name": match.union_b.name,
                "table": table,
                "seats": "2-4-6",
                "opponent": match.union_a.name,
                "bye": False,
            }
        )
    return sorted(rows, key=lambda r: name_key(r["name"]))
