"""The reader (matches/paper/reader.py) on generated photos of the project's own sheet
(tests/sheets/photos.py): a filled sheet reads back, every digit it gets wrong is marked for a
person, and photos that are not this table's sheet of this round are refused by name."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from matches.paper import reader
from matches.paper.layout import SheetKey
from tests.sheets.photos import sheet_photo

KEY = SheetKey(event=7, round=3, table=12, seats=6, rows=4)


def wrong_and_unmarked(reading, values) -> list[str]:
    """Boxes read wrong that no person is asked to check (`rows`' unsure boxes)."""
    unsure = {f"{row.number}.{name}" for row in reader.rows(reading) for name in row.unsure}
    return [
        name
        for name, want in values.items()
        if reading.fields[name].value != want and name not in unsure
    ]


@pytest.mark.parametrize("seed, key", [(1, KEY), (2, SheetKey(7, 3, 12, 8, 6))])
def test_a_filled_photo_reads_back(seed, key):
    data, values = sheet_photo(key, seed, thumb=seed == 2)
    reading = reader.read_sheet(data, expected=key)
    assert reading.key == key
    assert wrong_and_unmarked(reading, values) == []  # no silent error
    unsure = {f"{row.number}.{name}" for row in reader.rows(reading) for name in row.unsure}
    right = sum(reading.fields[n].value == v and n not in unsure for n, v in values.items())
    assert right / len(values) >= 0.85, right  # the bench: 90 % on average
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
