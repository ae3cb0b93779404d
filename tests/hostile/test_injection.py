"""HTML, script and spreadsheet-formula injection in player, union and event names: shown as
text everywhere (organiser, referee and public pages, API JSON, CSV and Excel exports, PDFs)."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.urls import reverse

from matches.events.exports import FORMULA_STARTS
from matches.models import UnionMember
from tests.standings.conftest import eager_celery  # noqa: F401 (fixture)
from tests.standings.test_manage import pdf_text

EVENT = '<script>alert("event")</script>杯'
UNIONS = ["<img src=x onerror=alert(1)>", "=cmd|' /C calc'!A0"]
PLAYERS = ["<b>粗</b>&amp;", "+SUM(1,2)", "@evil()", '"><svg onload=alert(2)>']
RAW = ["<script>alert", "<img src=x", "<b>粗</b>", "<svg onload"]

pytestmark = pytest.mark.django_db


@pytest.fixture
def hostile(build, client):
    b = build(unions=2, deals=1, name=EVENT, names=UNIONS, player_names=PLAYERS)
    players = [m.player for m in UnionMember.objects.filter(union__in=b.unions).order_by("pk")]
    round_ = b.round([(0, 1)])
    match = b.match(round_, 1)
    b.final(match, 1, [1, 2, 3, 4, 5, 6], points=[3])
    b.standings()
    client.force_login(b.organiser)
    return {
        "b": b,
        "round": round_,
        "match": match,
        "link": b.people.referee_link,
        "client": client,
        "players": players,
    }


def assert_escaped(html: str, where: str) -> None:
    for raw in RAW:
        assert raw not in html, f"{where}: {raw!r} is not escaped"


def test_pages_show_the_names_as_text(hostile):
    b, client, match = hostile["b"], hostile["client"], hostile["match"]
    event_id = b.event.pk
    union = b.unions[0]
    player = hostile["players"][0]
    pages = [
        "/",
        reverse("public:event", args=[event_id]),
        reverse("public:round", args=[event_id, 1]),
        reverse("public:table", args=[event_id, 1, match.table.number]),
        reverse("public:standings", args=[event_id]),
        reverse("public:standings", args=[event_id]) + "?kind=players",
        reverse("public:player", args=[event_id, player.pk]),
        reverse("public:union", args=[event_id, union.pk]),
        reverse("manage:events"),
        reverse("manage:dashboard", args=[event_id]),
        reverse("manage:progress", args=[event_id]),
        f"/manage/events/{event_id}/results/",
        f"/manage/events/{event_id}/results/tables/{match.table.pk}/",
        f"/ref/{hostile['link'].token}/",
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert_escaped(html, url)
    # The escaped forms are there: the names are shown, not dropped.
    html = client.get(reverse("public:round", args=[event_id, 1])).content.decode()
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert "&lt;script&gt;alert(&quot;event&quot;)&lt;/script&gt;" in html


def test_the_api_returns_the_names_verbatim_as_json(hostile):
    b, client = hostile["b"], hostile["client"]
    response = client.get(f"/api/v1/public/events/{b.event.pk}/rounds/1/pairings/")
    assert response["Content-Type"].startswith("application/json")
    text = json.dumps(response.json(), ensure_ascii=False)
    assert all(name in text for name in UNIONS)
    assert client.get(f"/api/v1/public/events/{b.event.pk}/").json()["name"] == EVENT
    table = client.get(f"/api/v1/tables/{hostile['match'].table.pk}")
    assert table["Content-Type"].startswith("application/json")
    assert UNIONS[0] in json.dumps(table.json(), ensure_ascii=False)


def test_csv_exports_cannot_start_a_formula(hostile):
    b, client = hostile["b"], hostile["client"]
    cells = []
    for what, kind in (("standings", "unions"), ("standings", "players"), ("results", "")):
        url = reverse("manage:export", args=[b.event.pk, what, "csv"]) + f"?kind={kind}"
        text = client.get(url).content.decode("utf-8-sig")
        cells += [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    assert "'=cmd|' /C calc'!A0" in cells
    assert "'+SUM(1,2)" in cells and "'@evil()" in cells
    assert UNIONS[0] in cells  # HTML is harmless in a CSV cell: kept as it is
    texts = [c for c in cells if c and not c.lstrip("-").isdigit()]
    assert not [c for c in texts if c[0] in FORMULA_STARTS], texts


def test_excel_exports_hold_the_names_as_text_not_formulas(hostile):
    from openpyxl import load_workbook

    b, client = hostile["b"], hostile["client"]
    values = []
    for what, kind in (("standings", "unions"), ("standings", "players"), ("results", "")):
        url = reverse("manage:export", args=[b.event.pk, what, "xlsx"]) + f"?kind={kind}"
        sheet = load_workbook(io.BytesIO(client.get(url).content)).active
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", f"{cell.coordinate} is a formula: {cell.value!r}"
                values.append(cell.value)
    assert UNIONS[1] in values and "+SUM(1,2)" in values and "@evil()" in values


def test_pdfs_draw_the_names_literally(hostile):
    b, client = hostile["b"], hostile["client"]
    for name in ("table-cards", "pairings-pdf"):
        response = client.get(reverse(f"manage:{name}", args=[b.event.pk, 1]))
        assert response.status_code == 200 and response.content.startswith(b"%PDF-")
        text = pdf_text(response.content)
        assert UNIONS[0] in text, name
        if name == "table-cards":
            assert PLAYERS[0] in text and PLAYERS[3] in text
