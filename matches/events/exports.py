"""Standings and results as tables, written to CSV or Excel."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.utils.translation import gettext as _

from matches.kernel.games.registry import adapter_for
from matches.models import DealTally, Event, Match, StandingsSnapshot


def _latest(event: Event, kind: str):
    return (
        StandingsSnapshot.objects.filter(event=event, kind=kind, scope="event")
        .select_related("round")
        .order_by("-round__number")
        .first()
    )


def standings_table(event: Event, kind: str = "unions") -> tuple[list[str], list[list]]:
    """Union standings (team events) or individual standings, after the latest round."""
    if event.is_team and kind == "unions":
        snapshot = _latest(event, "unions")
        header = [
            _("名次"),
            _("联邦"),
            _("场分"),
            _("胜"),
            _("平"),
            _("负"),
            _("轮空"),
            _("得分"),
            _("失分"),
            _("净胜分"),
            _("对手分"),
            event.adapter.strings_of_three_label(event),
            _("胜局"),
        ]
        keys = [
            "rank",
            "name",
            "match_points",
            "wins",
            "draws",
            "losses",
            "byes",
            "score_for",
            "score_against",
            "score_difference",
            "opponents_match_points",
            "strings_of_three",
            "deal_wins",
        ]
    else:
        snapshot = _latest(event, "players")
        columns = adapter_for(event).export_player_columns
        header = [_("名次"), _("选手"), *(str(title) for _key, title in columns)]
        keys = ["rank", "name", *(key for key, _title in columns)]
    rows = [[row.get(k) for k in keys] for row in (snapshot.rows if snapshot else [])]
    return header, rows


def results_table(event: Event) -> tuple[list[str], list[list]]:
    """The event's results, one line per deal (as the game shows a deal), round by round."""
    tallies: dict[int, Any] = {}
    for t in DealTally.objects.filter(match__round__event=event).select_related("deal"):
        tallies.setdefault(t.match_id, []).append(t)
    matches = (
        Match.objects.filter(round__event=event)
        .with_sides()
        .select_related("round", "table")
        .order_by("round__number", "table__number", "id")
    )
    return adapter_for(event).results_table(event, matches, tallies)


# A spreadsheet reads a cell starting with one of these as a formula (`=cmd|' /C calc'!A0`):
# names typed in by entrants must stay text (OWASP "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _csv_cell(value):
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value  # the spreadsheet shows it as text
    return value


def to_csv(header: list, rows: list) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    for row in rows:
        writer.writerow([_csv_cell(v) for v in row])
    # A BOM so that Excel opens the Chinese text as UTF-8.
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def to_xlsx(header: list, rows: list, title: str = "sheet") -> bytes:
    from openpyxl import Workbook
    from openpyxl.worksheet.worksheet import Worksheet

    book = Workbook()
    sheet = book.active
    if not isinstance(sheet, Worksheet):  # a new workbook opens on one worksheet
        raise TypeError("a new workbook has no active worksheet")
    sheet.title = title[:31]
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    def cells(row):  # control characters (a "\x0b" in a name) cannot be stored in a sheet
        return [ILLEGAL_CHARACTERS_RE.sub("", v) if isinstance(v, str) else v for v in row]

    sheet.append(cells(header))
    for row in rows:
        sheet.append(cells(row))
    # openpyxl stores a string starting with "=" as a formula; names are text, kept verbatim.
    for line in sheet.iter_rows():
        for cell in line:
            if cell.data_type == "f":
                cell.data_type = "s"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
