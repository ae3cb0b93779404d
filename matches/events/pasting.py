"""Bulk paste: entries typed or pasted into the entries page, one per line, read into the rows
the import checks, previews and imports all or nothing (matches/events/importing.py).

A line's cells are split by tabs when it has one (a paste from Excel or WPS), else by commas
(`,` `，` `、`), else by spaces (a WeChat message; full-width spaces count). A team event's
line is the union, its club, then its players: as many as a union holds at the event's table
(`union_size`: three, four at eight seats), the first one the captain. The club may be left
out (the line then has one cell fewer) or left blank between two tabs or commas. An individual
event's line is a player and, optionally, their club. Blank lines are skipped, and so is a first
line of headers (联邦, 俱乐部, … as in the import sheet). Names with spaces need tabs or commas.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from matches.events.importing import (
    FIELDS,
    MAX_ROWS,
    MAX_UNION,
    ImportRefused,
    canonical_header,
    validate_rows,
)
from matches.events.registration import union_size
from matches.models import Event

#: Characters a paste may hold (about 5,000 lines of a long union name and four players).
MAX_CHARS = 400_000
COMMAS = re.compile("[,，、]")


@dataclass
class PastedLine:
    """One entry line: its number in the paste (the first line is 1), the row as the import
    reads it, and what is wrong with the line's shape (the import checks the rest)."""

    line: int
    row: dict
    errors: list[str] = field(default_factory=list)


def cells(text: str) -> list[str]:
    """A line's cells by the rule above, trailing blank cells (Excel's empty columns) dropped."""
    if "\t" in text:
        parts = text.split("\t")
    elif COMMAS.search(text):
        parts = COMMAS.split(text)
    else:
        parts = text.split()
    parts = [p.strip() for p in parts]
    while parts and not parts[-1]:
        parts.pop()
    return parts


def _is_header(parts: list[str]) -> bool:
    return bool(parts) and all(canonical_header(p) for p in parts if p)


def read_paste(text: str, size: int, team: bool) -> list[PastedLine]:
    """The entries of a paste; `size` players a union, `team` False for an individual event."""
    text = text or ""
    if not text.strip():
        raise ImportRefused(_("请粘贴报名名单，每行一条"))
    if len(text) > MAX_CHARS:
        raise ImportRefused(
            _("粘贴的内容太长：一次最多 %(n)s 个字符，请分几次粘贴") % {"n": f"{MAX_CHARS:,}"}
        )
    pasted: list[PastedLine] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        parts = cells(raw)
        if not parts:
            continue
        if not pasted and _is_header(parts):
            continue
        if len(pasted) == MAX_ROWS:
            raise ImportRefused(_("一次最多导入 %(n)s 行") % {"n": MAX_ROWS})
        pasted.append(_line(number, parts, size, team))
    if not pasted:
        raise ImportRefused(_("请粘贴报名名单，每行一条"))
    return pasted


@dataclass
class CheckedPaste:
    """A paste read and checked: `rows` and `lines` (each row's line number) are what the
    confirm imports; `checked` is the import's check of each row (`validate_rows`), with a
    line of the wrong shape's own errors in place of the import's."""

    rows: list[dict]
    lines: list[int]
    checked: list[dict]


def check_paste(event: Event, text: str, user=None) -> CheckedPaste:
    """Read a paste for `event` and check every line as the import does; ImportRefused when
    the paste as a whole cannot be read (empty, too long, too many lines)."""
    pasted = read_paste(text, union_size(event), event.is_team)
    rows = [p.row for p in pasted]
    lines = [p.line for p in pasted]
    checked = validate_rows(event, rows, user, lines)
    for row, line in zip(checked, pasted):
        if line.errors:  # a line of the wrong shape: its cells say nothing more
            row["errors"] = line.errors
    return CheckedPaste(rows, lines, checked)


def _line(number: int, parts: list[str], size: int, team: bool) -> PastedLine:
    row = {name: "" for name in FIELDS}
    if not team:
        if len(parts) > 2:
            return PastedLine(
                number,
                {**row, "player1": parts[0], "club": parts[1]},
                [_("应为“选手 俱乐部”（俱乐部可省），这一行有 %(got)s 项") % {"got": len(parts)}],
            )
        row["player1"] = parts[0]
        row["club"] = parts[1] if len(parts) == 2 else ""
        return PastedLine(number, row)
    if len(parts) == size + 2:
        name, club, players = parts[0], parts[1], parts[2:]
    elif len(parts) == size + 1:
        name, club, players = parts[0], "", parts[1:]
    else:
        # Shown as read (union, club, then players) beside what is wrong with it.
        row.update({"union": parts[0], "club": parts[1] if len(parts) > 1 else ""})
        for order, player in enumerate(parts[2 : 2 + MAX_UNION], start=1):
            row[f"player{order}"] = player
        return PastedLine(
            number,
            row,
            [
                _(
                    "应为“联邦 俱乐部 %(n)s 名选手”（俱乐部可省），共 %(want)s 项，"
                    "这一行有 %(got)s 项"
                )
                % {"n": size, "want": size + 2, "got": len(parts)}
            ],
        )
    row.update({"union": name, "club": club})
    for order, player in enumerate(players, start=1):
        row[f"player{order}"] = player
    return PastedLine(number, row)
