"""A GJS3 sheet's burn outcome boxes (one beside each burn pair at six seats: blank or 1 烧成,
2 反烧, 3 被中断, 4 烧失败) and its failed 特点 (a 宣点 line's kind 4): printed, read like every
box, given to the burn in the form, judged by the rules engine; GJS1 and GJS2 sheets still read."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse

from matches.games.gouji.referee_form import DealEntry
from matches.models import SheetPhoto
from matches.paper import layout, reader
from matches.paper.layout import SheetKey
from matches.sheets import service as sheets
from tests.sheets.photos import refusals, sheet_photo

SIX = (1, 2, 3, 4, 5, 6)
ORDER = [3, 1, 5, 2, 6, 4]


def written(key: SheetKey, boxes: dict) -> dict:
    values: dict[str, int | None] = {box.name: None for box in layout.every_box(key)}
    for place, seat in enumerate(ORDER):
        values[f"1.finish.{place}"] = seat
    values.update(boxes)
    return values


@pytest.mark.parametrize("rows", [1, 8, 20])
def test_the_outcome_boxes_sit_beside_their_burns_inside_the_page(rows):
    key = SheetKey(1, 2, 3, 6, rows)
    assert key.magic == "GJS3" and key.outcomes
    boxes = layout.boxes(key)
    outcomes = [b for b in boxes if b.field == "outcome"]
    assert len(outcomes) == rows * layout.BURN_PAIRS
    for box in outcomes:
        burned = next(
            b for b in boxes if (b.field, b.row, b.index) == ("burned", box.row, box.index)
        )
        assert box.y == burned.y and box.x == burned.x + layout.BOX + layout.OUTCOME_GAP
        assert box.x + layout.BOX <= layout.PAGE_W - 8
    # No box on another.
    spans = sorted((b.row, b.x) for b in boxes)
    for (row, x), (next_row, next_x) in zip(spans, spans[1:]):
        assert row != next_row or next_x - x >= layout.BOX


def test_eight_seats_have_no_room_and_older_sheets_keep_their_boxes():
    """At eight seats the second burn ends at 201 mm: no outcome box (set in the form). A GJS2
    or GJS1 sheet's boxes are where they were printed."""
    assert not SheetKey(1, 2, 3, 8, 8).outcomes
    assert not any(b.field == "outcome" for b in layout.boxes(SheetKey(1, 2, 3, 8, 8)))
    for magic in ("GJS1", "GJS2"):
        old = SheetKey(1, 2, 3, 6, 8, magic)
        assert not old.outcomes and old.declaration_kinds == [1, 2, 3]
        burners = [b.x for b in layout.boxes(old) if b.field == "burner" and b.row == 1]
        assert burners == [133.0, 159.0]
    assert SheetKey(1, 2, 3, 8, 8).declaration_kinds == [1, 2, 3, 4]
    assert SheetKey.parse("GJS3/e1/r2/t3/s6/d8/c2") == (SheetKey(1, 2, 3, 6, 8), 2)


@pytest.mark.parametrize("magic", ["GJS1", "GJS2"])
def test_an_older_sheet_still_reads(magic):
    key = SheetKey(1, 2, 3, 6, 4, magic)
    values = written(key, {"1.burner.0": 3, "1.burned.0": 5})
    data, _values = sheet_photo(key, 7, values=values)
    reading = reader.read_sheet(data, key)
    row = reader.rows(reading)[0]
    assert row.finish == ORDER and row.burns == [(3, 5)] and row.burn_outcomes == [None]
    assert not any(name.split(".")[1] == "outcome" for name in reading.fields)


def test_a_photo_gives_each_burn_its_outcome_and_marks_a_digit_that_is_none():
    """Row 1: 3 → 5 被中断 (3), 1 → 2 blank (a success); row 2: 3 → 5 written 6, no outcome."""
    key = SheetKey(1, 2, 3, 6, 4)
    values = written(
        key,
        {
            "1.burner.0": 3,
            "1.burned.0": 5,
            "1.outcome.0": 3,
            "1.burner.1": 1,
            "1.burned.1": 2,
            "2.burner.0": 3,
            "2.burned.0": 5,
            "2.outcome.0": 6,
        },
    )
    data, _values = sheet_photo(key, 5, values=values)
    rows = reader.rows(reader.read_sheet(data, key))
    assert rows[0].burns == [(3, 5), (1, 2)] and rows[0].burn_outcomes == [3, None]
    assert not any(name.startswith("outcome") for name in rows[0].unsure), rows[0].unsure
    assert rows[1].burns == [(3, 5)] and "outcome.0" in rows[1].unsure


def test_a_failed_special_is_read_from_its_line():
    key = SheetKey(1, 2, 3, 6, 4)
    values = written(key, {"0.d_units.0": 1, "0.d_seat.0": 2, "0.d_kind.0": 4})
    data, _values = sheet_photo(key, 6, values=values)
    row = reader.rows(reader.read_sheet(data, key))[0]
    assert row.declarations == [(2, 4)] and not any(n.startswith("d_") for n in row.unsure)


def test_the_form_takes_the_outcomes_and_a_failed_special():
    entry = DealEntry.from_sheet_row(
        {
            "finish": ORDER,
            "burns": [(3, 5), (1, 2), (None, None)],
            "burn_outcomes": [3, None, 2],
            "declarations": [(2, 4), (6, 1)],
        },
        SIX,
    )
    summary = entry.summary()
    assert [(b["burner"], b["burned"], b["outcome"]) for b in summary["burns"]] == [
        (3, 5, "stopped"),
        (1, 2, "success"),
    ]
    assert summary["declarations"] == {"2": "special", "6": "clear"}
    assert summary["special_failed"] == [2]
    # A sheet before GJS3 gives no outcomes: every burn a success, as before.
    old = DealEntry.from_sheet_row({"finish": ORDER, "burns": [(3, 5)]}, SIX).summary()
    assert old["burns"][0]["outcome"] == "success"


def test_a_wrong_outcome_is_refused_with_its_rule():
    """A 反烧 read where no burn it stopped is listed just before it: R22, as typed."""
    row = {"finish": ORDER, "burns": [(3, 5)], "burn_outcomes": [2]}
    assert any(
        e.get("rule") == "R22" and e.get("code") == "counter_without_burn" for e in refusals(row, 6)
    )
    assert refusals({**row, "burn_outcomes": [3]}, 6) == []


def test_a_photo_prefills_the_burns_outcome_and_the_failed_special(
    client, build, django_capture_on_commit_callbacks
):
    b = build(unions=2, deals=2, rules={"preset": "standard", "special_declaration": True})
    match = b.match(b.round([(0, 1)]), 1)
    url = reverse("referee:link-table", args=[b.people.referee_link.token])
    key = sheets.expected_key(match)
    assert key.magic == "GJS3"
    values = written(
        key,
        {
            "1.burner.0": 3,
            "1.burned.0": 5,
            "1.outcome.0": 3,
            "0.d_units.0": 1,
            "0.d_seat.0": 2,
            "0.d_kind.0": 4,
        },
    )
    data, _values = sheet_photo(key, 8, values=values)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url + "photo", {"photo": io.BytesIO(data)})
    photo = SheetPhoto.objects.get(match=match)
    assert photo.state == "read", photo.message
    row = sheets.row_of(photo, 1)
    assert row["burns"] == [[3, 5]] and row["burn_outcomes"] == [3], row
    html = client.get(url).content.decode()
    outcome = html.split('name="burn_0_outcome"')[1].split("</select>")[0]
    assert '<option value="stopped" selected' in outcome
    assert 'name="special_failed_2" value="1" checked' in html


@pytest.mark.parametrize(("magic", "marked"), [("GJS2", True), ("GJS3", False)])
def test_a_kind_4_is_a_failed_special_only_where_its_sheet_prints_it(magic, marked):
    key = SheetKey(7, 3, 12, 6, 4, magic)
    fields = {box.name: reader.Field(None, 1.0) for box in layout.every_box(key)}
    sure = {"d_units.0": 1, "d_seat.0": 2, "d_kind.0": 4}
    for name, digit in sure.items():
        fields[f"0.{name}"] = reader.Field(
            digit, 0.9999, tuple(0.9999 if d == digit else 0.00001 for d in range(10))
        )
    row = reader.rows(reader.Reading(key, fields, 4))[0]
    assert row.declarations == [(2, 4)] and ("d_kind.0" in row.unsure) == marked


def test_the_desk_types_an_outcome_and_a_failed_special_and_shows_them_again():
    from matches.games.gouji.sheet_desk import GoujiDesk

    desk = GoujiDesk()
    burns = next(g for g in desk.groups(6) if "outcome.0" in g.names)
    assert burns.names[:3] == ("burner.0", "burned.0", "outcome.0")
    typed = {f"d1.finish.{p}": str(s) for p, s in enumerate(ORDER)}
    typed |= {"d1.burner.0": "3", "d1.burned.0": "5", "d1.outcome.0": "3"}
    typed |= {"d0.d_units.0": "1", "d0.d_seat.0": "2", "d0.d_kind.0": "4"}
    rows, problems = desk.rows(typed, 6, 2, set())
    assert problems == [] and rows[0]["burns"] == [[3, 5]] and rows[0]["burn_outcomes"] == [3]
    summary = DealEntry.from_sheet_row(rows[0], SIX).summary()
    assert summary["burns"][0]["outcome"] == "stopped" and summary["special_failed"] == [2]
    again = desk.values([(1, summary)])
    assert again["d1.outcome.0"] == "3" and again["d0.d_kind.0"] == "4"
    _rows, problems = desk.rows({**typed, "d1.outcome.0": "6"}, 6, 2, set())
    assert [p["code"] for p in problems] == ["not_an_outcome"]


def test_a_wrong_outcome_read_is_refused_on_the_page_with_its_rule(
    client, build, django_capture_on_commit_callbacks
):
    """A 2 (反烧) read in the outcome box of a burn that stopped nothing: the engine's check,
    run as the form fills, says R22 on the phone's page before anyone submits."""
    b = build(unions=2, deals=2)
    match = b.match(b.round([(0, 1)]), 1)
    url = reverse("referee:link-table", args=[b.people.referee_link.token])
    key = sheets.expected_key(match)
    values = written(key, {"1.burner.0": 3, "1.burned.0": 5, "1.outcome.0": 2})
    data, _values = sheet_photo(key, 9, values=values)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url + "photo", {"photo": io.BytesIO(data)})
    assert sheets.row_of(SheetPhoto.objects.get(match=match), 1)["burn_outcomes"] == [2]
    html = client.get(url).content.decode()
    assert 'data-code="counter_without_burn" data-rule="R22"' in html
