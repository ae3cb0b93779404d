"""The reader (matches/paper/reader.py) on generated photos of the project's own sheet
(tests/sheets/photos.py): a filled sheet reads back, every digit it gets wrong is marked for a
person, and photos that are not this table's sheet of this round are refused by name."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from matches.paper import digits, layout, reader
from matches.paper.layout import SheetKey
from tests.sheets.photos import sheet_photo

KEY = SheetKey(event=7, round=3, table=12, seats=6, rows=4)


def read(reading) -> dict:
    """Each box's value as the form gets it: the finishing order as its row reads it whole."""
    values = {name: box.value for name, box in reading.fields.items()}
    for name, value in values.items():  # an event line's tens box of a short sheet: a 0
        if "_tens." in name and reading.key.rows < 10 and value is not None:
            values[name] = 0
    for row in reader.rows(reading):
        values.update({f"{row.number}.finish.{p}": s for p, s in enumerate(row.finish)})
    return values


def wrong_and_unmarked(reading, values) -> list[str]:
    """Boxes read wrong that no person is asked to check (`rows`' unsure boxes)."""
    unsure = {layout.full_name(row.number, n) for row in reader.rows(reading) for n in row.unsure}
    got = read(reading)
    return [name for name, want in values.items() if got[name] != want and name not in unsure]


# (seed 2's eight-seat photo, with a thumb, lost two corner codes once the generator wrote only
# results the engine accepts: another photo, refused in words as the bench's 1 % are)
@pytest.mark.parametrize("seed, key, thumb", [(1, KEY, False), (3, SheetKey(7, 3, 12, 8, 6), True)])
def test_a_filled_photo_reads_back(seed, key, thumb):
    data, values = sheet_photo(key, seed, thumb=thumb)
    reading = reader.read_sheet(data, expected=key)
    assert reading.key == key
    assert wrong_and_unmarked(reading, values) == []  # no silent error
    unsure = {layout.full_name(row.number, n) for row in reader.rows(reading) for n in row.unsure}
    got = read(reading)
    right = sum(got[n] == v and n not in unsure for n, v in values.items())
    assert right / len(values) >= 0.9, right  # the bench: 97 % on average
    # The rows: a played row has an order of seats; the blank row after the last deal is blank.
    rows = reader.rows(reading)
    written = [r for r in rows if any(values[f"{r.number}.finish.{p}"] for p in range(key.seats))]
    for row in written:
        for place, seat in enumerate(row.finish):
            assert seat == values[f"{row.number}.finish.{place}"] or f"finish.{place}" in row.unsure


def test_a_row_left_blank_reads_blank():
    values = {name: None for name in sheet_photo(KEY, 3)[1]}
    values.update({f"1.finish.{p}": s for p, s in enumerate([3, 1, 5, 2, 6, 4])})
    data, _ = sheet_photo(KEY, 3, values=values)
    rows = reader.rows(reader.read_sheet(data, expected=KEY))
    assert [row.blank for row in rows] == [False, True, True, True]
    assert rows[0].points == [] and rows[0].burns == []


def refused(data, expected=KEY) -> str:
    with pytest.raises(reader.Refused) as caught:
        reader.read_sheet(data, expected=expected)
    return caught.value.code


def test_another_tables_sheet_is_refused():
    data, _ = sheet_photo(SheetKey(7, 3, 13, 6, 4), 4)
    assert refused(data) == "other_table"


def test_an_earlier_rounds_sheet_is_refused():
    data, _ = sheet_photo(SheetKey(7, 2, 12, 6, 4), 5)
    assert refused(data) == "other_round"


def test_another_events_sheet_is_refused():
    data, _ = sheet_photo(SheetKey(8, 3, 12, 6, 4), 6)
    assert refused(data) == "other_event"


def test_a_photo_of_something_else_is_not_a_sheet():
    out = io.BytesIO()
    Image.effect_noise((1200, 1600), 60).convert("RGB").save(out, "JPEG")
    assert refused(out.getvalue()) == "not_a_sheet"


def bomb(side: int) -> bytes:
    """A real PNG of side×side black pixels: a few hundred kB that would take side² bytes."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    packer = zlib.compressobj(9)
    row = b"\0" * (side + 1)
    body = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")
    )


def test_a_decompression_bomb_is_refused_from_its_header():
    data = bomb(12_000)  # 144 MP in about 140 kB
    assert len(data) < 1_000_000
    assert refused(data) == "too_large"


def test_broken_bytes_are_refused():
    photo, _ = sheet_photo(KEY, 1)
    assert refused(b"not an image at all") == "not_an_image"
    assert refused(photo[: len(photo) // 3]) == "not_an_image"  # cut off mid-transfer
    assert refused(b"\xff" * (reader.MAX_BYTES + 1)) == "too_large"


def test_a_finishing_order_is_read_as_a_whole():
    """Place 3's box looks more like a 2 than a 3, but seat 2 is surely at place 2 and no
    other place can hold seat 3: the row reads 1 2 3 4 5 6, place 3 less sure but sure enough."""
    odds = np.full((6, 6), 0.001)
    for place in range(6):
        odds[place, place] = 0.995
    odds[2] = [0.001, 0.6, 0.397, 0.001, 0.001, 0.001]
    order, shares = reader.best_order(odds)
    assert order == [1, 2, 3, 4, 5, 6]
    assert min(shares[:2] + shares[3:]) > 0.99
    assert reader.TRUST < shares[2] < 0.999  # the seat left over: no person needed


def test_two_places_that_could_be_swapped_are_both_unsure():
    odds = np.full((6, 6), 0.001)
    for place in range(6):
        odds[place, place] = 0.995
    odds[0, :2] = odds[1, :2] = [0.5, 0.5]
    order, shares = reader.best_order(odds)
    assert sorted(order) == [1, 2, 3, 4, 5, 6]
    assert shares[0] == pytest.approx(0.5, abs=1e-3) and shares[1] == pytest.approx(0.5, abs=1e-3)
    assert min(shares[2:]) > reader.TRUST


def reading_of(finish: list[dict[int, float]]) -> reader.Reading:
    """A one-row reading of six seats whose finishing boxes read `finish` (digit → probability)
    and whose other boxes are blank."""
    key = SheetKey(7, 3, 12, 6, 1)
    fields = {box.name: reader.Field(None, 1.0) for box in layout.boxes(key)}
    for place, odds in enumerate(finish):
        probabilities = tuple(odds.get(digit, 0.0) for digit in range(10))
        best = max(odds, key=odds.__getitem__)
        fields[f"1.finish.{place}"] = reader.Field(best, odds[best], probabilities)
    return reader.Reading(key, fields, 4)


def test_a_place_mended_by_the_order_makes_its_digit_unsure_everywhere():
    """Place 6's box reads a 5, fairly sure, and place 1's a 5, surer: the order mends place 6
    into the seat left over (6). Either box may be the wrong 5 (an 8 that looks like a 5 is
    read sure of it), so both places are for a person; the others stay sure."""
    sure = [{seat: 0.9999, 5: 0.0001} for seat in (2, 3, 4, 1)]
    row = reader.rows(reading_of([{5: 0.99999, 6: 0.00001}, *sure, {5: 0.9, 6: 0.1}]))[0]
    assert sorted(row.unsure) == ["finish.0", "finish.5"]
    assert row.finish == [5, 2, 3, 4, 1, 5]  # as the boxes read: the engine refuses it as is


def test_a_box_unsure_of_its_own_digit_is_mended_without_doubt():
    """Place 6's box hesitates between 5 and 6 (its 5 under MENDED): seat 5 is surely at place
    1, so place 6 is the seat left over, sure, and nothing is marked."""
    sure = [{seat: 0.9999, 5: 0.0001} for seat in (2, 3, 4, 1)]
    row = reader.rows(reading_of([{5: 0.99999, 6: 0.00001}, *sure, {5: 0.6, 6: 0.4}]))[0]
    assert row.unsure == []
    assert row.finish == [5, 2, 3, 4, 1, 6]


def test_two_places_unsure_alone_do_not_settle_each_other():
    """Places 1 and 5 each hesitate between 3 and 5 (a 5 read 3 at 0.87, a 3 read 5 at 0.94:
    photo 0141 of the bench's seed 1). As an order the pair is 99 % sure, but only because each
    box backs the other's doubt: a swapped pair is still an order, the engine cannot refuse it.
    Both are for a person; the four sure places stay sure."""
    sure = [{seat: 0.9999, 5: 0.0001} for seat in (1, 2, 4)]
    finish = [{3: 0.87, 5: 0.1, 6: 0.03}, *sure, {5: 0.94, 3: 0.05, 6: 0.01}, {6: 0.9999}]
    odds = np.array([[place.get(seat, 0.0) for seat in range(1, 7)] for place in finish])
    assert min(reader.best_order(odds)[1]) > reader.TRUST  # the order alone would trust them
    row = reader.rows(reading_of(finish))[0]
    assert sorted(row.unsure) == ["finish.0", "finish.4"]
    assert row.finish == [3, 1, 2, 4, 5, 6]


def one_point(odds: dict[int, float], seats: int = 6) -> reader.Row:
    """Deal row 1 of a sheet whose only written box is its first point box, reading `odds`."""
    key = SheetKey(7, 3, 12, seats, 1)
    fields = {box.name: reader.Field(None, 1.0) for box in layout.boxes(key)}
    best = max(odds, key=odds.__getitem__)
    probabilities = tuple(odds.get(digit, 0.0) for digit in range(10))
    fields["1.point.0"] = reader.Field(best, odds[best], probabilities)
    return reader.rows(reader.Reading(key, fields, 4))[0]


def test_a_doubt_with_a_digit_that_is_no_seat_is_no_doubt():
    """At six seats a box between 6 and 8 can only be a 6; between 6 and 5 it stays unsure, and
    at eight seats so does 6 or 8. A digit that is no seat is marked however sure."""
    assert one_point({6: 0.9, 8: 0.1}).unsure == []
    assert one_point({6: 0.9, 5: 0.1}).unsure == ["point.0"]
    assert one_point({6: 0.9, 8: 0.1}, seats=8).unsure == ["point.0"]
    assert one_point({8: 0.999, 6: 0.001}).unsure == ["point.0"]
    assert one_point({6: 0.4, 8: 0.35, 5: 0.25}).unsure == ["point.0"]  # under SEATS_FLOOR


def test_a_box_nothing_checks_needs_to_be_surer_than_a_place():
    """A point box (nothing on the sheet checks it) between TRUST and UNCHECKED is marked; as
    sure as UNCHECKED it is not."""
    between = (reader.TRUST + reader.UNCHECKED) / 2
    assert one_point({3: between, 5: 1 - between}).unsure == ["point.0"]
    assert one_point({3: reader.UNCHECKED, 5: 1 - reader.UNCHECKED}).unsure == []


def burn_row(finish: list[dict[int, float]], burner: dict, burned: dict) -> reader.Row:
    """A six-seat row whose finishing boxes read `finish` and whose first burn reads `burner`
    burned `burned` (digit → probability each)."""
    reading = reading_of(finish)
    for name, odds in (("1.burner.0", burner), ("1.burned.0", burned)):
        best = max(odds, key=odds.__getitem__)
        probabilities = tuple(odds.get(digit, 0.0) for digit in range(10))
        reading.fields[name] = reader.Field(best, odds[best], probabilities)
    return reader.rows(reading)[0]


def test_a_burned_box_is_judged_among_the_seats_the_order_allows():
    """The order 3 1 2 4 5 6, read sure, and a burner box read 1 sure: only a seat finishing
    after 1 can have been burned, never 4, 1's head rival (R21). A burned box between 5 and 3
    (3 finished 1st) or 4 is a 5, between 5 and 6 or 2 unsure. The burner's own box is judged
    among every seat: the order does not make it surer (a fresh seed's photo read an 8 as a 5
    that way, sure and wrong). With a place of the order unsure, the burned box is judged
    among every seat too."""
    order = [{seat: 0.99999} for seat in (3, 1, 2, 4, 5, 6)]
    sure_one = {1: 0.999, 4: 0.001}
    row = burn_row(order, sure_one, {5: 0.9, 3: 0.1})
    assert row.unsure == [] and row.burns == [(1, 5)]
    row = burn_row(order, sure_one, {5: 0.9, 4: 0.1})  # 4 is 1's head rival (R21)
    assert row.unsure == [] and row.burns == [(1, 5)]
    row = burn_row(order, sure_one, {5: 0.9, 6: 0.1})
    assert row.unsure == ["burned.0"]
    row = burn_row(order, sure_one, {5: 0.9, 2: 0.1})
    assert row.unsure == ["burned.0"]
    row = burn_row(order, {1: 0.9, 4: 0.1}, {5: 0.9, 3: 0.1})  # 4 burns nobody here (D11)...
    assert row.unsure == ["burner.0"]  # ...but the burner box is judged alone (3 burned nobody)
    unsure_order = [{3: 0.5, 1: 0.5}, {1: 0.5, 3: 0.5}, *order[2:]]
    row = burn_row(unsure_order, sure_one, {5: 0.9, 3: 0.1})
    assert row.unsure[-1:] == ["burned.0"] and "burner.0" not in row.unsure


def test_the_neighbours_vote_splits_where_a_digit_is_between_two():
    """The vote: the share of each digit among the nearest training boxes."""
    inputs = np.zeros((2, 196), dtype=np.float32)
    votes = digits.neighbours(inputs)
    assert votes.shape == (2, 10)
    assert np.allclose(votes.sum(axis=1), 1.0)
    assert votes[:, 0].sum() == votes[:, 9].sum() == 0  # no seat is 0 or 9: never trained


def test_a_box_the_neighbours_split_on_is_for_a_person(monkeypatch):
    """Both networks sure of a box are not enough: where the vote of the nearest boxes is split
    between two digits, every written point and burn box is marked (the readers' weighted mean is
    under TRUST)."""
    values = {name: None for name in sheet_photo(KEY, 5)[1]}
    values.update({"1.point.0": 2, "1.burner.0": 4, "1.burned.0": 6})
    data, _ = sheet_photo(KEY, 5, values=values)
    assert reader.rows(reader.read_sheet(data, expected=KEY))[0].unsure == []

    def split(inputs, examples=digits.READERS[0]):
        votes = np.zeros((len(inputs), 10))
        votes[:, 1] = votes[:, 7] = 0.5  # half 1, half 7: neither the digit written
        return votes

    monkeypatch.setattr(digits, "neighbours", split)
    row = reader.rows(reader.read_sheet(data, expected=KEY))[0]
    assert sorted(row.unsure) == ["burned.0", "burner.0", "point.0"]
    assert (row.points, row.burns) == ([2], [(4, 6)])  # still the networks' digits, to be checked


def test_the_shipped_readers_load_and_read_held_out_digits():
    """Each reader's shipped file loads and reads written boxes of the held-out half (the test
    photos' writers; the files were made from the other half) as their digits: most of them alone, nearly all together."""
    from tests.sheets.photos import box_crop, digit_samples

    rng = np.random.default_rng(7)
    written = digit_samples("test")
    digit = np.repeat(np.arange(1, 9), 5)
    crops = [box_crop(written[d][k], rng) for d, k in zip(digit, np.tile(np.arange(5), 8))]
    readings = reader.readers(crops)
    assert len(digits._examples()[4]) == 30_000  # the vote's examples, from all their files
    for probabilities in readings:
        assert probabilities.shape == (40, 10)
        assert np.allclose(probabilities.sum(axis=1), 1.0)
        assert (probabilities.argmax(axis=1) == digit).sum() >= 32  # 80 %
    assert (reader.combine(*readings).argmax(axis=1) == digit).sum() >= 36  # 90 %


def test_the_networks_filters_are_plain_3x3_convolutions_and_pooling():
    """`digits.convnet`'s fast form (neighbourhoods side by side, one product) against a
    convolution written out pixel by pixel, on random weights: same probabilities."""
    rng = np.random.default_rng(3)
    layers = {
        "k1": rng.normal(size=(9, 4)),
        "c1": rng.normal(size=4),
        "k2": rng.normal(size=(36, 5)),
        "c2": rng.normal(size=5),
        "w1": rng.normal(size=(4 * 4 * 5, 6)),
        "b1": rng.normal(size=6),
        "w2": rng.normal(size=(6, 10)),
        "b2": rng.normal(size=10),
    }
    image = rng.random((14, 14, 1))

    def layer(images, kernel, bias):
        height, width, channels = images.shape
        padded = np.pad(images, ((1, 1), (1, 1), (0, 0)))
        out = np.zeros((height, width, kernel.shape[1]))
        for y in range(height):
            for x in range(width):
                for k, (dy, dx) in enumerate((a, b) for a in range(3) for b in range(3)):
                    out[y, x] += padded[y + dy, x + dx] @ kernel[k * channels : (k + 1) * channels]
        out = np.maximum(out + bias, 0)
        even = np.pad(out, ((0, height % 2), (0, width % 2), (0, 0)))
        return np.array(
            [
                [even[y : y + 2, x : x + 2].max(axis=(0, 1)) for x in range(0, width, 2)]
                for y in range(0, height, 2)
            ]
        )

    hidden = layer(layer(image, layers["k1"], layers["c1"]), layers["k2"], layers["c2"])
    hidden = np.maximum(hidden.ravel() @ layers["w1"] + layers["b1"], 0)
    logits = hidden @ layers["w2"] + layers["b2"]
    expected = np.exp(logits - logits.max()) / np.exp(logits - logits.max()).sum()
    assert np.allclose(digits.convnet(image.reshape(1, 196), layers)[0], expected, atol=1e-5)


def test_the_pieces_of_a_glyph_are_counted_specks_left_out():
    """An 8 cut at its waist is two pieces, joined by a pixel all round one again; a speck
    beside a glyph is no piece."""
    ink = np.zeros((32, 32), dtype=np.float32)
    assert digits.pieces(ink) == 0
    ink[4:14, 8:20] = 1.0  # the top loop, as a block
    ink[16:28, 8:20] = 1.0  # the bottom one, two pixels below
    assert digits.pieces(ink) == 2
    assert digits.pieces(digits.joined(ink)) == 1
    ink[30, 30] = 1.0  # a speck
    assert digits.pieces(ink) == 2
    ink[14:16, 13] = 0.6  # the waist, one pixel wide: 4-connected again
    assert digits.pieces(ink) == 1


def with_box(reading: reader.Reading, name: str, odds: dict[int, float], joined: float):
    best = max(odds, key=odds.__getitem__)
    probabilities = tuple(odds.get(digit, 0.0) for digit in range(10))
    reading.fields[name] = reader.Field(best, odds[best], probabilities, joined=joined)
    return reading


def test_a_broken_glyph_that_reads_otherwise_joined_is_marked_where_nothing_checks_it():
    """A burned box all readers read as a sure 2 whose ink, joined, reads 8 as much as 2 (an 8
    broken at its waist): marked, though sure; read the same joined, it is not. A finishing
    place of the same kind stays sure: the order read whole checks it."""
    order = [{seat: 0.99999} for seat in (3, 1, 4, 5, 2, 6)]
    sure_one = {1: 0.999, 4: 0.001}

    def burn(joined: float) -> reader.Row:
        reading = with_box(reading_of(order), "1.burner.0", sure_one, 1.0)
        return reader.rows(with_box(reading, "1.burned.0", {2: 0.99999}, joined))[0]

    assert burn(joined=0.49).unsure == ["burned.0"]
    assert burn(joined=0.999).unsure == []
    reading = with_box(reading_of(order), "1.finish.4", {2: 0.99999}, joined=0.49)
    assert reader.rows(reading)[0].unsure == []
