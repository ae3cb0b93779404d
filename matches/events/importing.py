"""Registering entries from a CSV or Excel sheet: read, check every row, import all or nothing.

Columns (Chinese or English headers, any order): 联邦/union, 俱乐部/club, 选手1/player1,
选手2/player2, 选手3/player3, 种子/seed. A team event needs a union and three players per row;
an individual event needs player1 only (the union columns are ignored).
"""
from __future__ import annotations

import csv
import io
import unicodedata

from django.db import transaction
from django.utils.translation import gettext as _

from matches.models import Event, Registration, Union, UnionMember
from players.models import Club, Player

FIELDS = ("union", "club", "player1", "player2", "player3", "seed")
HEADERS = {
    "union": "union", "联邦": "union", "club": "club", "俱乐部": "club",
    "player1": "player1", "选手1": "player1", "player 1": "player1", "player": "player1", "选手": "player1",
    "player2": "player2", "选手2": "player2", "player 2": "player2",
    "player3": "player3", "选手3": "player3", "player 3": "player3",
    "seed": "seed", "种子": "seed", "种子序号": "seed",
    "选手一": "player1", "选手二": "player2", "选手三": "player3",
}
#: What the error for an unknown header lists, Chinese first (both languages are accepted).
ACCEPTED_ZH = ("联邦", "俱乐部", "选手1", "选手一", "选手2", "选手二", "选手3", "选手三", "种子")
ACCEPTED_EN = ("union", "club", "player1", "player2", "player3", "seed")


def accepted_headers() -> str:
    return "、".join(ACCEPTED_ZH) + " / " + ", ".join(ACCEPTED_EN)
MAX_ROWS = 5000
MAX_BYTES = 2 * 1024 * 1024


class ImportRefused(Exception):
    """The file as a whole cannot be read."""


def _canonical(header) -> str | None:
    return HEADERS.get(str(header or "").strip().lower())


def _rows_from_table(table: list[list]) -> list[dict]:
    if not table:
        raise ImportRefused(_("文件是空的"))
    columns = [_canonical(h) for h in table[0]]
    unknown = [str(h).strip() for h, c in zip(table[0], columns) if c is None and str(h or "").strip()]
    if unknown:
        raise ImportRefused(_("未知的表头：%(unknown)s。可用的表头：%(accepted)s")
                            % {"unknown": "、".join(unknown), "accepted": accepted_headers()})
    if "player1" not in columns:
        raise ImportRefused(_("第一行须是表头，至少要有“选手1”一列"))
    rows = []
    for values in table[1:]:
        if not any(str(v or "").strip() for v in values):
            continue  # blank lines are not entries
        row = {field: "" for field in FIELDS}
        for column, value in zip(columns, values):
            if column:
                row[column] = "" if value is None else str(value).strip()
        rows.append(row)
    if len(rows) > MAX_ROWS:
        raise ImportRefused(_("一次最多导入 %(n)s 行") % {"n": MAX_ROWS})
    return rows


def read_upload(upload) -> list[dict]:
    if upload is None:
        raise ImportRefused(_("请选择文件"))
    if upload.size > MAX_BYTES:
        raise ImportRefused(_("文件太大"))
    name = (upload.name or "").lower()
    data = upload.read()
    if name.endswith(".csv"):
        for encoding in ("utf-8-sig", "gb18030"):
            try:
                text = data.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        else:
            raise ImportRefused(_("无法识别文件编码，请存为 UTF-8"))
        return _rows_from_table(list(csv.reader(io.StringIO(text))))
    if name.endswith(".xlsx"):
        from openpyxl import load_workbook

        try:
            sheet = load_workbook(io.BytesIO(data), read_only=True, data_only=True).worksheets[0]
        except Exception as error:  # openpyxl raises many kinds for a broken file
            raise ImportRefused(_("无法读取 Excel 文件：%(e)s") % {"e": error}) from error
        table = [list(row) for row in sheet.iter_rows(values_only=True)]
        for row in table:  # Excel gives numbers: 3.0 as a seed is 3
            for k, value in enumerate(row):
                if isinstance(value, float) and value.is_integer():
                    row[k] = int(value)
        return _rows_from_table(table)
    raise ImportRefused(_("只支持 .csv 或 .xlsx 文件"))


def validate_rows(event: Event, rows: list[dict]) -> list[dict]:
    """Each row with the list of its errors (empty when the row is fine), lines numbered as in
    the sheet (the header is line 1)."""
    used_unions = set(event.unions.filter(round__isnull=True).values_list("name", flat=True))
    used_seeds = set(event.registrations.exclude(seed=None).values_list("seed", flat=True))
    seen_unions, seen_seeds, seen_players = set(), set(), set()
    checked = []
    for line, row in enumerate(rows, start=2):
        errors = []
        if event.is_team:
            name = row.get("union", "")
            if not name:
                errors.append(_("缺少联邦名称"))
            elif name in used_unions:
                errors.append(_("联邦“%(n)s”已报名") % {"n": name})
            elif name in seen_unions:
                errors.append(_("联邦“%(n)s”在文件中重复") % {"n": name})
            seen_unions.add(name)
            players = [row.get(f"player{k}", "") for k in (1, 2, 3)]
            if not all(players):
                errors.append(_("联邦须有三名选手"))
            if len({p for p in players if p}) < len([p for p in players if p]):
                errors.append(_("同一联邦中选手重名"))
        else:
            name = row.get("player1", "")
            if not name:
                errors.append(_("缺少选手姓名"))
            elif name in seen_players:
                errors.append(_("选手“%(n)s”在文件中重复") % {"n": name})
            seen_players.add(name)
        seed = row.get("seed", "")
        if seed:
            if not (seed.isascii() and seed.isdigit()) or int(seed) < 1:
                errors.append(_("种子须为正整数"))
            elif int(seed) in used_seeds or int(seed) in seen_seeds:
                errors.append(_("种子 %(s)s 重复") % {"s": seed})
            else:
                seen_seeds.add(int(seed))
        for field in FIELDS:
            if len(row.get(field, "")) > 120:
                errors.append(_("内容过长：%(f)s") % {"f": field})
            if any(unicodedata.category(c) == "Cc" for c in row.get(field, "")):
                errors.append(_("不能包含控制字符") + f": {field}")
        checked.append({"line": line, "values": row, "errors": errors})
    return checked


@transaction.atomic
def import_rows(event: Event, rows: list[dict]) -> int:
    """Create the entries; the caller has validated them. All or nothing."""
    from matches.events.registration import next_round_number

    status = (Registration.Status.REGISTERED if event.check_in_required
              else Registration.Status.CHECKED_IN)
    joins = next_round_number(event)  # a late import joins from the next round
    for row in rows:
        club = Club.objects.get_or_create(name=row["club"])[0] if row.get("club") else None
        seed = int(row["seed"]) if row.get("seed") else None
        if event.is_team:
            union = Union.objects.create(event=event, name=row["union"], club=club)
            for order in (1, 2, 3):
                player = Player.objects.create(name=row[f"player{order}"], club=club)
                UnionMember.objects.create(union=union, player=player, order=order,
                                           is_captain=order == 1)
            Registration.objects.create(event=event, union=union, seed=seed, status=status,
                                        joins_round=joins)
        else:
            player = Player.objects.create(name=row["player1"], club=club)
            Registration.objects.create(event=event, player=player, seed=seed, status=status,
                                        joins_round=joins)
    return len(rows)
