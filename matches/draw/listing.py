"""A round's pairings listed one line per union, by name A→Z (Chinese names by their pinyin),
for the wall: the pairings PDF sorted by name and the hall's projector read this."""

from __future__ import annotations

import re
import unicodedata

from matches.models import Round, TableSeat

#: Chinese numerals: a run of them in a name is a number (一队 < 二队 < … < 十二队).
DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}
DIGITS.update({"七": 7, "八": 8, "九": 9})
UNITS = {"十": 10, "百": 100, "千": 1000}
NUMBER_RUN = re.compile(r"[0-9]+|[零〇一二两三四五六七八九十百千]+")


def chinese_number(text: str) -> int:
    """十二 → 12, 二十三 → 23, 一百零五 → 105; without units digit by digit (二〇二六 → 2026)."""
    if not any(c in UNITS for c in text):
        return int("".join(str(DIGITS[c]) for c in text))
    total, digit = 0, 0
    for c in text:
        if c in UNITS:
            total += (digit or 1) * UNITS[c]  # 十二: a unit alone counts one of it
            digit = 0
        else:
            digit = DIGITS[c]
    return total + digit


def name_key(name: str) -> tuple:
    """A→Z: Latin letters as they are, Chinese characters by their toneless pinyin, and numbers
    (Arabic, full-width or Chinese numerals) by their value, so 二队 comes before 十二队."""
    # Imported here: pypinyin loads its dictionaries (~0.4 s) on import, and every web process
    # would pay that at start-up for the two pages that sort by name.
    from pypinyin import Style, lazy_pinyin

    text = unicodedata.normalize("NFKC", name)  # full-width digits as ASCII
    parts, start = [], 0
    for match in NUMBER_RUN.finditer(text):
        parts.append(_words(text[start : match.start()], lazy_pinyin, Style))
        run = match.group()
        parts.append((0, int(run) if run.isascii() else chinese_number(run), ""))
        start = match.end()
    parts.append(_words(text[start:], lazy_pinyin, Style))
    return (tuple(p for p in parts if p != (1, 0, "")), name)


def _words(text: str, lazy_pinyin, style) -> tuple:
    spelled = " ".join(lazy_pinyin(text, style=style.NORMAL, errors="default")).casefold()
    return (1, 0, spelled.strip())


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
    # The seats of each side as the game's table gives them: 1-3-5 / 2-4-6 at a six-seat Gou Ji
    # table, 1-2-3-4 / 5-6-7-8 at an eight-seat one (R44).
    shape = round_.event.adapter.table_shape(round_.event)
    seats_a, seats_b = ("-".join(str(s) for s in shape.seats_of(side)) for side in ("A", "B"))
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
                "seats": seats_a,
                "opponent": match.union_b.name,
                "bye": False,
            }
        )
        rows.append(
            {
                "name": match.union_b.name,
                "table": table,
                "seats": seats_b,
                "opponent": match.union_a.name,
                "bye": False,
            }
        )
    return sorted(rows, key=lambda r: name_key(r["name"]))
