"""The score sheet's event strip: the rare events of a deal (a suffocation, R27; a revolution,
R29; a declaration, R34) written as lines at the foot of the page, each the deal's row number
and the kind's seats; printed in free space, read like every box, given to its deal's row,
prefilled into the referee's form and judged by the rules engine."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from matches.games.gouji.referee_form import DealEntry
from matches.models import DealReport, SheetPhoto
from matches.paper import layout, reader
from matches.paper.layout import SheetKey
from matches.sheets import service as sheets
from tests.sheets.photos import random_values, refusals, sheet_photo, sheet_row

SIX = (1, 2, 3, 4, 5, 6)


def overlaps(a: tuple, b: tuple, margin: float = 0.0) -> bool:
    """Two rectangles (x, y, w, h) in millimetres, closer than `margin`."""
    return not (
        a[0] + a[2] + margin <= b[0]
        or b[0] + b[2] + margin <= a[0]
        or a[1] + a[3] + margin <= b[1]
        or b[1] + b[3] + margin <= a[1]
    )


@pytest.mark.parametrize("seats", [6, 8])
@pytest.mark.parametrize("rows", [1, 4, 8, 11, 12, 16, 20])
def test_the_strip_sits_in_free_space_on_every_sheet(seats, rows):
    """Below the rows (whatever their number), clear of the corner codes (1 mm of quiet zone),
    inside the page with room for a printer's margin, no box on another."""
    key = SheetKey(1, 2, 3, seats, rows)
    strip = [(b.x, b.y, layout.BOX, layout.BOX) for b in layout.event_boxes(key)]
    assert len(strip) == layout.EVENT_LINES * (4 + 3 + 4)
    codes = [
        (cx - layout.CORNER_QR / 2, cy - layout.CORNER_QR / 2, layout.CORNER_QR, layout.CORNER_QR)
        for cx, cy in layout.CORNER_CENTRES
    ]
    rows_boxes = [(b.x, b.y, layout.BOX, layout.BOX) for b in layout.boxes(key)]
    for k, box in enumerate(strip):
        assert box[1] >= layout.ROWS_BOTTOM + 3  # room for the columns' headings
        assert box[0] >= 5 and box[0] + box[2] <= layout.PAGE_W - 5
        assert box[1] + box[3] <= layout.PAGE_H - 5
        assert not any(overlaps(box, code, margin=1.0) for code in codes)
        assert not any(overlaps(box, other) for other in rows_boxes + strip[k + 1 :])


def test_an_older_sheet_has_no_strip_and_keeps_its_key():
    key, corner = SheetKey.parse("GJS1/e1/r2/t3/s6/d8/c0")
    assert not key.events and layout.event_boxes(key) == [] and corner == 0
    assert key.text(0) == "GJS1/e1/r2/t3/s6/d8/c0"
    now = SheetKey(1, 2, 3, 6, 8)
    assert now.text(1).startswith("GJS3/") and SheetKey.parse(now.text(1)) == (now, 1)
    strip_sheet, _corner = SheetKey.parse("GJS2/e1/r2/t3/s6/d8/c0")
    assert strip_sheet.events and len(layout.event_boxes(strip_sheet)) == len(
        layout.event_boxes(now)
    )


def sure(digit: int) -> reader.Field:
    return reader.Field(digit, 0.9999, tuple(0.9999 if d == digit else 0.00001 for d in range(10)))


def strip_rows(lines: dict[str, reader.Field | int], rows: int = 4) -> list[reader.Row]:
    """A sheet of six seats whose only written boxes are the strip's `lines` ("s_by.0": a
    digit read sure, or a Field)."""
    key = SheetKey(7, 3, 12, 6, rows)
    fields = {box.name: reader.Field(None, 1.0) for box in layout.every_box(key)}
    for name, value in lines.items():
        fields[f"0.{name}"] = sure(value) if isinstance(value, int) else value
    return reader.rows(reader.Reading(key, fields, 4))


def hesitant(digit: int, other: int, share: float) -> reader.Field:
    odds = [0.0] * 10
    odds[digit], odds[other] = share, 1 - share
    return reader.Field(digit, share, tuple(odds))


CASES = [
    # (what is written, the row it lands in, what the row holds, the boxes for a person)
    ({"s_units.0": 2, "s_by.0": 3, "s_seat.0": 5}, 2, {"suffocated": [(5, 3)]}, []),
    ({"r_tens.1": 0, "r_units.1": 3, "r_seat.1": 4}, 3, {"revolution": [4]}, []),
    ({"d_units.2": 1, "d_seat.2": 6, "d_kind.2": 2}, 1, {"declarations": [(6, 2)]}, []),
    # a seat that is no seat of the table; a kind that is none
    ({"r_units.0": 2, "r_seat.0": 7}, 2, {"revolution": [7]}, ["r_seat.0"]),
    ({"d_units.0": 2, "d_seat.0": 1, "d_kind.0": 5}, 2, {"declarations": [(1, 5)]}, ["d_kind.0"]),
    # half a line: the blank box is for a person
    ({"s_units.0": 3, "s_seat.0": 2}, 3, {"suffocated": [(2, None)]}, ["s_by.0"]),
    ({"r_seat.0": 4}, 1, {"revolution": [4]}, ["r_units.0", "r_tens.0", "r_units.0"]),
    # a deal that is no row of the sheet: the nearest row, the deal's boxes for a person
    ({"r_units.0": 9, "r_seat.0": 4}, 4, {"revolution": [4]}, ["r_tens.0", "r_units.0"]),
    # a tens box's 0 read as a 6: no deal of the sheet, its units' row, the deal for a person
    (
        {"r_tens.0": hesitant(6, 0, 0.6), "r_units.0": 2, "r_seat.0": 4},
        2,
        {"revolution": [4]},
        ["r_tens.0", "r_units.0"],
    ),
    # a tens box's 0 read sure: deal 3
    ({"r_tens.0": 0, "r_units.0": 3, "r_seat.0": 4}, 3, {"revolution": [4]}, []),
    # a seat read unsure
    ({"s_units.0": 1, "s_by.0": 2, "s_seat.0": hesitant(3, 5, 0.9)}, 1, {}, ["s_seat.0"]),
]


@pytest.mark.parametrize(("lines", "number", "holds", "unsure"), CASES)
def test_a_line_is_read_into_its_deals_row(lines, number, holds, unsure):
    rows = strip_rows(lines)
    row = rows[number - 1]
    for name, value in holds.items():
        assert getattr(row, name) == value
    assert sorted(set(row.unsure)) == sorted(set(unsure))
    assert not row.blank
    assert all(other.blank for other in rows if other is not row)


def test_the_form_takes_a_rows_events():
    entry = DealEntry.from_sheet_row(
        {
            "finish": [2, 3, 4, 5, 6, 1],
            "suffocated": [(1, 4)],
            "revolution": [5],
            "declarations": [(2, 1), (3, 2), (4, 3), (6, 9)],
        },
        SIX,
    )
    summary = entry.summary()
    assert summary["suffocated"] == [{"seat": 1, "by": 4}]
    assert summary["revolution"] == [5]
    assert summary["declarations"] == {"2": "clear", "3": "unclear", "4": "special"}


@pytest.mark.parametrize("seats", [6, 8])
def test_the_generated_events_are_legal_for_their_deals(seats):
    """Over a few sheets every kind is written, on played rows, each row still accepted."""
    import numpy as np

    kinds = set()
    for seed in range(12):
        key = SheetKey(1, 2, 3, seats, 8)
        values = random_values(key, np.random.default_rng(seed), 8, np.random.default_rng(seed + 1))
        for number in range(1, 9):
            row = sheet_row(values, number, seats)
            kinds |= {k for k in ("suffocated", "revolution", "declarations") if row[k]}
            assert refusals(row, seats) == []
    assert kinds == {"suffocated", "revolution", "declarations"}


ORDER = [3, 1, 5, 2, 6, 4]  # seat 2 is 4th: where R29 places a revolutionary


@pytest.fixture
def hold_three_table(build):
    b = build(unions=2, deals=2, rules={"preset": "standard", "hold_three": True})
    round_ = b.round([(0, 1)])
    match = b.match(round_, 1)
    return b, match, reverse("referee:link-table", args=[b.people.referee_link.token])


def events_photo(match, seed: int, events: dict) -> bytes:
    key = sheets.expected_key(match)
    values: dict[str, int | None] = {box.name: None for box in layout.every_box(key)}
    for place, seat in enumerate(ORDER):
        values[f"1.finish.{place}"] = seat
    values.update({f"0.{name}": digit for name, digit in events.items()})
    data, _values = sheet_photo(key, seed, values=values)
    return data


#: deal 1: seat 4 (6th) suffocated by seat 3, seat 2 (4th) declared revolution
LEGAL = {"s_units.0": 1, "s_by.0": 3, "s_seat.0": 4, "r_units.0": 1, "r_seat.0": 2}


def read_on_the_phone(client, url, data, capture):
    with capture(execute=True):
        client.post(url + "photo", {"photo": io.BytesIO(data)})
    return client.get(url).content.decode()


def test_a_photo_with_a_suffocation_and_a_revolution_is_read_and_prefilled(
    client, hold_three_table, django_capture_on_commit_callbacks
):
    b, match, url = hold_three_table
    html = read_on_the_phone(
        client, url, events_photo(match, 3, LEGAL), django_capture_on_commit_callbacks
    )
    photo = SheetPhoto.objects.get(match=match)
    assert photo.state == "read", photo.message
    row = sheets.row_of(photo, 1)
    assert row["suffocated"] == [[4, 3]] and row["revolution"] == [2], row
    # The deal form holds them: the suffocation's row, the revolution's tick.
    assert 'name="suff_0_by"' in html and 'name="revolution_2" value="1" checked' in html
    assert '<option value="3" selected' in html.split('name="suff_0_by"')[1].split("</select>")[0]
    assert '<option value="4" selected' in html.split('name="suff_0_seat"')[1].split("</select>")[0]
    form = {
        "finish": ",".join(map(str, ORDER)),
        "revolution_2": "1",
        "suff_rows": "1",
        "suff_0_seat": "4",
        "suff_0_by": "3",
        "burn_rows": "1",
        "sheet_photo": str(photo.pk),
        "sheet_checked": row["unsure"],
        "idempotency_key": "strip-1",
    }
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url + "deals/1/submit", form).status_code == 302
    summary = DealReport.objects.get(deal__match=match, deal__number=1).summary
    assert summary["suffocated"] == [{"seat": 4, "by": 3}] and summary["revolution"] == [2]


def test_a_suffocation_read_where_the_rules_have_none_is_refused_with_its_rule(
    client, build, django_capture_on_commit_callbacks
):
    """The standard rules have no hold-three: the engine's check, run as the form fills, says
    R27 on the page before anyone submits."""
    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    url = reverse("referee:link-table", args=[b.people.referee_link.token])
    events = {"s_units.0": 1, "s_by.0": 3, "s_seat.0": 4}
    html = read_on_the_phone(
        client, url, events_photo(match, 4, events), django_capture_on_commit_callbacks
    )
    assert sheets.row_of(SheetPhoto.objects.get(match=match), 1)["suffocated"] == [[4, 3]]
    assert 'data-code="suffocation_without_hold_three" data-rule="R27"' in html


@pytest.mark.parametrize(
    ("events", "rules", "rule", "code"),
    [
        ({"suffocated": [(4, 3)]}, {"preset": "standard"}, "R27", "suffocation_without_hold_three"),
        ({"revolution": [3]}, {"preset": "standard"}, "R29", "revolution_place"),
        ({"declarations": [(5, 3)]}, {"preset": "standard"}, "R34", "special_not_allowed"),
        ({"suffocated": [(1, 3)]}, {"preset": "standard", "hold_three": True}, "R27", None),
    ],
)
def test_an_event_the_rules_refuse_is_refused_with_its_rule(events, rules, rule, code):
    """A line read as written goes to the engine as written: a suffocation without hold-three,
    a revolutionary who finished 1st (R29 places one 4th), a 特点 the rules do not allow, a
    suffocated seat that finished 1st (R27: the lowest open place)."""
    from matches.games.gouji.results import settle_summary
    from matches.kernel.reports import ResultError

    row = {"finish": [3, 1, 5, 2, 6, 4], **events}
    summary = DealEntry.from_sheet_row(row, SIX).summary()
    try:
        _, verdict = settle_summary(summary, rules)
        errors = [e.to_json() for e in verdict.errors]
    except ResultError as exc:
        errors = exc.problems()
    assert any(e.get("rule") == rule and code in (None, e.get("code")) for e in errors), errors
