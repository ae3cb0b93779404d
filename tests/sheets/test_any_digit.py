"""The boxes that can hold any digit 0-9 (a deal number's on Gou Ji's event strip, the units of
Giog's pieces won), read by readers that learned every digit (`digits.ALL`, made by
`tools/train_digits.py --all` and `tools/train_convnet.py --all` from the even half of the
handwritten digits); the seats' boxes keep the readers that learned 1-8. Here the odd half
writes, as in the bench."""

from __future__ import annotations

import numpy as np
import pytest

from matches.games.giog.sheet import MAGIC, SHEET
from matches.paper import layout, reader
from matches.paper.layout import SheetKey
from tests.sheets.photos import box_crop, digit_samples, giog_photo, random_values, sheet_photo


def boxes_of(digit: int, count: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    written = digit_samples("test")[digit]
    return [box_crop(written[int(rng.integers(len(written)))], rng) for _ in range(count)]


@pytest.mark.parametrize("digit", [0, 9])
def test_a_0_and_a_9_are_read_by_the_readers_of_every_digit(digit):
    crops = boxes_of(digit, 20, digit)
    every = reader.probabilities(crops, any_digit=True)
    assert (every.argmax(axis=1) == digit).sum() >= 18
    # The seats' readers never learned them: they cannot read one.
    seats = reader.probabilities(crops)
    assert seats[:, digit].max() < 0.01


def test_the_game_says_which_boxes_hold_any_digit():
    giog = SHEET.boxes(SheetKey(1, 1, 1, 3, 4, MAGIC))
    assert {b.field for b in giog if b.any_digit} == {"won_units"}
    strip = [b for b in layout.every_box(SheetKey(1, 1, 1, 6, 12)) if b.any_digit]
    assert {b.field.split("_")[1] for b in strip} == {"tens", "units"}


def giog_hand(seed: int) -> tuple[reader.Reading, object]:
    """Three seats, 30 pieces: 0, 9 and 21 written in hand 1, photographed with `seed`."""
    key = SheetKey(1, 2, 3, 3, 4, MAGIC)
    values: dict[str, int | None] = {box.name: None for box in SHEET.boxes(key)}
    values |= {"1.won_units.0": 0, "1.won_units.1": 9, "1.won_tens.2": 2, "1.won_units.2": 1}
    data, _values = giog_photo(key, seed, values)
    reading = reader.read_sheet(data, expected=key, boxes=SHEET.boxes)
    return reading, SHEET.rows(reading)[0]


def test_a_giog_hand_of_0_and_9_pieces_is_read():
    reading, row = giog_hand(5)
    assert reading.fields["1.won_units.0"].value == 0
    assert reading.fields["1.won_units.1"].value == 9
    assert row.won == {1: 0, 2: 9, 3: 21} and row.unsure == []


def test_a_9_misread_is_marked_by_the_hand():
    """Photo 3's 9 is read as a 4, 0.985 sure (the odd half's 9s are the 0-9 readers' worst
    digit): 0 + 4 + 21 is not 30, the seat is for a person."""
    reading, row = giog_hand(3)
    assert reading.fields["1.won_units.0"].value == 0
    assert reading.fields["1.won_units.1"].value == 4
    assert "won_units.1" in row.unsure


def test_lines_of_deals_10_and_12_are_read_into_their_rows():
    """A twelve-row sheet: a revolution of deal 12 (tens 1, units 2) and a declaration of deal
    10 (a 0 in the units), each given to its row."""
    key = SheetKey(1, 2, 3, 6, 12)
    values = random_values(key, np.random.default_rng(5), played=12)
    seat = values["12.finish.3"]
    values |= {"0.r_tens.0": 1, "0.r_units.0": 2, "0.r_seat.0": seat}
    values |= {"0.d_tens.0": 1, "0.d_units.0": 0, "0.d_seat.0": 2, "0.d_kind.0": 1}
    data, _values = sheet_photo(key, 5, values=values)
    reading = reader.read_sheet(data, expected=key)
    assert reading.fields["0.d_units.0"].value == 0
    rows = reader.rows(reading)
    assert rows[11].revolution == [seat]
    assert rows[9].declarations == [(2, 1)]
    deal_boxes = {"r_tens.0", "r_units.0", "d_tens.0", "d_units.0"}
    assert not deal_boxes & set(rows[11].unsure + rows[9].unsure)


def test_the_bench_makes_and_reads_giog_sheets(tmp_path, monkeypatch):
    """`bench/scoresheets.py --game giog` on three photos: every sheet read, every written box
    counted right, marked or wrong, none wrong unmarked in a hand the engine accepts."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "bench" / "scoresheets.py"
    spec = importlib.util.spec_from_file_location("bench_scoresheets", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    monkeypatch.setattr(bench, "OUT", tmp_path / "scoresheets")
    bench.make_giog(3, 97)
    assert len(list(bench.folder(97, "giog").glob("*.jpg"))) == 3
    totals = bench.read_giog(97)
    assert totals["sheets"] == 3 and totals["refused"] == 0
    assert totals["written"] > 0
    assert (
        totals["right"] + totals["marked"] + totals["engine"] + totals["silent"]
        >= totals["written"]
    )
    assert totals["silent"] == 0
