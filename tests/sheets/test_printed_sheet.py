"""The readable score sheet prints, for six and eight seats, and each corner's QR names its
table and corner (read back from the PDF's pixels, as a phone would see the paper)."""

from __future__ import annotations

import re
import subprocess

import pytest
import zxingcpp
from django.urls import reverse
from PIL import Image

from matches.draw.sheet_printing import score_sheets_pdf
from matches.paper import layout
from matches.paper.layout import SheetKey

EIGHT = {"preset": "eight-players"}


def pages(pdf: bytes, tmp_path, dpi: int = 100) -> list[Image.Image]:
    (tmp_path / "s.pdf").write_bytes(pdf)
    subprocess.run(
        ["pdftoppm", "-r", str(dpi), "-gray", "-png", str(tmp_path / "s.pdf"), str(tmp_path / "p")],
        check=True,
    )
    return [Image.open(p) for p in sorted(tmp_path.glob("p-*.png"))]


def keys_on(page: Image.Image) -> dict[int, SheetKey]:
    found = {}
    for code in zxingcpp.read_barcodes(page):
        parsed = SheetKey.parse(code.text)
        if parsed:
            found[parsed[1]] = parsed[0]
    return found


@pytest.mark.parametrize("rules, seats", [(None, 6), (EIGHT, 8)])
def test_each_table_gets_a_sheet_whose_four_corners_name_it(build, tmp_path, rules, seats):
    b = build(unions=4, deals=3, tie_break_deals=1, rules=rules)
    round_ = b.draw()
    pdf = score_sheets_pdf(round_)
    assert pdf.startswith(b"%PDF")
    printed = pages(pdf, tmp_path)
    assert len(printed) == 2  # two tables
    for number, page in enumerate(printed, 1):
        corners = keys_on(page)
        assert sorted(corners) == [0, 1, 2, 3]
        want = SheetKey(b.event.pk, round_.number, number, seats, 4)
        assert set(corners.values()) == {want}


def test_every_box_lies_on_the_page_clear_of_the_corner_codes():
    for seats in (6, 8):
        key = SheetKey(1, 1, 1, seats, 20)
        for box in layout.boxes(key):
            assert 10 <= box.x and box.x + layout.BOX <= layout.PAGE_W - 8
            assert layout.ROWS_TOP <= box.y and box.y + layout.BOX <= layout.ROWS_BOTTOM
        burns = (3 if key.outcomes else 2) * layout.BURN_PAIRS  # an outcome box a burn at six
        assert len(layout.boxes(key)) == 20 * (seats + layout.POINT_BOXES + burns)


def test_a_corner_text_of_another_kind_is_not_a_sheet():
    assert SheetKey.parse("https://example.org/ref/abc") is None
    assert SheetKey.parse("GJS1/e1/r1/t1/s9/d3/c0") is None  # no nine-seat table
    assert SheetKey.parse("gjs1/e1/r1/t1/s6/d3/c0") is None
    assert SheetKey.parse("GJS1/e1/r1/t1/s6/d3/c0") == (SheetKey(1, 1, 1, 6, 3, "GJS1"), 0)


def test_the_organiser_prints_the_sheets_from_the_dashboard(client, build):
    b = build(unions=4, deals=2)
    b.draw()
    client.force_login(b.organiser)
    page = client.get(reverse("manage:dashboard", args=[b.event.pk])).content.decode()
    url = reverse("manage:score-sheets", args=[b.event.pk, 1])
    assert url in page
    response = client.get(url)
    assert response["Content-Type"] == "application/pdf"
    assert len(re.findall(rb"/Type /Page\b(?!s)", response.content)) == 2
    client.force_login(b.people.other_organiser)
    assert client.get(url).status_code == 403
