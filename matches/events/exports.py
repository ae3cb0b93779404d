"""Standings and results as tables, written to CSV or Excel."""
from __future__ import annotations

import csv
import io

from django.utils.translation import gettext as _

from matches.models import DealTally, Event, Match, StandingsSnapshot


def _latest(event: Event, kind: str):
    return (StandingsSnapshot.objects.filter(event=event, kind=kind, scope="event")
            .select_related("round").order_by("-round__number").first())


def standings_table(event: Event, kind: str = "unions") -> tuple[list[str], list[list]]:
    """Union standings (team events) or individual standings, after the latest round."""
    if event.is_team and kind == "unions":
        snapshot = _latest(event, "unions")
        header = [_("名次"), _("联邦"), _("场分"), _("胜"), _("平"), _("负"), _("轮空"), _("得分"),
                  _("失分"), _("净胜分"), _("对手分"), _("串三户"), _("胜局")]
        keys = ["rank", "name", "match_points", "wins", "draws", "losses", "byes", "score_for",
                "score_against", "score_difference", "opponents_match_points", "strings_of_three",
                "deal_wins"]
    elif event.is_giog:
        snapshot = _latest(event, "players")
        header = [_("名次"), _("选手"), _("积分"), _("赢子"), _("头名"), _("斩首"), _("手数")]
        keys = ["rank", "name", "points_display", "pieces", "firsts", "beheaded", "hands"]
    else:
        snapshot = _latest(event, "players")
        header = [_("名次"), _("选手"), _("名次分"), _("开点"), _("烧牌"), _("头科"), _("局数")]
        keys = ["rank", "name", "place_points", "points_opened", "burns", "firsts", "deals"]
    rows = [[row.get(k) for k in keys] for row in (snapshot.rows if snapshot else [])]
    return header, rows


def results_table(event: Event) -> tuple[list[str], list[list]]:
    """One line per deal with a final result, then the match total, round by round."""
    header = [_("轮次"), _("桌号"), _("局"), _("联邦A"), _("联邦B"), _("A 得分"), _("B 得分"),
              _("名次（座位）"), _("开点（座位）"), _("场分 A"), _("场分 B")]
    rows = []
    tallies = {}
    for t in DealTally.objects.filter(match__round__event=event).select_related("deal"):
        tallies.setdefault(t.match_id, []).append(t)
    if event.is_giog:
        return _giog_results_table(event, tallies)
    for match in Match.objects.filter(round__event=event).select_related(
            "round", "table", "union_a", "union_b").order_by("round__number", "table__number", "id"):
        table = match.table.number if match.table_id else ""
        b_name = match.union_b.name if match.union_b_id else _("轮空")
        for t in sorted(tallies.get(match.pk, []), key=lambda t: t.deal.number):
            rows.append([match.round.number, table, t.deal.number, match.union_a.name, b_name,
                         t.score_a, t.score_b, " ".join(map(str, t.finish)),
                         " ".join(map(str, t.points)), "", ""])
        rows.append([match.round.number, table, _("合计"), match.union_a.name, b_name,
                     match.score_a, match.score_b, "", "", match.points_a, match.points_b])
    return header, rows


def _giog_results_table(event: Event, tallies: dict) -> tuple[list[str], list[list]]:
    """One line per seat and hand: places (G11/G12), pieces won, beheaded, points."""
    from matches.models import TableSeat
    from matches.games.giog.public import hand_row

    header = [_("轮次"), _("桌号"), _("手"), _("名次"), _("座位"), _("选手"), _("赢子"), _("斩首"),
              _("积分")]
    seats = {}
    for seat in TableSeat.objects.filter(round__event=event).select_related("player"):
        seats.setdefault(seat.table_id, {})[seat.seat] = seat
    rows = []
    for match in Match.objects.filter(round__event=event).select_related(
            "round", "table").order_by("round__number", "table__number", "id"):
        for t in sorted(tallies.get(match.pk, []), key=lambda t: t.deal.number):
            table_seats = seats.get(match.table_id, {})
            for p in hand_row(t, table_seats, event.place_points):
                rows.append([match.round.number, match.table.number, t.deal.number, p["place"],
                             p["seat"], p["player"].player.name if p["player"] else "",
                             p["won"], "1" if p["beheaded"] else "", p["points"]])
    return header, rows
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

    book = Workbook()
    sheet = book.active
    sheet.title = title[:31]
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    # openpyxl stores a string starting with "=" as a formula; names are text, kept verbatim.
    for line in sheet.iter_rows():
        for cell in line:
            if cell.data_type == "f":
                cell.data_type = "s"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
