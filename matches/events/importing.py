"""Registering entries from a CSV or Excel sheet: read, check every row, import all or nothing.

Columns (Chinese or English headers, any order): 联邦/union, 俱乐部/club, 选手1/player1,
选手2/player2, 选手3/player3 (选手4/player4 at an eight-seat table), 队长/captain, 种子/seed. A team
event needs a union and as many players per row as a union holds (`union_size`: three, or four
at eight seats), and its captain is the player the captain column names (by name or number;
blank: player 1); an individual event needs player1 only (the union columns are ignored).
`template` writes the empty sheet for an event's entry mode.
"""

from __future__ import annotations

import csv
import io
import re
import time
import zipfile
from collections.abc import Iterable, Iterator
from typing import Any
from xml.parsers.expat import ParserCreate

from django.db import transaction
from django.utils.translation import gettext as _

from matches.events.known import known_rows, lookup, wanted
from matches.events.registration import union_size
from matches.kernel.punctuation import listed
from matches.models import Event, Registration, Union, UnionMember
from matches.public import find_terms
from players import clubs
from players.models import Player

FIELDS = ("union", "club", "player1", "player2", "player3", "player4", "captain", "seed")
#: Optional columns (one person across events: players/identity.py), in a row only when the
#: sheet has them.
MEMBER_FIELDS = ("member1", "member2", "member3", "member4")
#: The most players a union may hold in any game's table (the columns a sheet may have).
MAX_UNION = 4
HEADERS = {
    "union": "union",
    "联邦": "union",
    "club": "club",
    "俱乐部": "club",
    "player1": "player1",
    "选手1": "player1",
    "player 1": "player1",
    "player": "player1",
    "选手": "player1",
    "player2": "player2",
    "选手2": "player2",
    "player 2": "player2",
    "player3": "player3",
    "选手3": "player3",
    "player 3": "player3",
    "player4": "player4",
    "选手4": "player4",
    "player 4": "player4",
    "captain": "captain",
    "队长": "captain",
    "seed": "seed",
    "种子": "seed",
    "种子序号": "seed",
    "member1": "member1",
    "member 1": "member1",
    "member": "member1",
    "会员号": "member1",
    "会员号1": "member1",
    "member2": "member2",
    "member 2": "member2",
    "会员号2": "member2",
    "member3": "member3",
    "member 3": "member3",
    "会员号3": "member3",
    "member4": "member4",
    "member 4": "member4",
    "会员号4": "member4",
    "选手一": "player1",
    "选手二": "player2",
    "选手三": "player3",
    "选手四": "player4",
}
#: What the error for an unknown header lists, Chinese first (both languages are accepted).
ACCEPTED_ZH = (
    "联邦",
    "俱乐部",
    "选手1",
    "选手一",
    "选手2",
    "选手二",
    "选手3",
    "选手三",
    "选手4",
    "选手四",
    "队长",
    "种子",
)
ACCEPTED_EN = ("union", "club", "player1", "player2", "player3", "player4", "captain", "seed")


def accepted_headers() -> str:
    return "、".join(ACCEPTED_ZH) + " / " + ", ".join(ACCEPTED_EN)


def template_headers(event: Event, language: str) -> tuple[str, ...]:
    """The import template's headers for the event's entry mode (each is a header the reader
    accepts): a team sheet has a column for each player of a union."""
    en = language == "en"
    if not event.is_team:
        return ("player", "club", "seed") if en else ("选手", "俱乐部", "种子")
    players = tuple((f"player{k}" if en else f"选手{k}") for k in range(1, union_size(event) + 1))
    if en:
        return ("union", "club", *players, "captain", "seed")
    return ("联邦", "俱乐部", *players, "队长", "种子")


def template(event: Event, fmt: str, language: str) -> bytes:
    """The empty import sheet for the event's entry mode: CSV (UTF-8 with a BOM, which Excel
    needs to read Chinese) or XLSX, headers only."""
    headers = template_headers(event, language)
    if fmt == "csv":
        buffer = io.StringIO()
        csv.writer(buffer).writerow(headers)
        return buffer.getvalue().encode("utf-8-sig")
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None  # a new workbook has its one sheet
    sheet.title = "entries"
    sheet.append(list(headers))
    for k in range(len(headers)):
        sheet.column_dimensions[chr(ord("A") + k)].width = 16
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def captain_order(row: dict, size: int) -> int | None:
    """The captain's place (1 to `size`, the union's players) in a union row: the captain
    column names a player or gives their number; blank means player 1. None: it names nobody
    of the union."""
    value = (row.get("captain") or "").strip()
    if not value:
        return 1
    if value in {str(k) for k in range(1, size + 1)}:
        return int(value)
    for order in range(1, size + 1):
        if value == row.get(f"player{order}", "").strip():
            return order
    return None


def why_alike(name: str, near: list[str]) -> list[str]:
    """What makes a typed club name look like each of `near` when the eye cannot see it: the
    same name in traditional characters, or a homophone (a pinyin input method's slip)."""
    notes = []
    for other in near:
        kind = clubs.likeness(name, other)
        if kind == clubs.TRADITIONAL:
            notes.append(_("“%(club)s”是“%(near)s”的繁体写法") % {"club": name, "near": other})
        elif kind == clubs.HOMOPHONE:
            notes.append(
                _("“%(club)s”与“%(near)s”读音相同，只差一个字") % {"club": name, "near": other}
            )
    return notes


def club_notes(rows: list[dict]) -> list[list[str]]:
    """Per row, what the preview says about its club (warnings, nothing is refused): merged
    into an existing club that differs only in spacing or width, or close to an existing club
    or to one earlier in the file (a typo would make a new club)."""
    existing = clubs.all_names()
    known = set(existing)
    same_as = clubs.same_clubs(row.get("club", "") for row in rows)
    seen: list[str] = []
    notes = []
    for row in rows:
        name = (row.get("club") or "").strip()
        found = []
        if name and name not in known:
            same = same_as.get(name)
            if same is not None:
                found.append(_("将并入已有俱乐部“%(club)s”") % {"club": same.name})
                name = same.name
            elif name not in seen:
                near = clubs.near_duplicates(name, existing + seen)
                if near:
                    found.append(
                        _("俱乐部“%(club)s”与“%(near)s”相近：是否打错了？")
                        % {"club": name, "near": listed(near)}
                    )
                    found.extend(why_alike(name, near))
        if name and name not in seen and name not in known:
            seen.append(name)
        notes.append(found)
    return notes


# Every limit is checked while the sheet is read, never after. A 186 KiB
# .xlsx used to unpack 300,000 rows (24 s, 110 MiB) before the row count was looked at.
MAX_ROWS = 5000
#: Lines read at most: the header, the entries and as many blank lines again.
MAX_LINES = 2 * MAX_ROWS + 1
#: Columns read of each line (the sheet has six; a hostile one declares 16,384).
MAX_COLUMNS = 32
MAX_BYTES = 2 * 1024 * 1024
#: What an .xlsx (a zip) may unpack to, all parts together, checked before anything is parsed.
MAX_UNPACKED_BYTES = 8 * 1024 * 1024
MAX_PARTS = 200
#: Cells the first sheet may hold (a full sheet has 6 a line), counted by a quick pass over its
#: XML before openpyxl turns any into Python values (about 10 µs a cell).
MAX_CELLS = 64_000
#: CPU seconds reading may take.
MAX_SECONDS = 3.0
MAX_SEED = 1_000_000
# Tabs, line breaks, NUL, \x0b...: no name needs them, and an Excel sheet cannot hold most.
CONTROL_CHARACTERS = re.compile("[\x00-\x1f\x7f]")


class ImportRefused(Exception):
    """The file as a whole cannot be read."""


def canonical_header(header) -> str | None:
    return HEADERS.get(str(header or "").strip().lower())


def _too_many_lines() -> ImportRefused:
    return ImportRefused(_("一次最多导入 %(n)s 行") % {"n": MAX_ROWS})


def _limited(lines: Iterable) -> Iterator[list]:
    """The lines of a sheet, each cut to MAX_COLUMNS, refused as soon as there are too many or
    reading takes too long (a sparse sheet yields a million empty lines from a few bytes)."""
    deadline = time.process_time() + MAX_SECONDS  # CPU time: a busy machine is no attack
    for number, values in enumerate(lines, start=1):
        if number > MAX_LINES:
            raise _too_many_lines()
        if time.process_time() > deadline:
            raise ImportRefused(_("文件太复杂，读取超时"))
        yield list(values[:MAX_COLUMNS])


def _rows_from_table(table: Iterable) -> list[dict]:
    lines = _limited(table)
    header = next(lines, None)
    if header is None:
        raise ImportRefused(_("文件是空的"))
    columns = [canonical_header(h) for h in header]
    unknown = [
        str(h).strip() for h, c in zip(header, columns) if c is None and str(h or "").strip()
    ]
    if unknown:
        raise ImportRefused(
            _("未知的表头：%(unknown)s。可用的表头：%(accepted)s")
            % {"unknown": "、".join(unknown), "accepted": accepted_headers()}
        )
    if "player1" not in columns:
        raise ImportRefused(_("第一行须是表头，至少要有“选手1”一列"))
    rows: list[dict] = []
    for values in lines:
        if not any(str(v or "").strip() for v in values):
            continue  # blank lines are not entries
        if len(rows) == MAX_ROWS:
            raise _too_many_lines()
        row = {field: "" for field in FIELDS}
        for column, value in zip(columns, values):
            if column:
                row[column] = "" if value is None else str(value).strip()
        rows.append(row)
    return rows


def _check_unpacked_size(data: bytes) -> None:
    """Refuse a zip bomb before openpyxl unpacks anything. The sizes are the ones the zip
    declares; Python's zipfile never unpacks more than a part declares."""
    try:
        parts = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except zipfile.BadZipFile as error:
        raise ImportRefused(_("无法读取 Excel 文件：%(e)s") % {"e": error}) from error
    if len(parts) > MAX_PARTS or sum(p.file_size for p in parts) > MAX_UNPACKED_BYTES:
        raise ImportRefused(_("文件解压后太大"))


class _TooManyCells(Exception):
    pass


def _check_cell_count(sheet) -> None:
    """Count the sheet's cells in its XML (expat callbacks, no tree, no values) and refuse it at
    the first one over the limit: one line of 400,000 cells cost openpyxl 5 s."""
    cells = 0

    def start(name, attributes):
        nonlocal cells
        if name.endswith("}c") or name == "c":
            cells += 1
            if cells > MAX_CELLS:
                raise _TooManyCells

    parser = ParserCreate(namespace_separator="}")  # expat 2.4+ refuses entity-expansion bombs
    parser.StartElementHandler = start
    with sheet._get_source() as source:
        try:
            while chunk := source.read(64 * 1024):
                parser.Parse(chunk, False)
            parser.Parse(b"", True)
        except _TooManyCells:
            raise ImportRefused(_("文件单元格太多")) from None


def _excel_values(sheet) -> Iterable[tuple]:
    """Values line by line, streamed; Excel gives numbers: 3.0 as a seed is 3."""
    _check_cell_count(sheet)
    # Trust no <dimension>: openpyxl would stop at its last line or pad every line to its width.
    sheet.reset_dimensions()
    for line in sheet.iter_rows(max_col=MAX_COLUMNS, values_only=True):
        yield tuple(int(v) if isinstance(v, float) and v.is_integer() else v for v in line)


def read_upload(upload) -> list[dict]:
    if upload is None:
        raise ImportRefused(_("请选择文件"))
    if upload.size > MAX_BYTES:
        raise ImportRefused(_("文件太大"))
    name = (upload.name or "").lower()
    data = upload.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise ImportRefused(_("文件太大"))
    if name.endswith(".csv"):
        for encoding in ("utf-8-sig", "gb18030"):
            try:
                text = data.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        else:
            raise ImportRefused(_("无法识别文件编码，请存为 UTF-8"))
        try:
            return _rows_from_table(csv.reader(io.StringIO(text)))
        except csv.Error as error:  # e.g. a cell over the csv module's limit (128 kB)
            raise ImportRefused(_("无法读取 CSV 文件：%(e)s") % {"e": error}) from error
    if name.endswith(".xlsx"):
        from openpyxl import load_workbook

        _check_unpacked_size(data)
        try:
            book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
            try:
                return _rows_from_table(_excel_values(book.worksheets[0]))
            finally:
                book.close()
        except ImportRefused:
            raise
        except Exception as error:  # openpyxl raises many kinds for a broken file
            raise ImportRefused(_("无法读取 Excel 文件：%(e)s") % {"e": error}) from error
    raise ImportRefused(_("只支持 .csv 或 .xlsx 文件"))


def validate_rows(
    event: Event, rows: list[dict], user=None, lines: list[int] | None = None
) -> list[dict]:
    """Each row with the list of its errors (empty when the row is fine), lines numbered as in
    the sheet (the header is line 1; `lines`: each row's own number in a paste, which then
    says "in the list" where a sheet says "in the file"), and the known records its names
    match (`known`: among the ones `user` may see, for them to confirm)."""
    twice_union = (
        _("联邦“%(n)s”在名单中重复") if lines is not None else _("联邦“%(n)s”在文件中重复")
    )
    twice_player = (
        _("选手“%(n)s”在名单中重复") if lines is not None else _("选手“%(n)s”在文件中重复")
    )
    used_unions = set(event.unions.filter(round__isnull=True).values_list("name", flat=True))
    size = union_size(event)
    used_seeds = set(event.registrations.exclude(seed=None).values_list("seed", flat=True))
    seen_unions, seen_seeds, seen_players = set(), set(), set()
    checked: list[dict[str, Any]] = []
    for line, row in zip(lines or range(2, len(rows) + 2), rows):
        errors = []
        if event.is_team:
            name = row.get("union", "")
            if not name:
                errors.append(_("缺少联邦名称"))
            elif name in used_unions:
                errors.append(_("联邦“%(n)s”已报名") % {"n": name})
            elif name in seen_unions:
                errors.append(twice_union % {"n": name})
            seen_unions.add(name)
            players = [row.get(f"player{k}", "") for k in range(1, size + 1)]
            extra = [k for k in range(size + 1, MAX_UNION + 1) if row.get(f"player{k}")]
            if not all(players) or extra:
                errors.append(_("联邦须有 %(n)s 名选手") % {"n": size})
            if len({p for p in players if p}) < len([p for p in players if p]):
                errors.append(_("同一联邦中选手重名"))
            if captain_order(row, size) is None:
                errors.append(
                    _("队长“%(c)s”不是本联邦的选手（填选手姓名或 1-%(n)s）")
                    % {"c": row["captain"], "n": size}
                )
        else:
            name = row.get("player1", "")
            if not name:
                errors.append(_("缺少选手姓名"))
            elif name in seen_players:
                errors.append(twice_player % {"n": name})
            seen_players.add(name)
        seed = row.get("seed", "")
        if seed:
            # ASCII digits only ("²".isdigit() is true), and a size a database column holds.
            if not (seed.isascii() and seed.isdigit()) or not 1 <= int(seed) <= MAX_SEED:
                errors.append(_("种子须为正整数"))
            elif int(seed) in used_seeds or int(seed) in seen_seeds:
                errors.append(_("种子 %(s)s 重复") % {"s": seed})
            else:
                seen_seeds.add(int(seed))
        for field in FIELDS + MEMBER_FIELDS:
            if len(row.get(field, "")) > 120:
                errors.append(_("内容过长：%(f)s") % {"f": field})
            elif CONTROL_CHARACTERS.search(row.get(field, "")):
                errors.append(_("内容含控制字符：%(f)s") % {"f": field})
        checked.append({"line": line, "values": row, "errors": errors})
    from matches.events.entries import entered_players, matchable

    known = known_rows(event, rows, entered_players(event), matchable(event, user), user)
    for row, notes, offered in zip(checked, club_notes(rows), known):
        row["warnings"] = notes
        row["known"] = offered
    return checked


@transaction.atomic
def import_rows(
    event: Event, rows: list[dict], *, user=None, known: set[int] | frozenset[int] = frozenset()
) -> int:
    """Create the entries; the caller has validated them. All or nothing. `known`: the known
    records the organiser ticked in the preview; every other name is a new record (as
    `find_or_create` decides, for the whole sheet at once: a few queries a hundred rows)."""
    from matches.events.entries import entered_players, matchable
    from matches.events.registration import next_round_number

    status = (
        Registration.Status.REGISTERED
        if event.check_in_required
        else Registration.Status.CHECKED_IN
    )
    joins = next_round_number(event)  # a late import joins from the next round
    taken = entered_players(event)  # a namesake already in: another person
    size = union_size(event)
    club_of = clubs.get_or_create_many(row.get("club", "") for row in rows)
    found = lookup(event, rows, matchable(event, user), club_of)

    def person(row: dict, order: int, club) -> Player:
        key = wanted(row, order, club)
        record = found.get(key)
        if record is not None and record.pk in known and record.pk not in taken:
            taken.add(record.pk)
            return record
        return Player(name=key[0], club=club, member_number=key[2])

    people, unions, entries = [], [], []
    for row in rows:
        club = club_of.get((row.get("club") or "").strip())
        seed = int(row["seed"]) if row.get("seed") else None
        if event.is_team:
            unions.append(Union(event=event, name=row["union"], club=club))
            people.append([person(row, order, club) for order in range(1, size + 1)])
        else:
            people.append([person(row, 1, club)])
        entries.append(Registration(event=event, seed=seed, status=status, joins_round=joins))
    Player.objects.bulk_create([p for line in people for p in line if p.pk is None])
    Union.objects.bulk_create(unions)
    members = []
    for k, line in enumerate(people):
        if event.is_team:
            captain = captain_order(rows[k], size)
            entries[k].union = unions[k]
            members += [
                UnionMember(
                    union=unions[k], event=event, player=p, order=order, is_captain=order == captain
                )
                for order, p in enumerate(line, start=1)
            ]
        else:
            entries[k].player = line[0]
    UnionMember.objects.bulk_create(members)
    Registration.objects.bulk_create(entries)  # no save(): no private token to digest yet
    # bulk_create sends no post_save: the new entries' search terms are written here.
    find_terms.index_entries(event.pk, entries, members)
    return len(rows)
