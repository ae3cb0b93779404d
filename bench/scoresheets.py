"""Photographed score sheets: how many boxes the reader gets right without a person, how many
it gets wrong without marking them (silent errors: must be 0), the time per sheet and the
reader's memory.

    .venv/bin/python bench/scoresheets.py [--photos 200] [--seed 1] [--again] [--rows 4-8]
    .venv/bin/python bench/scoresheets.py --game giog [--photos 200] [--seed 1] [--again]

(`--game giog`: Giog's sheets, `make_giog` and `read_giog`: every written box right, marked, or
wrong and refused by the engine or silent; `--rows 10-20`: Gou Ji's sheets of more deal rows)

(each seed's photos are kept in their own folder: `--again --seed 2` reads seed 2's again)

Makes `--photos` test photos of the project's own sheet (tests/sheets/photos.py: the held-out
half of scikit-learn's handwritten digits, perspective, light, shadow, blur, JPEG, phone
resolutions, every tenth with a thumb over a corner; six and eight seats, 4-8 deal rows,
each row a result the rules engine accepts, as on a real sheet), not
timed, into bench/out/scoresheets/. Then a fresh process reads them as the Celery worker does
(`read_sheet` against the table's key, then `rows`) and reports, per box:

- right: read right and sure (no person needed);
- marked: below the confidence threshold, or no seat of the table: a person must check it;
- silent: read wrong and sure, in a deal row whose summary (the form filled from the row, the
  marked boxes as a person corrects them) the app accepts: the form's own check and the rules
  engine under the table's rules (`tests.sheets.photos.refusals`, the call the app makes). A
  wrong box in a row the app refuses (R30 a seat twice, D11 a burner placed too low, R21 …) is
  counted as refused by the engine: nobody can confirm it;

and the wall time per sheet (p50, p95, max) and the reading process's peak memory (RSS).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "bench" / "out" / "scoresheets"


def score_row(row, values: dict, fields: dict, totals: dict, photo: str):
    """One deal row counted into `totals` (boxes, right, marked) and what the form then holds:
    the sure boxes as read, the unsure ones checked by a person (so as written); with the
    wrong boxes left unmarked, each `"<photo> <box>: <written> read <read>"`."""
    form: dict[str, int | None] = {}
    wrong: list[str] = []
    for name, want in values.items():
        if not name.startswith(f"{row.number}."):
            continue
        box = name.split(".", 1)[1]
        got = fields[name].value
        if box.startswith("finish"):  # the row's order, read as a whole
            got = row.finish[int(box.split(".")[1])]
        totals["boxes"] += 1
        if box.startswith("outcome") and want is not None:  # GJS3's burn outcomes, also apart
            outcome = "marked" if box in row.unsure else "right" if got == want else "wrong"
            for key in ("outcome_written", f"outcome_{outcome}"):
                totals[key] = totals.get(key, 0) + 1
        if box in row.unsure:
            totals["marked"] += 1
            form[name] = want
            continue
        form[name] = got
        if got == want:
            totals["right"] += 1
        else:
            wrong.append(f"{photo} {name}: {want} read {got}")
    return form, wrong


def folder(seed: int, game: str = "gouji", rows: str = "4-8") -> Path:
    """Where a seed's photos are kept: seed 1 in bench/out/scoresheets, seed n in …-n (Giog's
    in scoresheets-giog-n, Gou Ji's of other deal rows than 4-8 in scoresheets-rows10-20-n)."""
    if game != "gouji":
        return OUT.with_name(f"scoresheets-{game}-{seed}")
    if rows != "4-8":
        return OUT.with_name(f"scoresheets-rows{rows}-{seed}")
    return OUT if seed == 1 else OUT.with_name(f"scoresheets-{seed}")


sys.path.insert(0, str(ROOT))


def make(photos: int, seed: int, rows: str = "4-8") -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
    import django

    django.setup()
    from matches.paper.layout import SheetKey
    from tests.sheets.photos import sheet_photo

    out = folder(seed, "gouji", rows)
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*"):
        old.unlink()
    low, high = (int(n) for n in rows.split("-"))
    for k in range(photos):
        key = SheetKey(1, 2, 3 + k, 8 if k % 3 == 2 else 6, low + k % (high - low + 1))
        data, values = sheet_photo(key, seed * 100_000 + k, thumb=k % 10 == 9)
        (out / f"{k:04d}.jpg").write_bytes(data)
        truth = {"key": key.__dict__, "values": values}
        (out / f"{k:04d}.json").write_text(json.dumps(truth))


def make_giog(photos: int, seed: int) -> None:
    """Giog's photos (`giog_photo`: hands self-played by the engine's bots, every row a hand
    the engine accepts): 2, 3 and 4 seats in turn, 4-12 hand rows, all played."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
    import django

    django.setup()
    from matches.games.giog.sheet import MAGIC
    from matches.paper.layout import SheetKey
    from tests.sheets.photos import giog_photo

    out = folder(seed, "giog")
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*"):
        old.unlink()
    for k in range(photos):
        key = SheetKey(1, 2, 3 + k, 2 + k % 3, 4 + k % 9, MAGIC)
        data, values = giog_photo(key, seed * 100_000 + k)
        (out / f"{k:04d}.jpg").write_bytes(data)
        truth = {"key": key.__dict__, "values": values}
        (out / f"{k:04d}.json").write_text(json.dumps(truth))


def read_photo(path: Path, sheet, totals: dict, seconds: list[float]):
    """(the key, the true values, the reading, its rows) of a photo as the worker reads it with
    the game's `sheet`, its seconds appended (a refusal's too); reading and rows None when
    refused."""
    from matches.paper import reader
    from matches.paper.layout import SheetKey

    truth = json.loads(path.with_suffix(".json").read_text())
    key = SheetKey(**truth["key"])
    started = time.perf_counter()
    reading: reader.Reading | None = None
    rows = None
    try:
        reading = reader.read_sheet(path.read_bytes(), expected=key, boxes=sheet.boxes)
        rows = sheet.rows(reading)
    except reader.Refused:
        totals["refused"] += 1
    seconds.append(time.perf_counter() - started)
    return key, truth["values"], reading, rows


def read(seed: int, deal_rows: str = "4-8") -> dict:
    """In its own process: nothing of the generator in its memory while it reads (the engine's
    check of the reads comes after, once the reader's peak memory is taken)."""
    from matches.games.gouji.sheet import SHEET as GOUJI

    totals: dict[str, float] = {
        "boxes": 0,
        "right": 0,
        "marked": 0,
        "silent": 0,
        "engine": 0,
        "refused": 0,
    }
    # The event strip's boxes, counted apart (the rows' figures stay comparable with before)
    strip: dict[str, float] = {"boxes": 0, "written": 0, "right": 0, "marked": 0}
    strip_wrong = []  # (seats, the sheet's form, the line's box read wrong and sure)
    seconds: list[float] = []
    wrong_rows = []  # (seats, the row as the form gets it, how many boxes read wrong and sure)
    for path in sorted(folder(seed, "gouji", deal_rows).glob("*.jpg")):
        key, values, reading, rows = read_photo(path, GOUJI, totals, seconds)
        if reading is None:
            continue
        sheet_form: dict = {}
        for row in rows:
            form, wrong = score_row(row, values, reading.fields, totals, path.stem)
            sheet_form.update(form)
            if wrong:
                wrong_rows.append((key.seats, row.number, form, wrong))
        wrong = score_strip(rows, values, reading, strip, sheet_form, path.stem)
        strip_wrong += [(key.seats, sheet_form, box) for box in wrong]
    totals.update(timings(seconds))
    # A row read wrong goes to the app's own check of the summary its form makes: refused
    # (with a rule id) before anyone can confirm it, or silent.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
    import django

    django.setup()
    from tests.sheets.photos import refusals, sheet_row

    rules: dict[str, float] = {}
    silent: list[str] = []
    for seats, number, form, wrong in wrong_rows:
        found = refusals(sheet_row(form, number, seats), seats)
        totals["engine" if found else "silent"] += len(wrong)
        if not found:
            silent += wrong
        for error in found[:1]:
            rule = str(error.get("rule") or error.get("code"))
            rules[rule] = rules.get(rule, 0) + len(wrong)
    totals["engine_rules"] = rules  # type: ignore[assignment]
    totals["silent_boxes"] = silent  # type: ignore[assignment]
    # A strip box read wrong and sure: refused when the app refuses the deal its line names as
    # the form then holds it (the rows' boxes as above, the line's as read), else silent.
    from tests.sheets.photos import line_deal

    strip["engine"], strip["silent"] = 0, 0
    silent_strip: list[str] = []
    for seats, form, (name, text) in strip_wrong:
        kind, line = name.split(".")[1].split("_")[0], int(name.split(".")[2])
        deal = line_deal(form, kind, line)
        refused = deal is None or bool(refusals(sheet_row(form, deal, seats), seats))
        strip["engine" if refused else "silent"] += 1
        if not refused:
            silent_strip.append(text)
    totals["strip"] = {**strip, "silent_boxes": silent_strip}  # type: ignore[assignment]
    return totals


def read_giog(seed: int) -> dict:
    """Giog's photos read as the worker reads them (`read_sheet` with the game's boxes, then its
    `rows`), in their own process. Per box written on the sheet (the blank ones too, apart):
    right unaided (a count's boxes as the hand reads them whole), marked, or wrong and sure:
    refused when the engine refuses the hand the form then holds (the marked boxes as a person
    corrects them: `summary_verdict`, the check `check_hand` makes of a summary), else silent."""
    from matches.games.giog.sheet import SHEET

    totals: dict[str, Any] = {"boxes": 0, "written": 0, "right": 0, "marked": 0, "refused": 0}
    totals |= {"zeros": 0, "zeros_right": 0, "nines": 0, "nines_right": 0}
    seconds: list[float] = []
    wrong_hands = []
    for path in sorted(folder(seed, "giog").glob("*.jpg")):
        key, values, reading, rows = read_photo(path, SHEET, totals, seconds)
        if reading is None:
            continue
        for row in rows:
            form: dict[int, int | None] = {}
            beheaded: list[int] = []
            wrong: list[str] = []
            for seat in range(1, key.seats + 1):
                names = [f"won_{part}.{seat - 1}" for part in ("tens", "units")]
                count = row.won.get(seat)
                read = (
                    (count // 10 if count >= 10 else None, count % 10)
                    if count is not None
                    else (None, None)
                )
                for name, got in zip(names, read):
                    want = values[f"{row.number}.{name}"]
                    totals["boxes"] += 1
                    totals["written"] += want is not None
                    if want is not None and name.startswith("won_units"):
                        digit = "zeros" if want == 0 else "nines" if want == 9 else None
                        if digit:
                            totals[digit] += 1
                            totals[digit + "_right"] += got == want and name not in row.unsure
                    if name in row.unsure:
                        totals["marked"] += 1
                    elif got == want:
                        totals["right"] += want is not None
                    else:
                        wrong.append(f"{path.stem} {row.number}.{name}: {want} read {got}")
                units = values[f"{row.number}.won_units.{seat - 1}"]
                tens = values[f"{row.number}.won_tens.{seat - 1}"]
                truth_count = None if units is None else (tens or 0) * 10 + units
                marked = any(name in row.unsure for name in names)
                form[seat] = truth_count if marked else count
            for k in range(2):
                name = f"beheaded.{k}"
                want = values[f"{row.number}.{name}"]
                got = reading.fields[f"{row.number}.{name}"].value
                totals["boxes"] += 1
                totals["written"] += want is not None
                if name in row.unsure:
                    totals["marked"] += 1
                    got = want
                elif got == want:
                    totals["right"] += want is not None
                else:
                    wrong.append(f"{path.stem} {row.number}.{name}: {want} read {got}")
                if got is not None:
                    beheaded.append(got)
            if wrong:
                wrong_hands.append((key.seats, form, beheaded, wrong))
    totals.update(timings(seconds))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
    import django

    django.setup()
    from matches.games.giog.engine.outcome import OUTCOME_FORMAT, summary_verdict

    totals["engine"], totals["silent"], totals["silent_boxes"] = 0, 0, []
    for seats, form, beheaded, wrong in wrong_hands:
        summary = {"format": OUTCOME_FORMAT, "players": seats, "beheaded": sorted(set(beheaded))}
        summary["won"] = {str(seat): count for seat, count in form.items()}
        try:
            refused = bool(summary_verdict(summary).errors)
        except Exception:  # a document the engine cannot read is refused too
            refused = True
        totals["engine" if refused else "silent"] += len(wrong)
        if not refused:
            totals["silent_boxes"] += wrong
    return totals


def timings(seconds: list[float]) -> dict[str, float]:
    seconds = sorted(seconds)
    return {
        "sheets": len(seconds),
        "p50": seconds[len(seconds) // 2],
        "p95": seconds[min(len(seconds) - 1, int(len(seconds) * 0.95))],
        "max": seconds[-1],
        "rss_mb": peak_rss_mb(),
    }


def score_strip(rows, values: dict, reading, strip: dict, form: dict, photo: str) -> list:
    """The event strip's boxes counted into `strip` (boxes, written, right, marked), the form's
    strip filled into `form` as a person leaves it (unsure boxes as written); the boxes read
    wrong and sure: (name, "<photo> <box>: <written> read <read>")."""
    unsure = {name for row in rows for name in row.unsure}
    wrong = []
    for name, want in values.items():
        if not name.startswith("0."):
            continue
        got = reading.fields[name].value if name in reading.fields else None
        strip["boxes"] += 1
        strip["written"] += want is not None
        if want is not None and ("_tens." in name or "_units." in name):  # a deal number's
            strip["deal"] = strip.get("deal", 0) + 1
        if name.split(".", 1)[1] in unsure:
            strip["marked"] += 1
            form[name] = want
            continue
        form[name] = got
        if got == want:
            strip["right"] += want is not None
            if want is not None and ("_tens." in name or "_units." in name):
                strip["deal_right"] = strip.get("deal_right", 0) + 1
        else:
            wrong.append((name, f"{photo} {name}: {want} read {got}"))
    return wrong


def peak_rss_mb() -> float:
    """This process's peak resident memory. Not getrusage's ru_maxrss: a child started by
    fork and exec keeps its parent's (the generator's) high-water mark; VmHWM starts afresh."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--read-only", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--again", action="store_true", help="read the photos made last time")
    parser.add_argument("--game", choices=("gouji", "giog"), default="gouji")
    parser.add_argument(
        "--rows", default="4-8", help="Gou Ji: deal rows a sheet, LOW-HIGH (at most 20)"
    )
    args = parser.parse_args()
    if args.read_only:
        print(
            json.dumps(read_giog(args.seed) if args.game == "giog" else read(args.seed, args.rows))
        )
        return
    if not args.again:
        started = time.perf_counter()
        if args.game == "giog":
            make_giog(args.photos, args.seed)
        else:
            make(args.photos, args.seed, args.rows)
        print(f"made {args.photos} photos in {time.perf_counter() - started:.0f} s")
    answer = subprocess.run(
        [sys.executable, __file__, "--read-only", "--seed", str(args.seed), "--game", args.game]
        + ["--rows", args.rows],
        check=True,
        capture_output=True,
        text=True,
    )
    t = json.loads(answer.stdout.strip().splitlines()[-1])
    if args.game == "giog":
        report_giog(t)
        return
    boxes = t["boxes"] or 1
    print(f"sheets read: {t['sheets']}, refused: {t['refused']}")
    print(f"boxes: {t['boxes']}")
    print(f"  right without a person: {t['right']} ({100 * t['right'] / boxes:.2f}%)")
    print(f"  marked for a person:    {t['marked']} ({100 * t['marked'] / boxes:.2f}%)")
    print(f"  wrong, refused by the engine: {t['engine']} {t['engine_rules']}")
    print(f"  silent errors:          {t['silent']}")
    for box in t["silent_boxes"]:
        print(f"    photo {box}")
    if t.get("outcome_written"):
        print(
            f"  of them burn outcomes written: {t['outcome_written']}, right unaided"
            f" {t.get('outcome_right', 0)}, marked {t.get('outcome_marked', 0)},"
            f" wrong unmarked {t.get('outcome_wrong', 0)}"
        )
    e = t["strip"]
    written = e["written"] or 1
    print(f"event strip: {e['boxes']} boxes, {e['written']} written")
    print(f"  written, right without a person: {e['right']} ({100 * e['right'] / written:.2f}%)")
    print(f"  marked for a person:    {e['marked']}")
    print(
        f"  deal numbers' written boxes: {e.get('deal', 0)}, right unaided {e.get('deal_right', 0)}"
    )
    print(f"  wrong, refused by the engine: {e['engine']}")
    print(f"  silent errors:          {e['silent']}")
    for box in e["silent_boxes"]:
        print(f"    photo {box}")
    print(f"time a sheet: p50 {t['p50']:.2f} s, p95 {t['p95']:.2f} s, max {t['max']:.2f} s")
    print(f"reader process peak RSS: {t['rss_mb']:.0f} MB")


def report_giog(t: dict) -> None:
    written = t["written"] or 1
    print(f"Giog sheets read: {t['sheets']}, refused: {t['refused']}")
    print(f"boxes: {t['boxes']}, written: {t['written']}")
    print(f"  written, right without a person: {t['right']} ({100 * t['right'] / written:.2f}%)")
    print(f"  marked for a person:    {t['marked']}")
    print(f"  0s written in a units box: {t['zeros']}, right unaided {t['zeros_right']}")
    print(f"  9s written in a units box: {t['nines']}, right unaided {t['nines_right']}")
    print(f"  wrong, refused by the engine: {t['engine']}")
    print(f"  silent errors:          {t['silent']}")
    for box in t["silent_boxes"]:
        print(f"    photo {box}")
    print(f"time a sheet: p50 {t['p50']:.2f} s, p95 {t['p95']:.2f} s, max {t['max']:.2f} s")
    print(f"reader process peak RSS: {t['rss_mb']:.0f} MB")


if __name__ == "__main__":
    main()
