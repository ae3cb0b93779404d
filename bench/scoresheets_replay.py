"""The score sheets' reader replayed on boxes cut once: for choosing its thresholds and weights
on a tuning seed (11) in seconds, then reading the bench's seeds once.

    .venv/bin/python bench/scoresheets.py --photos 200 --seed 11    # the tuning seed's photos
    .venv/bin/python bench/scoresheets_replay.py --cut 11 1 2 3     # cut the boxes (minutes)
    .venv/bin/python bench/scoresheets_replay.py 11                 # replay (seconds a seed)
    .venv/bin/python bench/scoresheets_replay.py --reread 11        # after a reader changed

`--cut` reads each photo of a seed (bench/scoresheets.py's folders) as the reader does, up to
the boxes, and keeps each written box's ink (float16) and its three readers' probabilities
apart (bench/out/scoresheets-replay-<seed>.pickle); `--reread` runs `reader.readers` (the
readers as they are in matches/paper/digits.py and their files) again on the kept boxes, in
minutes, without cutting the photos again. A replay combines them with the reader's
`combine` and reads the rows with its `rows`, the thresholds as they are in
matches/paper/reader.py (edit them there, or set them in a Python session), and counts as
bench/scoresheets.py does: right, marked, wrong and refused by the app's check, silent. It
gives the bench's figures to a few boxes (the bench rounds each probability to 6 places).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
from pathlib import Path

import numpy as np
from scoresheets import folder, score_row  # bench/scoresheets.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
OUT = ROOT / "bench" / "out" / "scoresheets"


def cached(seed: int) -> Path:
    return OUT.with_name(f"scoresheets-replay-{seed}.pickle")


def cut(seed: int) -> None:
    from matches.paper import layout, reader
    from matches.paper.layout import SheetKey

    sheets = []
    for path in sorted(folder(seed).glob("*.jpg")):
        truth = json.loads(path.with_suffix(".json").read_text())
        key = SheetKey(**truth["key"])
        sheet: dict = {"photo": path.stem, "key": key, "values": truth["values"]}
        try:
            image = reader.open_photo(path.read_bytes())
            _, page, photo = reader.find_corners(image)
        except reader.Refused as exc:
            sheets.append({**sheet, "refused": exc.code})
            continue
        shares = reader.brightness(reader.straighten(image, page, photo))
        blank, names, trusts, crops = {}, [], [], []
        for box in layout.boxes(key):
            ink = reader.box_pixels(shares, box)
            inked = float((ink > 0.5).mean())
            if inked < reader.EMPTY:
                blank[box.name] = round(1.0 - inked / reader.EMPTY * 0.5, 3)
            else:
                names.append(box.name)
                trusts.append(0.5 if inked < reader.INKED else 1.0)
                crops.append(ink)
        sheet.update(blank=blank, names=names, trusts=trusts)
        if crops:
            sheet["crops"] = np.stack(crops).astype(np.float16)
            sheet["readers"] = reader.readers(crops)
        sheets.append(sheet)
    cached(seed).write_bytes(pickle.dumps(sheets))
    print(f"seed {seed}: {len(sheets)} sheets cut into {cached(seed)}")


def reread(seed: int) -> None:
    """The readers run again on the cut boxes (kept with `--cut`): after a reader changed."""
    from matches.paper import reader

    sheets = pickle.loads(cached(seed).read_bytes())
    for sheet in sheets:
        if sheet.get("names"):
            sheet["readers"] = reader.readers(list(sheet["crops"].astype(np.float32)))
    cached(seed).write_bytes(pickle.dumps(sheets))
    print(f"seed {seed}: the boxes read again by the readers of matches/paper/digits.py")


def replay(seed: int) -> dict:
    import django

    django.setup()
    from matches.paper import reader
    from tests.sheets.photos import refusals, sheet_row

    totals = {"boxes": 0, "right": 0, "marked": 0, "engine": 0, "silent": 0, "refused": 0}
    silent: list[str] = []
    for sheet in pickle.loads(cached(seed).read_bytes()):
        if "refused" in sheet:
            totals["refused"] += 1
            continue
        fields = {name: reader.Field(None, sure) for name, sure in sheet["blank"].items()}
        if sheet["names"]:
            combined = reader.combine(*sheet["readers"])
            if "joined" not in sheet:  # the broken glyphs read joined, once a seed
                crops = list(sheet["crops"].astype(np.float32))
                sheet["joined"] = reader.rejoined(crops, combined)
            for name, trust, row, whole in zip(
                sheet["names"], sheet["trusts"], combined, sheet["joined"]
            ):
                best = int(row.argmax())
                fields[name] = reader.Field(
                    best,
                    round(float(row[best]) * trust, 6),
                    tuple(round(float(p), 6) for p in row),
                    trust < 1.0,
                    round(whole, 6),
                )
        reading = reader.Reading(sheet["key"], fields, 4)
        for row in reader.rows(reading):
            form, wrong = score_row(row, sheet["values"], fields, totals, sheet["photo"])
            if wrong:
                seats = sheet["key"].seats
                found = refusals(sheet_row(form, row.number, seats), seats)
                totals["engine" if found else "silent"] += len(wrong)
                silent += [] if found else wrong
    print(
        f"seed {seed}: {100 * totals['right'] / max(totals['boxes'], 1):.2f} % right unaided,"
        f" {totals['marked']} marked, {totals['engine']} refused by the app's check,"
        f" {totals['silent']} silent, {totals['refused']} sheets refused"
    )
    for box in silent:
        print(f"    silent: photo {box}")
    return totals


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("seeds", type=int, nargs="+")
    parser.add_argument("--cut", action="store_true", help="cut the seeds' photos first")
    parser.add_argument(
        "--reread", action="store_true", help="run the readers again on the boxes cut before"
    )
    args = parser.parse_args()
    for seed in args.seeds:
        if args.cut:
            cut(seed)
        elif args.reread:
            reread(seed)
        replay(seed)


if __name__ == "__main__":
    main()
