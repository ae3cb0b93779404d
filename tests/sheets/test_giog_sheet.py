"""Giog's readable score sheet (matches/games/giog/sheet.py): printed from the round page as
Gou Ji's is, a row per hand with the pieces each seat won and the beheaded seats; read from a
photo into the hand form of the table's page, every unsure box marked for a person, the
summary judged by the Giog engine (G10: the counts must add up to the pieces in play)."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from matches.draw.sheet_printing import score_sheets_pdf
from matches.games.giog.sheet import MAGIC, SHEET
from matches.models import DealReport, SheetPhoto
from matches.paper import layout, reader
from matches.paper.layout import SheetKey
from matches.sheets import service as sheets
from tests.sheets.photos import giog_photo, giog_values
from tests.sheets.test_printed_sheet import keys_on, pages


def first_table(round_):
    return round_.matches.select_related("table").order_by("table__number").first()


def test_each_giog_table_gets_a_sheet_of_its_own_seats(giog, tmp_path):
    round_ = giog.draw()
    printed = pages(score_sheets_pdf(round_), tmp_path)
    tables = list(round_.matches.played().select_related("table").order_by("table__number"))
    assert len(printed) == len(tables) == 2
    for match, page in zip(tables, printed):
        corners = keys_on(page)
        assert sorted(corners) == [0, 1, 2, 3]
        want = sheets.expected_key(match)
        assert want.magic == MAGIC and want.seats == match.table.seats.count() == 4
        assert set(corners.values()) == {want}


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_boxes_lie_clear_of_each_other_and_the_codes(seats):
    key = SheetKey(1, 1, 1, seats, 20, MAGIC)
    found = SHEET.boxes(key)
    assert len(found) == 20 * (2 * seats + 2)
    spots = {(round(b.x), round(b.y)) for b in found}
    assert len(spots) == len(found)
    for box in found:
        assert 25 <= box.x and box.x + layout.BOX <= 180
        assert layout.ROWS_TOP <= box.y and box.y + layout.BOX <= layout.ROWS_BOTTOM


def sure(digit: int) -> reader.Field:
    return reader.Field(digit, 0.9999, tuple(0.9999 if d == digit else 0.00001 for d in range(10)))


def hand(written: dict[str, int | reader.Field], seats: int = 3) -> reader.Reading:
    key = SheetKey(7, 3, 12, seats, 2, MAGIC)
    fields = {box.name: reader.Field(None, 1.0) for box in SHEET.boxes(key)}
    for name, value in written.items():
        fields[f"1.{name}"] = sure(value) if isinstance(value, int) else value
    return reader.Reading(key, fields, 4)


ZERO_AS_6 = reader.Field(6, 0.7, tuple(0.7 if d == 6 else 0.3 if d == 5 else 0 for d in range(10)))
UNSURE_3 = reader.Field(3, 0.8, tuple(0.8 if d == 3 else 0.2 if d == 8 else 0 for d in range(10)))
CASES = [
    # (boxes written in hand 1 at three seats, pieces won, beheaded, boxes for a person)
    (
        {"won_tens.0": 1, "won_units.0": 2, "won_units.1": 6, "won_tens.2": 1, "won_units.2": 2},
        {1: 12, 2: 6, 3: 12},
        [],
        [],
    ),
    # a seat left blank in a written hand; a beheaded seat
    (
        {"won_units.0": 9, "won_tens.1": 2, "won_units.1": 1, "beheaded.0": 3},
        {1: 9, 2: 21, 3: None},
        [3],
        ["won_units.2"],
    ),
    # a tens written without its units
    (
        {"won_tens.0": 1, "won_units.1": 6, "won_units.2": 3},
        {1: None, 2: 6, 3: 3},
        [],
        ["won_units.0"],
    ),
    # an unsure box in a hand that adds up (3 + 21 + 6 = 30 pieces in play)
    (
        {"won_units.0": UNSURE_3, "won_tens.1": 2, "won_units.1": 1, "won_units.2": 6},
        {1: 3, 2: 21, 3: 6},
        [],
        ["won_units.0"],
    ),
    # a 0 read as a 6 (the readers' blind spot) where the hand needs a 0: mended, sure
    (
        {"won_units.0": ZERO_AS_6, "won_tens.1": 2, "won_units.1": 1, "won_units.2": 9},
        {1: 0, 2: 21, 3: 9},
        [],
        [],
    ),
    # the same with another seat unsure too: not mended, both for a person
    (
        {"won_units.0": ZERO_AS_6, "won_tens.1": 2, "won_units.1": 1, "won_units.2": UNSURE_3},
        {1: 6, 2: 21, 3: 3},
        [],
        ["won_units.0", "won_units.2"],
    ),
    # counts that add up but are no multiple of the three players (a trick holds 3 of each play)
    (
        {"won_units.0": 4, "won_tens.1": 2, "won_units.1": 0, "won_units.2": 6},
        {1: 4, 2: 20, 3: 6},
        [],
        ["won_units.0", "won_tens.1", "won_units.1"],
    ),
    # a tens no count can have (51), and the hand does not add up: every count box
    (
        {"won_tens.0": 5, "won_units.0": 1, "won_units.1": 6, "won_units.2": 4},
        {1: 51},
        [],
        ["won_tens.0", "won_units.0", "won_units.1", "won_units.2"],
    ),
    # a beheaded seat that is no seat of the table
    (
        {"won_tens.0": 2, "won_units.0": 1, "won_units.1": 6, "won_units.2": 3, "beheaded.1": 4},
        {1: 21},
        [4],
        ["beheaded.1"],
    ),
]


@pytest.mark.parametrize(("written", "won", "beheaded", "unsure"), CASES)
def test_a_hand_row_is_read_with_its_doubts(written, won, beheaded, unsure):
    row = SHEET.rows(hand(written))[0]
    for seat, count in won.items():
        assert row.won[seat] == count
    assert row.beheaded == beheaded
    assert sorted(row.unsure) == sorted(unsure)
    assert SHEET.rows(hand(written))[1].blank


@pytest.fixture
def giog_table(giog):
    match = first_table(giog.draw())
    link = match.table.referee_links.create()
    return giog, match, reverse("referee:link-table", args=[link.token])


def send(client, url, data, capture) -> str:
    with capture(execute=True):
        client.post(url + "photo", {"photo": io.BytesIO(data)})
    return client.get(url).content.decode()


def test_a_giog_sheet_is_read_into_the_hand_form_and_submitted(
    client, giog_table, django_capture_on_commit_callbacks
):
    b, match, url = giog_table
    key = sheets.expected_key(match)
    values = giog_values(key, 5)
    data, _ = giog_photo(key, 5, values)
    html = send(client, url, data, django_capture_on_commit_callbacks)
    photo = SheetPhoto.objects.get(match=match)
    assert photo.state == "read", photo.message
    row = sheets.row_of(photo, 1)
    want = {
        seat: (values[f"1.won_tens.{seat - 1}"] or 0) * 10 + values[f"1.won_units.{seat - 1}"]
        for seat in range(1, 5)
    }
    # Every seat's count is what was written, or marked for a person; the form holds the reads.
    for seat in range(1, 5):
        got = row["won"][str(seat)]
        assert (
            got == want[seat]
            or f"won_units.{seat - 1}" in row["unsure"]
            or (f"won_tens.{seat - 1}" in row["unsure"])
        )
        if got is not None:
            assert f'name="won_{seat}" value="{got}"' in html
    assert f'name="sheet_photo" value="{photo.pk}"' in html
    form = {f"won_{s}": str(want[s]) for s in range(1, 5)}
    form |= {"sheet_photo": str(photo.pk), "sheet_checked": row["unsure"], "idempotency_key": "g1"}
    beheaded = [values[f"1.beheaded.{k}"] for k in range(2) if values[f"1.beheaded.{k}"]]
    form |= {f"beheaded_{s}": "1" for s in beheaded}
    if row["unsure"]:  # refused until each marked box is ticked
        short = {**form, "sheet_checked": row["unsure"][1:]}
        assert client.post(url + "deals/1/submit", short).status_code == 422
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url + "deals/1/submit", form).status_code == 302
    report = DealReport.objects.get(deal__match=match, deal__number=1)
    assert report.summary["won"] == {str(s): want[s] for s in range(1, 5)}


def test_counts_that_do_not_add_up_are_refused_with_the_rule(
    client, giog_table, django_capture_on_commit_callbacks
):
    """Pieces won written 12, 8, 8, 8 (36, but four players have 32 in play): the engine's
    check on the page names G10 before anyone submits."""
    b, match, url = giog_table
    key = sheets.expected_key(match)
    values = {box.name: None for box in SHEET.boxes(key)}
    for seat, count in {1: 12, 2: 8, 3: 8, 4: 8}.items():
        values[f"1.won_tens.{seat - 1}"] = count // 10 or None
        values[f"1.won_units.{seat - 1}"] = count % 10
    html = send(client, url, giog_photo(key, 6, values)[0], django_capture_on_commit_callbacks)
    assert SheetPhoto.objects.get(match=match).state == "read"
    assert 'data-rule="G10"' in html
