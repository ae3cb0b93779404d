"""Issue 27, finding 4: an XLSX bomb. A 186 KiB .xlsx with 300,000 rows took 24 s and about
110 MiB before it was refused, because the whole sheet was read before the 5,000-row limit was
looked at. The bombs are built here, in memory (no big file in the repository).

What a bomb costs is measured against what an honest upload costs on the same machine in the
same run (`HONEST`: a sheet of exactly the row limit, read whole; CPU seconds, the better of
two tries): a bomb is refused for no more than `BOMB_RATIO` times that (each costs 0.2-0.8
times it here; before the fix, 25 to 130 times). A fixed number of seconds failed on a busy
machine."""

from __future__ import annotations

import io
import time
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from matches.events import importing

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    "</Types>"
)
ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    "</Relationships>"
)


def _cell(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def xlsx(rows: str, dimension: str = "A1:D2") -> bytes:
    """A minimal .xlsx whose first sheet's <sheetData> is `rows` (a header row is added)."""
    header = "".join(
        _cell(f"{c}1", h)
        for c, h in zip("ABCD", importing.ACCEPTED_EN[:1] + importing.ACCEPTED_EN[2:5])
    )
    sheet = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        f'<dimension ref="{dimension}"/><sheetData><row r="1">{header}</row>{rows}</sheetData>'
        "</worksheet>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as book:
        book.writestr("[Content_Types].xml", CONTENT_TYPES)
        book.writestr("_rels/.rels", ROOT_RELS)
        book.writestr("xl/workbook.xml", WORKBOOK)
        book.writestr("xl/_rels/workbook.xml.rels", WORKBOOK_RELS)
        book.writestr("xl/worksheets/sheet1.xml", sheet)
    return buffer.getvalue()


def entry_rows(first: int, last: int) -> str:
    return "".join(
        f'<row r="{n}">{_cell(f"A{n}", f"U{n}")}{_cell(f"B{n}", "a")}'
        f"{_cell(f'C{n}', 'b')}{_cell(f'D{n}', 'c')}</row>"
        for n in range(first, last + 1)
    )


BOMB_RATIO = 3.0


def _cost(data: bytes, name: str) -> tuple[str, float]:
    """(the refusal's words or "", the CPU seconds of reading the upload: the better of two)"""
    best, words = float("inf"), ""
    for _ in range(2):
        started = time.process_time()
        try:
            importing.read_upload(SimpleUploadedFile(name, data))
        except importing.ImportRefused as refused:
            words = str(refused)
        best = min(best, time.process_time() - started)
    return words, best


@pytest.fixture(scope="module")
def honest() -> float:
    """What reading an honest upload of exactly the row limit costs here, now."""
    words, seconds = _cost(xlsx(entry_rows(2, importing.MAX_ROWS + 1)), "honest.xlsx")
    assert words == ""
    return seconds


def refused_quickly(data: bytes, name: str = "bomb.xlsx") -> tuple[str, float]:
    """(the refusal's words, its CPU seconds: compared with `honest`, see the module's doc)"""
    with pytest.raises(importing.ImportRefused):
        importing.read_upload(SimpleUploadedFile(name, data))
    return _cost(data, name)


def test_a_small_sheet_still_imports():
    rows = importing.read_upload(SimpleUploadedFile("ok.xlsx", xlsx(entry_rows(2, 4), "A1:D4")))
    assert [r["union"] for r in rows] == ["U2", "U3", "U4"]
    assert rows[0] == {
        "union": "U2",
        "club": "",
        "player1": "a",
        "player2": "b",
        "player3": "c",
        "player4": "",  # the column an eight-seat event's unions of four fill (R45)
        "seed": "",
        "captain": "",  # no captain column: player 1 (issue 25)
    }


def bomb(lines: int = 300_000) -> bytes:
    """As the attack battery's: a small file of many short lines."""
    return xlsx("<row><c><v>1</v></c></row>" * lines, dimension=f"A1:D{lines + 1}")


def test_300000_rows_in_a_small_file_are_refused_quickly(honest):
    data = bomb()
    assert len(data) < 200 * 1024  # it passes the upload's byte limit
    message, seconds = refused_quickly(data)
    assert message in ("文件单元格太多", "一次最多导入 5000 行")
    assert seconds < BOMB_RATIO * honest, (seconds, honest)


def test_many_lines_without_cells_stop_at_the_line_limit(honest):
    message, seconds = refused_quickly(xlsx("<row/>" * 300_000))
    assert message == "一次最多导入 5000 行" and seconds < BOMB_RATIO * honest, (seconds, honest)


def test_exactly_the_limit_is_accepted_and_one_more_is_refused():
    rows = importing.read_upload(
        SimpleUploadedFile("max.xlsx", xlsx(entry_rows(2, importing.MAX_ROWS + 1)))
    )
    assert len(rows) == importing.MAX_ROWS
    message, _ = refused_quickly(xlsx(entry_rows(2, importing.MAX_ROWS + 2)))
    assert "5000" in message


def test_a_sparse_sheet_of_a_million_empty_lines_is_refused_quickly(honest):
    """Two rows, numbered 2 and 1,048,576: openpyxl fills the gap with empty lines."""
    data = xlsx(entry_rows(2, 2) + entry_rows(1_048_576, 1_048_576), dimension="A1:XFD1048576")
    assert len(data) < 2_000
    message, seconds = refused_quickly(data)
    assert "5000" in message and seconds < BOMB_RATIO * honest, (seconds, honest)


def test_a_zip_that_unpacks_to_too_much_is_refused_before_parsing(honest):
    filler = "<row/>" * 4_000_000  # 24 MB of XML, a few KiB packed
    data = xlsx(entry_rows(2, 3) + filler)
    assert len(data) < 200_000
    message, seconds = refused_quickly(data)
    assert seconds < 0.1 * honest, (seconds, honest)  # never parsed
    assert message == "文件解压后太大"


def test_one_line_of_a_hundred_thousand_cells_is_refused_before_openpyxl_reads_it(honest):
    """One line of 400,000 cells cost openpyxl 5 s before any limit could look at it."""
    cell = '<c t="inlineStr"><is><t>x</t></is></c>'
    data = xlsx('<row r="2">' + cell * 200_000 + "</row>")
    message, seconds = refused_quickly(data)
    assert message == "文件单元格太多" and seconds < BOMB_RATIO * honest, (seconds, honest)


def test_a_dimension_that_lies_does_not_cut_the_sheet_short():
    """openpyxl stops at the <dimension>'s last line unless told to ignore it."""
    rows = importing.read_upload(SimpleUploadedFile("d.xlsx", xlsx(entry_rows(2, 40), "A1:D2")))
    assert len(rows) == 39


def test_a_csv_of_blank_lines_is_refused_while_it_is_read(honest):
    data = ("union,player1,player2,player3\n" + "\n" * 1_500_000).encode()
    assert len(data) < importing.MAX_BYTES
    message, seconds = refused_quickly(data, "blank.csv")
    assert "5000" in message and seconds < BOMB_RATIO * honest, (seconds, honest)


@pytest.mark.django_db
def test_the_import_page_refuses_the_bomb_with_a_400(setup):
    client = Client()
    client.force_login(setup.organiser)
    upload = SimpleUploadedFile("bomb.xlsx", bomb())
    response = client.post(f"/manage/events/{setup.event.pk}/import/", {"file": upload})
    assert response.status_code == 400 and "文件单元格太多" in response.content.decode()


@pytest.mark.django_db
def test_a_file_over_the_cap_is_refused_before_it_is_read(setup, settings):
    client = Client()
    client.force_login(setup.organiser)
    upload = SimpleUploadedFile("big.csv", b"union,player1\n" + b"x,y\n" * 600_000)
    response = client.post(f"/manage/events/{setup.event.pk}/import/", {"file": upload})
    assert response.status_code == 400
    assert "文件太大" in response.content.decode()


def test_django_and_nginx_cap_upload_sizes():
    from pathlib import Path

    from django.conf import settings

    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE <= 2 * 1024 * 1024
    assert settings.FILE_UPLOAD_MAX_MEMORY_SIZE <= 3 * 1024 * 1024
    assert settings.FILE_UPLOAD_HANDLERS[0] == "gouji_tournament.uploads.CappedUploadHandler"
    conf = (Path(settings.BASE_DIR) / "deploy" / "nginx.conf").read_text()
    import re

    # The server's own cap is 4 MB; only the score sheets' photo routes take more: one photo
    # (SHEET_PHOTO_MAX_BYTES and a form's fields) or the desk's stack of them.
    server = re.findall(r"^    client_max_body_size\s+(\d+)m;", conf, re.M)
    assert server == ["4"]
    photo = -(-settings.SHEET_PHOTO_MAX_BYTES // (1024 * 1024)) + 1
    larger = re.findall(r"location ~ (\S+) \{\s*client_max_body_size\s+(\d+)m;", conf)
    assert {int(size) for _, size in larger} <= {photo, 200}, larger
    assert all("photo" in where or "sheets/stack" in where for where, _ in larger), larger
    sizes = re.findall(r"^\s*client_max_body_size\s+(\d+)m;", conf, re.M)
    assert len(sizes) == 1 + len(larger)  # no other cap anywhere
