"""Test photos of the project's own score sheet: the printed PDF (`blank_sheet_pdf`) rasterised
by poppler, its boxes filled with handwritten digits (scikit-learn's bundled digits, the real
handwriting of 43 people; the odd-numbered half writes the test photos, the even half trained
the reader), then photographed in software: perspective, rotation, a table around it, uneven
light and a shadow, blur, sensor noise, JPEG, phone resolutions, sometimes a thumb over a
corner. All from a seed: the same seed is the same photo.

Used by tests/sheets/, bench/scoresheets.py and tools/train_digits.py.
"""

from __future__ import annotations

import functools
import io
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFilter
from sklearn.datasets import load_digits

from matches.paper import layout, reader
from matches.paper.layout import SheetKey
from matches.paper.reader import homography

DPI = 150
PX = DPI / 25.4  # page pixels a millimetre


@functools.cache
def _digits() -> tuple[np.ndarray, np.ndarray]:
    data = load_digits()
    return data.images, data.target


def digit_samples(half: str) -> dict[int, list[np.ndarray]]:
    """The 8×8 handwritten samples of each digit, of one half ("train": even rows, "test": odd)."""
    images, targets = _digits()
    start = 0 if half == "train" else 1
    samples: dict[int, list[np.ndarray]] = {d: [] for d in range(10)}
    for image, target in zip(images[start::2], targets[start::2]):
        samples[int(target)].append(image)
    return samples


@functools.cache
def blank_page(key: SheetKey, deals_per_match: int, sheet: Any = None) -> Image.Image:
    """The printed sheet as paper, DPI dots an inch (RGB): Gou Ji's, or the game's `sheet`."""
    from matches.draw.sheet_printing import blank_sheet_pdf
    from matches.games.gouji.sheet import SHEET

    with tempfile.TemporaryDirectory() as folder:
        pdf = Path(folder) / "sheet.pdf"
        pdf.write_bytes(blank_sheet_pdf(key, deals_per_match, sheet or SHEET))
        subprocess.run(
            ["pdftoppm", "-r", str(DPI), "-png", "-singlefile", str(pdf), str(pdf.with_suffix(""))],
            check=True,
        )
        return Image.open(pdf.with_suffix(".png")).convert("RGB")


#: the rules a table's sheet is judged by: the standard rule set, eight seats' own preset (R44),
#: with hold-three (R26) so that a suffocation (R27) can be written; it changes no verdict of a
#: deal without one
RULES = {
    6: {"preset": "standard", "hold_three": True},
    8: {"preset": "eight-players", "hold_three": True},
}


def refusals(row: dict, seats: int) -> list[dict]:
    """Why the app refuses the summary a sheet's row fills in, [] when it takes it: the form
    filled from the row as the table's page fills it (`DealEntry.from_sheet_row`), its own
    problems and the rules engine's answer under the table's rules (`settle_summary`, the call
    `check_report` makes; the first deal of a match: no R40 streak before it)."""
    from matches.games.gouji.referee_form import DealEntry
    from matches.games.gouji.results import settle_summary
    from matches.kernel.reports import ResultError

    entry = DealEntry.from_sheet_row(row, tuple(range(1, seats + 1)))
    try:
        _, verdict = settle_summary(entry.summary() or {}, RULES[seats])
    except ResultError as exc:
        return entry.problems() + exc.problems()
    return entry.problems() + [error.to_json() for error in verdict.errors]


def line_deal(values: dict, kind: str, line: int) -> int | None:
    """The deal row an event line names (its tens box blank: 0), None when its units are."""
    units = values.get(f"0.{kind}_units.{line}")
    return None if units is None else (values.get(f"0.{kind}_tens.{line}") or 0) * 10 + units


def sheet_row(values: dict, number: int, seats: int) -> dict:
    """Deal row `number` of a sheet's boxes (box name -> digit or None) as `reader.rows` gives
    it to the form: the finishing order, the points written, the burns (burner, burned), and
    the event lines that name this deal."""
    lines = [
        (kind, line)
        for kind in layout.EVENT_COLUMNS
        for line in range(layout.EVENT_LINES)
        if line_deal(values, kind, line) == number
    ]

    def part(kind: str, name: str, line: int):
        return values.get(f"0.{kind}_{name}.{line}")

    def burn(pair: int) -> tuple:
        return values.get(f"{number}.burner.{pair}"), values.get(f"{number}.burned.{pair}")

    # a pair written at all: its burn, or its outcome alone (GJS3), as `reader.rows` gives it
    pairs = [
        pair
        for pair in range(layout.BURN_PAIRS)
        if burn(pair) != (None, None) or values.get(f"{number}.outcome.{pair}") is not None
    ]

    return {
        "suffocated": [(part(k, "seat", n), part(k, "by", n)) for k, n in lines if k == "s"],
        "revolution": [part(k, "seat", n) for k, n in lines if k == "r"],
        "declarations": [(part(k, "seat", n), part(k, "kind", n)) for k, n in lines if k == "d"],
        "finish": [values.get(f"{number}.finish.{p}") for p in range(seats)],
        "points": [
            v for k in range(layout.POINT_BOXES) if (v := values.get(f"{number}.point.{k}"))
        ],
        "burns": [burn(pair) for pair in pairs],
        "burn_outcomes": [values.get(f"{number}.outcome.{pair}") for pair in pairs],
    }


def random_values(
    key: SheetKey,
    rng: np.random.Generator,
    played: int | None = None,
    events: np.random.Generator | None = None,
) -> dict:
    """What a referee writes: per played deal row a finishing order of every seat, 0-2 seats
    that opened a point, 0-2 burns; the rows after `played` (default: every row but a tie-break
    row half the time) and the unused boxes left blank. Box name -> digit or None.

    As on a real sheet, each row is a result the rules engine accepts (`refusals`): a burner
    finishes before the seat it burned, among the places a burner can take (D11: 1st-2nd at
    six seats, 1st-4th at eight), and is not its head rival (R21). A row is drawn again, from
    the same generator, until it is one; how many points and burns it has is drawn once.

    With `events` (a generator of its own, so that the rows are drawn as they were before the
    sheet had an event strip), some played rows also get event lines (`random_events`)."""
    values: dict[str, int | None] = {box.name: None for box in layout.every_box(key)}
    if played is None:
        played = key.rows if rng.random() < 0.5 else max(1, key.rows - 1)
    seats = np.arange(1, key.seats + 1)
    for row in range(1, played + 1):
        points, burns = int(rng.integers(0, 3)), int(rng.integers(0, 3))
        while True:
            written: dict[str, int] = {}
            for place, seat in enumerate(rng.permutation(seats)):
                written[f"{row}.finish.{place}"] = int(seat)
            for k, seat in enumerate(sorted(rng.choice(seats, points, replace=False))):
                written[f"{row}.point.{k}"] = int(seat)
            for pair in range(burns):
                burner, burned = rng.choice(seats, 2, replace=False)
                written[f"{row}.burner.{pair}"] = int(burner)
                written[f"{row}.burned.{pair}"] = int(burned)
            if not refusals(sheet_row(written, row, key.seats), key.seats):
                break
        values.update(written)
    if events is not None and key.events:
        random_events(key, values, played, events)
    if events is not None and key.outcomes:
        random_outcomes(key, values, played, events)
    return values


#: how often a burn's outcome box is written (1 烧成 as often as each other outcome), and
#: which digits: 1-4 (`layout.BURN_OUTCOME_DIGITS`)
OUTCOME_ODDS = 0.4


def random_outcomes(key: SheetKey, values: dict, played: int, rng: np.random.Generator) -> None:
    """Outcome digits for some burns of the `played` rows (GJS3), each one the app's check
    under RULES accepts for its deal as written (a 反烧 needs the burn it stopped: most are
    refused and left blank, a success); drawn after the event strip, from its generator."""
    for row in range(1, played + 1):
        for pair in range(layout.BURN_PAIRS):
            if values.get(f"{row}.burner.{pair}") is None or rng.random() >= OUTCOME_ODDS:
                continue
            for digit in rng.permutation(list(layout.BURN_OUTCOME_DIGITS)):
                trial = {**values, f"{row}.outcome.{pair}": int(digit)}
                if not refusals(sheet_row(trial, row, key.seats), key.seats):
                    values.update(trial)
                    break


#: how often a played row gets each kind of event line (at most EVENT_LINES of a kind a sheet)
EVENT_ODDS = {"s": 0.08, "r": 0.08, "d": 0.12}


def random_events(key: SheetKey, values: dict, played: int, rng: np.random.Generator) -> None:
    """Event lines for some of the `played` rows, each legal for its deal as written (the
    app's check under RULES accepts the row with it): a suffocation of the last finisher by
    another seat (R27: the suffocated take the lowest places), a revolution of a seat where
    R29 places one (4th of six or 5th of eight, a place higher when its mates lead), a
    declaration 明点 or 暗点 of any seat (R34). A proposal the app refuses is drawn again, at
    most six times, then left out."""
    used = {kind: 0 for kind in layout.EVENT_COLUMNS}
    for row in range(1, played + 1):
        for kind, odds in EVENT_ODDS.items():
            if used[kind] == layout.EVENT_LINES or rng.random() >= odds:
                continue
            finish = [values[f"{row}.finish.{p}"] for p in range(key.seats)]
            for _try in range(6):
                line = used[kind]
                written = dict(_deal_digits(kind, line, row, rng))
                if kind == "s":
                    seat = finish[-1]
                    by = int(rng.choice([s for s in finish if s != seat]))
                    written |= {f"0.s_seat.{line}": seat, f"0.s_by.{line}": by}
                elif kind == "r":
                    k = key.seats // 2
                    written[f"0.r_seat.{line}"] = finish[int(rng.choice([k - 1, k, k]))]
                else:
                    written[f"0.d_seat.{line}"] = int(rng.integers(1, key.seats + 1))
                    written[f"0.d_kind.{line}"] = int(rng.integers(1, 3))
                trial = {**values, **written}
                if not refusals(sheet_row(trial, row, key.seats), key.seats):
                    values.update(written)
                    used[kind] += 1
                    break


def _deal_digits(kind: str, line: int, row: int, rng: np.random.Generator):
    """A deal number as a referee writes it: a tens digit, or for 1-9 a 0 or nothing."""
    tens = row // 10 if row >= 10 or rng.random() < 0.4 else None
    yield f"0.{kind}_tens.{line}", tens
    yield f"0.{kind}_units.{line}", row % 10


def glyph(sample: np.ndarray, rng: np.random.Generator, size: int) -> Image.Image:
    """One handwritten digit as ink coverage (L, 0-255), `size` pixels high: the 8×8 sample
    smoothed up, slanted and turned a little, its stroke made thinner or bolder."""
    image = Image.fromarray((sample / 16.0 * 255).astype(np.uint8)).resize(
        (32, 32), Image.Resampling.BICUBIC
    )
    shear = rng.uniform(-0.25, 0.25)
    image = image.transform(
        (32, 32),
        Image.Transform.AFFINE,
        (1, shear, -16 * shear, 0, 1, 0),
        Image.Resampling.BILINEAR,
    )
    image = image.rotate(rng.uniform(-10, 10), Image.Resampling.BILINEAR)
    level = rng.uniform(0.3, 0.6)
    ink = np.clip((np.asarray(image) / 255.0 - level) / 0.12, 0, 1)
    width = max(8, round(size * rng.uniform(0.7, 1.0)))
    return Image.fromarray((ink * 255).astype(np.uint8)).resize(
        (width, size), Image.Resampling.BILINEAR
    )


def fill(
    page: Image.Image,
    key: SheetKey,
    values: dict,
    rng: np.random.Generator,
    half: str,
    events: np.random.Generator | None = None,
):
    """The page with each value written into its box in ball-pen ink: the rows' boxes drawn
    from `rng`, the event strip's from `events` (the rows are written as before the strip)."""
    samples = digit_samples(half)
    page = page.copy()
    pen = tuple(int(c) for c in rng.choice([(25, 35, 110), (20, 20, 25), (30, 50, 140)]))
    ink_layer = Image.new("RGB", page.size, pen)
    boxes = {box.name: box for box in layout.every_box(key)}
    if key.magic[:3] != layout.MAGIC[:3]:  # another game's sheet (Giog's)
        boxes = {box.name: box for box in game_boxes(key)}

    # The burns' outcomes (GJS3) after the strip, from its generator: the rows are written as
    # they were before the sheet had them.
    def later(name: str) -> bool:
        return layout.is_event(name) or name.split(".")[1] == "outcome"

    written = [(n, d) for n, d in values.items() if d is not None and not later(n)]
    strip = [(n, d) for n, d in values.items() if d is not None and layout.is_event(n)]
    strip += [
        (n, d) for n, d in values.items() if d is not None and later(n) and (n, d) not in strip
    ]
    for name, digit in written + (strip if events is not None else []):
        if later(name):
            assert events is not None
            rng = events
        box = boxes[name]
        choices = samples[digit]
        sample = choices[int(rng.integers(len(choices)))]
        size = round(layout.BOX * PX * rng.uniform(0.6, 0.85))
        mark = glyph(sample, rng, size)
        room_x = layout.BOX * PX - mark.width
        room_y = layout.BOX * PX - mark.height
        x = round(box.x * PX + room_x * rng.uniform(0.25, 0.75))
        y = round(box.y * PX + room_y * rng.uniform(0.25, 0.75))
        page.paste(ink_layer.crop((x, y, x + mark.width, y + mark.height)), (x, y), mark)
    return page


def photograph(page: Image.Image, rng: np.random.Generator, thumb: bool = False) -> bytes:
    """The filled page as a phone photographs it on a table: a JPEG."""
    width = int(rng.choice([1200, 1600, 2000, 2448]))
    height = width * 4 // 3
    fraction = rng.uniform(0.72, 0.9)
    page_h = height * fraction
    page_w = page_h * layout.PAGE_W / layout.PAGE_H
    cx = width / 2 + rng.uniform(-0.04, 0.04) * width
    cy = height / 2 + rng.uniform(-0.04, 0.04) * height
    angle = np.radians(rng.uniform(-7, 7))
    corners = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x, y = sx * page_w / 2, sy * page_h / 2
        x, y = x * np.cos(angle) - y * np.sin(angle), x * np.sin(angle) + y * np.cos(angle)
        jitter = rng.uniform(-0.045, 0.045, 2) * width  # the phone not held square: perspective
        corners.append((cx + x + jitter[0], cy + y + jitter[1]))
    source = [(0, 0), (page.width, 0), (page.width, page.height), (0, page.height)]
    to_page = homography(corners, source)
    coefficients = tuple((to_page / to_page[2, 2]).flatten()[:8])
    table = Image.new("RGB", (width, height), tuple(int(c) for c in rng.integers(60, 140, 3)))
    shot = page.transform(
        (width, height), Image.Transform.PERSPECTIVE, coefficients, Image.Resampling.BILINEAR
    )
    mask = Image.new("L", page.size, 255).transform(
        (width, height), Image.Transform.PERSPECTIVE, coefficients, Image.Resampling.BILINEAR
    )
    table.paste(shot, (0, 0), mask)
    pixels = np.asarray(table, dtype=np.float32)
    # Uneven light: brighter on one side; a soft shadow of the phone or a hand.
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    direction = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(direction) * xx / width + np.sin(direction) * yy / height + 1) / 2
    light = rng.uniform(0.6, 0.85) + rng.uniform(0.1, 0.3) * ramp
    spot_x, spot_y = rng.uniform(0, width), rng.uniform(0, height)
    radius = rng.uniform(0.15, 0.35) * width
    shadow = 1 - rng.uniform(0.15, 0.35) * np.exp(
        -((xx - spot_x) ** 2 + (yy - spot_y) ** 2) / radius**2
    )
    pixels *= (light * shadow)[..., None]
    pixels += rng.normal(0, rng.uniform(2, 6), pixels.shape)
    photo = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    if thumb:  # a thumb over one corner's code: the other three still find the page
        corner = corners[int(rng.integers(4))]
        draw = ImageDraw.Draw(photo)
        r = width * 0.07
        draw.ellipse((corner[0] - r, corner[1] - r, corner[0] + r, corner[1] + r), (205, 160, 140))
    photo = photo.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.2)))
    out = io.BytesIO()
    photo.save(out, "JPEG", quality=int(rng.integers(60, 90)))
    return out.getvalue()


def sheet_photo(
    key: SheetKey,
    seed: int,
    deals_per_match: int | None = None,
    values: dict | None = None,
    half: str = "test",
    thumb: bool = False,
) -> tuple[bytes, dict]:
    """(a JPEG of `key`'s sheet filled in, what was written in each box)."""
    rng = np.random.default_rng(seed)
    # The event strip's lines from a generator of their own: a seed's rows, their ink and the
    # photograph are drawn as they were before the sheet had the strip.
    events = np.random.default_rng([seed, 2])
    if values is None:
        values = random_values(key, rng, events=events)
    page = blank_page(key, deals_per_match or key.rows)
    filled = fill(page, key, values, rng, half, events)
    return photograph(filled, rng, thumb=thumb), values


def box_crop(sample: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One handwritten digit as the reader cuts it out of a straightened photo (darkness 0-1,
    `reader.box_pixels`), made without a whole page: written in its box at the page's DPI,
    brought to a phone's scale and back to the reader's, blurred, with sensor noise. Its ink
    statistics match the boxes of whole photos (share inked, size of the glyph); a thousand
    a second instead of a page every few seconds, for training the second classifier."""
    side = round(layout.BOX * PX)
    mark = np.asarray(glyph(sample, rng, round(side * rng.uniform(0.6, 0.85))), np.float32) / 255
    page = np.ones((side, side), np.float32)
    x = round((side - mark.shape[1]) * rng.uniform(0.25, 0.75))
    y = round((side - mark.shape[0]) * rng.uniform(0.25, 0.75))
    height, width = mark.shape
    page[y : y + height, x : x + width] = (
        page[y : y + height, x : x + width] * (1 - mark) + rng.uniform(0.1, 0.25) * mark
    )
    image = Image.fromarray((page * 255 * rng.uniform(0.8, 1.0)).astype(np.uint8))
    phone = round(side * rng.uniform(0.66, 1.6))  # 4-10 px a millimetre in the photo
    pixels = np.asarray(image.resize((phone, phone), Image.Resampling.BILINEAR), np.float32)
    noisy = pixels + rng.normal(0, rng.uniform(2, 6), pixels.shape)
    image = Image.fromarray(np.clip(noisy, 0, 255).astype(np.uint8))
    image = image.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.2)))
    straight = round(layout.BOX * reader.SCALE)
    shares = np.asarray(image.resize((straight, straight), Image.Resampling.BILINEAR), np.float32)
    shares = shares / max(float(shares.max()), 40.0)
    return reader.box_pixels(shares, layout.Box("finish", 1, 0, 0.0, 0.0))


def game_boxes(key: SheetKey) -> list:
    """The boxes of a sheet of another game than Gou Ji (Giog's: its magic GGS)."""
    from matches.games.giog.sheet import boxes

    return boxes(key)


def giog_values(key: SheetKey, seed: int, played: int | None = None) -> dict:
    """What a Giog referee writes: per played hand row the pieces each seat won (tens, units;
    under 10 the units alone) and the beheaded seats, of hands self-played by the engine's bots
    (`giog selfplay`) and replayed: every row is a hand the engine accepts."""
    from matches.games.giog.engine.game import game

    values: dict[str, int | None] = {box.name: None for box in game_boxes(key)}
    played = key.rows if played is None else played
    for row, record in enumerate(game.selfplay(played, seed, players=key.seats), 1):
        verdict = game.replay(record)
        for seat in range(1, key.seats + 1):
            won = verdict["won"][str(seat)]
            values[f"{row}.won_tens.{seat - 1}"] = won // 10 if won >= 10 else None
            values[f"{row}.won_units.{seat - 1}"] = won % 10
        for k, seat in enumerate(sorted(verdict["beheaded"])[:2]):
            values[f"{row}.beheaded.{k}"] = seat
    return values


def giog_photo(key: SheetKey, seed: int, values: dict | None = None) -> tuple[bytes, dict]:
    """(a JPEG of a Giog table's sheet filled in, what was written in each box)."""
    from matches.games.giog.sheet import SHEET

    rng = np.random.default_rng(seed)
    if values is None:
        values = giog_values(key, seed)
    page = blank_page(key, key.rows, SHEET)
    return photograph(fill(page, key, values, rng, "test"), rng), values
