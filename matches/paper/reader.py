"""Reads a photo of the readable score sheet (`layout.py`): finds the corner QR codes, learns
from them whose sheet it is and where its corners are, straightens the page (a perspective
warp), and reads each digit box with a confidence. Pure Python over Pillow, numpy and
zxing-cpp: no Django, nothing downloaded (the digit readers' files are `digits*.npz`, beside
this file; `tools/train_digits.py` and `tools/train_convnet.py` make them).

What it does not do: decide. A box read below the confidence a caller asks for is marked for a
person, and the summary built from the boxes goes through the rules engine like a typed one.
"""

from __future__ import annotations

import functools
import io
import itertools
import time
import warnings
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import segno
import zxingcpp
from PIL import Image, ImageFilter, ImageOps, UnidentifiedImageError

from matches.paper import digits, layout
from matches.paper.layout import SheetKey

#: a photo's limits: bytes (a phone's JPEG is 2-6 MB), and pixels before anything is decoded
#: (a 12 MP phone is 12; a decompression bomb claims hundreds of millions in a few bytes)
MAX_BYTES = 15 * 1024 * 1024
MAX_PIXELS = 50_000_000
#: the long side the photo is brought down to before the codes are looked for
WORK_SIDE = 2400
SCALE = 5.0  # pixels per millimetre of the straightened page
INSET = 1.3  # mm cut off each side of a box: its printed line stays out
#: a box whose inked share is under EMPTY is blank, over INKED written; between, unsure
EMPTY, INKED = 0.012, 0.035
DARK = 0.55  # a pixel darker than this share of the paper's brightness is ink


class Refused(Exception):
    """The photo cannot be read as the sheet asked for: `code` for the program, the message
    for a person."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Field:
    """One box: its digit (None: left blank), how sure the reader is (0-1), and the
    probability of each digit 0-9 (empty for a blank box)."""

    value: int | None
    confidence: float
    probabilities: tuple[float, ...] = ()
    faint: bool = False  # so little ink that it may be a stray mark: never trusted
    #: a glyph whose ink is in pieces (`digits.pieces`) read again joined (`digits.joined`):
    #: the probability of the same digit then (1.0 for a glyph in one piece)
    joined: float = 1.0


@dataclass
class Reading:
    key: SheetKey
    fields: dict[str, Field]  # box name (layout.Box.name) -> what it holds
    corners: int  # corner codes found (3 or 4)
    seconds: float = 0.0
    page: Image.Image | None = field(default=None, repr=False)  # the straightened page


def _open(data: bytes, mode: str, side: int) -> Image.Image:
    """The photo upright as the phone held it (EXIF orientation), in `mode`, at most `side`
    pixels long, never decoding more than MAX_PIXELS: a bomb is refused from its header."""
    if len(data) > MAX_BYTES:
        raise Refused("too_large", f"the photo is larger than {MAX_BYTES // 2**20} MB")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            opened = Image.open(io.BytesIO(data))
            width, height = opened.size
            if width * height > MAX_PIXELS:
                raise Refused(
                    "too_large", f"the photo has {width}×{height} pixels, more than allowed"
                )
            opened.draft(mode, (side, side))  # JPEG: decode at a reduced scale
            image = ImageOps.exif_transpose(opened.convert(mode))
    except Refused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise Refused("too_large", f"the photo is too large to open ({exc})")
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError) as exc:
        raise Refused("not_an_image", f"not a photo that can be opened ({exc})")
    image.thumbnail((side, side))
    return image


def open_photo(data: bytes) -> Image.Image:
    """The photo in greyscale, brought down to WORK_SIDE for the reading."""
    return _open(data, "L", WORK_SIDE)


#: the kept copy's long side: every box still legible, a tenth of a raw photo's bytes
KEPT_SIDE = 2400


def clean_copy(data: bytes) -> bytes:
    """The copy of a photo that is kept as evidence: a JPEG with no EXIF (no place, no phone,
    no time), turned upright, at most KEPT_SIDE pixels long. Refused like `read_sheet`."""
    image = _open(data, "RGB", KEPT_SIDE)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=88)  # no exif= given: nothing of the original's is kept
    return out.getvalue()


def _corner_points(text: str, corner: int) -> list[tuple[float, float]]:
    """A corner code's symbol corners in page millimetres (top-left, top-right, bottom-right,
    bottom-left of the symbol), as the printer drew it: `border=2` modules around it."""
    size = segno.make_qr(text, error="m").symbol_size(border=0)[0]
    cell = layout.CORNER_QR / (size + 4)
    cx, cy = layout.CORNER_CENTRES[corner]
    half = size * cell / 2
    return [
        (cx - half, cy - half),
        (cx + half, cy - half),
        (cx + half, cy + half),
        (cx - half, cy + half),
    ]


_QR = zxingcpp.BarcodeFormats(zxingcpp.BarcodeFormat.QRCode)
_CORNER_NAMES = ("top_left", "top_right", "bottom_right", "bottom_left")


def find_corners(image: Image.Image) -> tuple[SheetKey, list, list]:
    """(the sheet's key, page points in mm, the same points in the photo) from its corner codes."""
    found: dict[int, tuple[SheetKey, str, list]] = {}
    # A small or blurred photo's codes are a few pixels a module: a corner missed at the
    # photo's own size is looked for again in it enlarged (its points scaled back).
    for scale in (1.0, 1.7):
        if len(found) == 4:
            break
        if scale == 1.0:
            looked = image
        else:
            size = (round(image.width * scale), round(image.height * scale))
            looked = image.resize(size, Image.Resampling.BICUBIC)
        for code in zxingcpp.read_barcodes(looked, formats=_QR):
            parsed = SheetKey.parse(code.text)
            if parsed is not None and parsed[1] not in found:
                points = [
                    (float(p.x) / scale, float(p.y) / scale)
                    for p in (getattr(code.position, name) for name in _CORNER_NAMES)
                ]
                found[parsed[1]] = (parsed[0], code.text, points)
    keys = {key for key, _text, _points in found.values()}
    if not found:
        raise Refused("not_a_sheet", "no score sheet found: photograph the whole sheet, flat")
    if len(keys) > 1:
        raise Refused("not_a_sheet", "the photo shows more than one score sheet")
    if len(found) < 3:
        raise Refused(
            "corners", "only one corner code of the sheet is visible: photograph the whole sheet"
        )
    page, photo = [], []
    for corner, (_key, text, points) in sorted(found.items()):
        page += _corner_points(text, corner)
        photo += points
    return keys.pop(), page, photo


def homography(src: list, dst: list) -> np.ndarray:
    """The 3×3 projective map taking each `src` point to its `dst` point (least squares)."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(src, dst):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    solution = np.linalg.lstsq(np.array(rows, float), np.array(rhs, float), rcond=None)[0]
    return np.append(solution, 1.0).reshape(3, 3)


def straighten(image: Image.Image, page: list, photo: list) -> Image.Image:
    """The page as if scanned flat, SCALE pixels a millimetre."""
    to_photo = homography([(x * SCALE, y * SCALE) for x, y in page], photo)
    size = (round(layout.PAGE_W * SCALE), round(layout.PAGE_H * SCALE))
    coefficients = tuple((to_photo / to_photo[2, 2]).flatten()[:8])
    return image.transform(
        size, Image.Transform.PERSPECTIVE, coefficients, Image.Resampling.BILINEAR, fillcolor=255
    )


def brightness(page: Image.Image) -> np.ndarray:
    """Each pixel as a share of the paper's brightness around it: shadows and uneven light
    divided out (the paper is the brightest thing near any box)."""
    pixels = np.asarray(page, dtype=np.float32)
    small = page.reduce(8)
    paper = small.filter(ImageFilter.MaxFilter(5)).filter(ImageFilter.GaussianBlur(2))
    paper = paper.resize(page.size, Image.Resampling.BILINEAR)
    return pixels / np.maximum(np.asarray(paper, dtype=np.float32), 40.0)


def box_pixels(shares: np.ndarray, box: layout.Box) -> np.ndarray:
    """A box's inside, as darkness 0 (paper) to 1 (ink)."""
    left = round((box.x + INSET) * SCALE)
    top = round((box.y + INSET) * SCALE)
    side = round((layout.BOX - 2 * INSET) * SCALE)
    inside = shares[top : top + side, left : left + side]
    return np.clip((DARK + 0.25 - inside) / 0.5, 0.0, 1.0)


def read_boxes(
    shares: np.ndarray,
    key: SheetKey,
    layout_boxes: Callable[[SheetKey], list[layout.Box]] = layout.every_box,
) -> dict[str, Field]:
    boxes = layout_boxes(key)
    fields: dict[str, Field] = {}
    # written boxes by reader set: a seat's box (False) or one that can hold any digit (True)
    written: dict[bool, list[tuple[str, float, np.ndarray]]] = {False: [], True: []}
    for box in boxes:
        ink = box_pixels(shares, box)
        inked = float((ink > 0.5).mean())
        if inked < EMPTY:
            fields[box.name] = Field(None, round(1.0 - inked / EMPTY * 0.5, 3))
        else:
            # Under INKED: a stray mark or a very faint digit: read it, but never trust it.
            written[box.any_digit].append((box.name, 0.5 if inked < INKED else 1.0, ink))
    for any_digit, group in written.items():
        if not group:
            continue
        crops = [ink for _name, _trust, ink in group]
        mean = probabilities(crops, any_digit)
        again = rejoined(crops, mean, any_digit)
        for (name, trust, _ink), row, whole in zip(group, mean, again):
            best = int(row.argmax())
            fields[name] = Field(
                best,
                round(float(row[best]) * trust, 6),
                tuple(round(float(p), 6) for p in row),
                trust < 1.0,
                round(whole, 6),
            )
    return fields


def probabilities(crops: list[np.ndarray], any_digit: bool = False) -> np.ndarray:
    """Written boxes' ink → rows of ten probabilities. Three readers built differently, each
    seldom sure of the same wrong digit as the others: the vote of the nearest training boxes
    and two convolutional networks (the box as written, upright). A box's probabilities are
    their weighted mean (`combine`): sure only where the three nearly agree, a split vote of the
    neighbours is enough to make it unsure. `any_digit`: the 0-9 readers (`digits.ALL`)."""
    return combine(*readers(crops, any_digit))


#: the darkness levels at which a glyph's pieces are counted: the features' (0.3) and the
#: inked share's (0.5). An 8 whose waist is just over 0.3 is one piece there and still a sure 2
#: to every reader (seed 6's photo 0137); at 0.5 it is two, and joined an 8 (seed 11: 5 boxes
#: more marked, 97.99 % unaided against 98.02 %)
PIECE_LEVELS = (0.3, 0.5)


def rejoined(crops: list[np.ndarray], read: np.ndarray, any_digit: bool = False) -> list[float]:
    """For each box, how sure the readers are of the digit they read (`read`, rows of ten)
    once its ink is joined (`digits.joined`), where the ink is in two or more pieces at a
    level of `PIECE_LEVELS`; 1.0 where it is whole. An 8 broken at its waist reads as a sure 2
    and, joined, as an 8 or a 2."""
    whole = [1.0] * len(crops)
    broken = [
        k
        for k, ink in enumerate(crops)
        if any(digits.pieces(ink, level) >= 2 for level in PIECE_LEVELS)
    ]
    if broken:
        again = probabilities([digits.joined(crops[k]) for k in broken], any_digit)
        for k, row in zip(broken, again):
            whole[k] = float(row[int(read[k].argmax())])
    return whole


#: the weight of each reader's probabilities in a box's (the vote, the network on the box as
#: written, on the box upright): the vote, the least often sure and wrong, counts as much as
#: the two networks together. Chosen on seed 11's photos (rows: 98.44 % unaided, 0 silent;
#: the vote at 1 98.40 %, at 3 98.43 %; the two flat networks these replaced, with the vote at
#: 2 and the as-written one at 1, 97.90 %)
WEIGHTS = (2.0, 1.0, 1.0)


def readers(crops: list[np.ndarray], any_digit: bool = False) -> tuple[np.ndarray, ...]:
    """Written boxes' ink → each reader's probabilities (rows of ten), in `combine`'s order;
    `any_digit`: the 0-9 readers (`digits.ALL`)."""
    vote, written, standing = digits.ALL if any_digit else digits.READERS
    upright = np.stack([digits.features(digits.upright(c)) for c in crops])
    return (
        digits.neighbours(upright, vote),
        digits.convnet(np.stack([digits.features(c) for c in crops]), written),
        digits.convnet(upright, standing),
    )


def combine(*readings: np.ndarray) -> np.ndarray:
    """The readers' probabilities (rows of ten each, `readers`' order) → one row a box: their
    mean weighted by `WEIGHTS`."""
    weighted = np.zeros_like(readings[0])
    for weight, reading in zip(WEIGHTS, readings, strict=True):
        weighted += weight * reading
    return weighted / sum(WEIGHTS)


def read_sheet(
    data: bytes,
    expected: SheetKey | None = None,
    boxes: Callable[[SheetKey], list[layout.Box]] = layout.every_box,
) -> Reading:
    """Read a photo of a score sheet; `expected`: the sheet this photo must be (its table of
    this round), any other is refused before a box is read; `boxes`: the boxes of a sheet of
    this key (the game's layout; Gou Ji's by default)."""
    started = time.perf_counter()
    image = open_photo(data)
    key, page, photo = find_corners(image)
    if expected is not None:
        _same_sheet(key, expected)
    straight = straighten(image, page, photo)
    fields = read_boxes(brightness(straight), key, boxes)
    return Reading(key, fields, len(page) // 4, time.perf_counter() - started, straight)


def _same_sheet(key: SheetKey, expected: SheetKey) -> None:
    if key.event != expected.event or key.magic[:3] != expected.magic[:3]:
        raise Refused("other_event", "this is a score sheet of another event")
    if key.round != expected.round:
        raise Refused(
            "other_round",
            f"this is the score sheet of round {key.round}, not of round {expected.round}",
        )
    if key.table != expected.table:
        raise Refused(
            "other_table",
            f"this is the score sheet of table {key.table}, not of table {expected.table}",
        )
    if (key.seats, key.rows) != (expected.seats, expected.rows):
        raise Refused("old_sheet", "this sheet was printed before the event's deals changed")


#: a box read with less confidence than this is marked for a person. bench/scoresheets.py on
#: 200 photos each of seeds 1, 2 and 3 (bench/RESULTS-scoresheets.md): every wrong digit left
#: unmarked is in a row the engine refuses
TRUST = 0.98
#: a place whose box reads its own digit at least this sure, mended by the order into another
#: seat, makes every box of the row reading that digit unsure
MENDED = 0.8
#: two or more places of a finishing order whose boxes are each unsure alone are settled only
#: between themselves (a swapped pair is still an order): the order must be this sure of them
#: (chosen on seed 11's photos: their one swapped pair, photo 0188's 8 and 5, is 0.9987 sure
#: as an order; seed 1's photo 0141, a 5 and a 3, was 0.99)
JOINT = 0.999
#: a box at least this sure of its digit among all ten is judged among the table's seats only
SEATS_FLOOR = 0.5
#: a seat box nothing on the sheet checks (a point's, a burn's, an event line's seat; not a
#: finishing place: the order is read whole) is sure only from this, not TRUST (seed 11's photo
#: 0007: a burned 5 smudged into a 3, 0.981 sure; 0.985 marked 10 more boxes of 17,592 there)
UNCHECKED = 0.985


def broken(read: Field, trust: float = TRUST) -> bool:
    """A written box whose glyph is in pieces and, joined, no longer `trust` sure of the digit
    read (`Field.joined`). Marked in a seat box nothing on the sheet checks (a point's, a
    burn's, an event line's seat; not a finishing place: the order is read whole): an 8 broken
    at its waist is a sure 2 to every reader (bench/RESULTS-scoresheets.md)."""
    return read.value is not None and read.joined < trust


@dataclass
class Row:
    """One deal's row as read: the finishing order (a seat per place, None where blank), the
    seats that opened a point, the burns (burner, burned) and their outcome digits (None: blank,
    a success; a sheet before GJS3 has none), and the boxes a person must check;
    with the event lines written for this deal: suffocations (seat, by), revolutions (seat),
    declarations (seat, kind digit: `layout.DECLARATION_KINDS`). An event box's name in
    `unsure` is its line's ("s_by.0"), not the row's."""

    number: int
    finish: list[int | None]
    points: list[int]
    burns: list[tuple[int | None, int | None]]
    unsure: list[str]
    suffocated: list[tuple[int | None, int | None]] = field(default_factory=list)
    revolution: list[int | None] = field(default_factory=list)
    declarations: list[tuple[int | None, int | None]] = field(default_factory=list)
    #: each burn's outcome digit (`layout.BURN_OUTCOME_DIGITS`; None: blank, a success)
    burn_outcomes: list[int | None] = field(default_factory=list)

    @property
    def blank(self) -> bool:
        return not (
            any(self.finish)
            or self.points
            or self.burns
            or self.unsure
            or self.suffocated
            or self.revolution
            or self.declarations
        )


def rows(reading: Reading, trust: float | None = None) -> list[Row]:
    """The sheet's rows; a box is unsure below `trust` (TRUST: its own confidence among the
    table's seats, `_own`, or in a finishing order written in full the order's, `best_order`,
    JOINT where two or more of its boxes are unsure alone), or when its digit is no seat of the
    table (0, 9, or 7 at six seats)."""
    trust = TRUST if trust is None else trust
    key = reading.key
    out = []
    for number in range(1, key.rows + 1):
        unsure: list[str] = []
        finish = _finish(reading, number, unsure, trust)
        if any(seat is not None for seat in finish):
            # A played row with a place left blank, or a seat read in two places (one of them
            # is wrong, the reader cannot tell which): a person says.
            for place, seat in enumerate(finish):
                name = f"finish.{place}"
                doubled = seat is not None and finish.count(seat) > 1
                if (seat is None or doubled) and name not in unsure:
                    unsure.append(name)
        points = [
            _value(reading, number, f"point.{k}", unsure, trust) for k in range(layout.POINT_BOXES)
        ]
        # A finishing order read sure says whom a burner can have burned: a seat finishing
        # after it, never its head rival (R21). The burned box is judged among those seats only
        # (its digit is still its own). The burner's box is judged among all the seats: judged
        # among the first seats - 4 places (D11) it was lifted from 0.964 to 0.992 sure of a
        # wrong digit on a fresh seed's photo (bench/RESULTS-scoresheets.md), a silent error.
        ordered = all(
            seat is not None and f"finish.{place}" not in unsure
            for place, seat in enumerate(finish)
        )
        burns, outcomes = [], []
        for pair in range(layout.BURN_PAIRS):
            burner = _value(reading, number, f"burner.{pair}", unsure, trust)
            among = None
            if ordered:  # after the burner when its box is sure, after the first place anyway
                sure = burner in finish and f"burner.{pair}" not in unsure
                among = finish[finish.index(burner) + 1 if sure else 1 :]
                if sure:  # nor the burner's head rival, the seat opposite (R21)
                    among = [s for s in among if s != _opposite(burner, key.seats)]
            burn = (burner, _value(reading, number, f"burned.{pair}", unsure, trust, among))
            outcome = _outcome(reading, number, pair, burn, unsure, trust)
            if burn != (None, None) or outcome is not None:
                burns.append(burn)
                outcomes.append(outcome)
        out.append(
            Row(
                number,
                finish,
                [p for p in points if p is not None],
                burns,
                unsure,
                burn_outcomes=outcomes,
            )
        )
    _events(reading, out, trust)
    return out


#: a blank box, for an event box a reading does not have (an older sheet's, a replay's cut)
_BLANK = Field(None, 1.0)


def _events(reading: Reading, out: list[Row], trust: float) -> None:
    """The event strip's lines, each given to the row of its deal. A line's deal is its two
    boxes (a blank tens box is 0); a line written with a box left blank, a deal that is no row
    of the sheet, a seat that is no seat of the table, a kind that is none, or any box below
    `trust` makes the line's boxes unsure as usual. A line whose deal is no row goes to
    its units' row (a tens box's 0 read as another digit), else the nearest row, its deal
    boxes unsure: a person moves it."""
    key = reading.key
    rows_by_number = {row.number: row for row in out}
    seats = list(range(1, key.seats + 1))
    for kind, (_x, parts) in layout.EVENT_COLUMNS.items():
        for line in range(layout.EVENT_LINES):
            names = {part: f"{kind}_{part}.{line}" for part, _dx in parts}
            read = {part: reading.fields.get(f"0.{name}", _BLANK) for part, name in names.items()}
            if all(box.value is None for box in read.values()):
                continue
            unsure: list[str] = []

            def digit(part: str, among: list[int], read=read, names=names, unsure=unsure):
                return _line_digit(read, names, unsure, part, among, key.seats, trust)

            tens = digit("tens", list(range(key.rows // 10 + 1))) or 0
            units = digit("units", list(range(10)))
            number = tens * 10 + units if units is not None else 0
            if not 1 <= number <= key.rows:
                unsure += [n for n in (names["tens"], names["units"]) if n not in unsure]
                if units and units <= key.rows:  # most likely a 0 in the tens read wrong
                    number = units
            row = rows_by_number[max(1, min(key.rows, number))]
            if kind == "s":
                row.suffocated.append((digit("seat", seats), digit("by", seats)))
            elif kind == "r":
                row.revolution.append(digit("seat", seats))
            else:
                kinds = key.declaration_kinds
                row.declarations.append((digit("seat", seats), digit("kind", kinds)))
            row.unsure += unsure


@functools.cache
def _orders(seats: int) -> np.ndarray:
    """Every finishing order of `seats` seats as seat indexes, one per line (8! = 40,320)."""
    return np.array(list(itertools.permutations(range(seats))), dtype=np.int8)


def best_order(probabilities: np.ndarray) -> tuple[list[int], list[float]]:
    """The most probable finishing order of a row whose every place is written, and for each
    place the probability that it holds that seat given that the row is an order (each seat
    once): `probabilities[place, seat - 1]` are the boxes' own, taken as independent. An exact
    search over every order (720 at six seats, 40,320 at eight), no solver needed."""
    seats = len(probabilities)
    orders = _orders(seats)
    logs = np.log(np.maximum(probabilities, 1e-12))
    scores = logs[np.arange(seats), orders].sum(axis=1)
    weights = np.exp(scores - scores.max())
    best = orders[int(scores.argmax())]
    shares = [
        float(weights[orders[:, place] == best[place]].sum() / weights.sum())
        for place in range(seats)
    ]
    return [int(seat) + 1 for seat in best], shares


def _finish(reading: Reading, number: int, unsure: list[str], trust: float) -> list[int | None]:
    """A row's finishing order. Written in full, it is read as a whole: the most probable order
    of the seats (each seat once) and, for each place, how probable its seat is given the others,
    instead of each box alone; a place is then unsure when that probability is under `trust`,
    and keeps what its own box reads: a seat written twice stays twice for a person to see (and
    for the engine to refuse), not mended into an order nobody wrote."""
    seats = reading.key.seats
    read = [reading.fields[f"{number}.finish.{place}"] for place in range(seats)]
    if not all(box.value is not None and box.probabilities for box in read):
        return [
            _value(reading, number, f"finish.{p}", unsure, trust, checked=True)
            for p in range(seats)
        ]
    odds = np.array([box.probabilities[1 : seats + 1] for box in read])
    order, shares = best_order(odds / np.maximum(odds.sum(axis=1, keepdims=True), 1e-12))
    # A place the order gives another seat than its box reads: the digit its box reads is
    # then read twice in the row, and either box may be the wrong one (a sure misreading
    # elsewhere mends a right box into a wrong seat): every box reading that digit is unsure.
    mended = {
        box.value
        for box, seat in zip(read, order)
        if box.value != seat and box.value is not None and box.probabilities[box.value] >= MENDED
    }
    # Places whose own box is unsure: one alone is the seat the others leave over, but two or
    # more are settled only by their boxes between them, each of which hesitates (a swapped
    # pair is still an order): they need the order far surer (JOINT) than one box does.
    alone = [_own(box, seats) < trust for box in read]
    bar = [max(trust, JOINT) if own and sum(alone) > 1 else trust for own in alone]
    finish: list[int | None] = []
    for place, (box, seat, share) in enumerate(zip(read, order, shares)):
        sure = share * (0.5 if box.faint else 1.0) >= bar[place] and box.value not in mended
        if not sure:
            unsure.append(f"finish.{place}")
        finish.append(seat if sure else box.value)
    return finish


#: an event line's boxes that hold a seat: nothing checks them against the row (`broken`)
SEAT_PARTS = ("seat", "by")


def _line_digit(
    read: dict[str, Field],
    names: dict[str, str],
    unsure: list[str],
    part: str,
    among: list[int],
    seats: int,
    trust: float,
) -> int | None:
    """An event line's box: unsure when blank in a written line (a tens box may be), when its
    digit is not `among` those the box can hold, or below `trust` among them; the digit read.
    A deal's boxes are read by the 0-9 readers (`layout.DEAL_PARTS`): a tens box of a sheet of
    at most 9 rows is a 0 only when read one (any other mark there is for a person)."""
    box = read[part]
    if box.value is None and part != "tens":
        unsure.append(names[part])
    elif box.value is not None and (
        box.value not in among
        or _own(box, seats, among) < (max(trust, UNCHECKED) if part in SEAT_PARTS else trust)
        or (part in SEAT_PARTS and broken(box, trust))
    ):
        unsure.append(names[part])
    return box.value


def confidence_among(read: Field, among: list[int]) -> float:
    """How sure a box is of its digit among `among` only (a game's box that can hold only
    some digits: `_own`)."""
    return _own(read, max(among), among)


def _opposite(seat: int | None, seats: int) -> int | None:
    """A seat's head rival: the seat opposite (R2, R45: 1↔4 at six, 1↔5 at eight)."""
    return None if seat is None else (seat + seats // 2 - 1) % seats + 1


def _own(read: Field, seats: int, among: list | None = None) -> float:
    """How sure a box is of its digit among the table's seats alone (or `among` them): a doubt
    with a digit that is no seat (a 6 or an 8 at six seats) is no doubt between seats, as long
    as the box is fairly sure (SEATS_FLOOR) of its digit among all ten."""
    allowed = list(range(1, seats + 1)) if among is None else among
    if read.value is None or not read.probabilities or read.value not in allowed:
        return read.confidence
    if read.confidence < SEATS_FLOOR * (0.5 if read.faint else 1.0):
        return read.confidence
    return read.confidence / max(sum(read.probabilities[s] for s in allowed), 1e-12)


def _outcome(
    reading: Reading,
    number: int,
    pair: int,
    burn: tuple[int | None, int | None],
    unsure: list[str],
    trust: float,
) -> int | None:
    """A burn pair's outcome box (GJS3): blank is a success; a digit judged among 1-4 only,
    unsure below `trust` among them, when it is none of them, or when its burn is blank."""
    name = f"outcome.{pair}"
    read = reading.fields.get(f"{number}.{name}", _BLANK)
    if read.value is None:
        return None
    among = list(layout.BURN_OUTCOME_DIGITS)
    if read.value not in among or _own(read, len(among), among) < trust or burn == (None, None):
        unsure.append(name)
    return read.value


def _value(
    reading: Reading,
    number: int,
    name: str,
    unsure: list[str],
    trust: float,
    among: list | None = None,
    checked: bool = False,
) -> int | None:
    """A single box's digit, `name` in `unsure` when below `trust` (among `among` seats),
    no seat, or in a box the order does not check (`checked`: a finishing place) below
    UNCHECKED or `broken`."""
    read = reading.fields[f"{number}.{name}"]
    seats = reading.key.seats
    if (
        _own(read, seats, among) < (trust if checked else max(trust, UNCHECKED))
        or (read.value is not None and not 1 <= read.value <= seats)
        or (not checked and broken(read, trust))
    ):
        unsure.append(name)
    return read.value
