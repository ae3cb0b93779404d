"""Make the score sheets' vote of the nearest boxes (matches/paper/digits_neighbours*.npz).

    .venv/bin/python tools/train_digits.py [boxes]          # the seats' vote, 30,000 boxes
    .venv/bin/python tools/train_digits.py --all [boxes]    # every digit's, digits_all_neighbours*

Writes the even half of scikit-learn's bundled handwritten digits into single boxes the way a
photo of the project's own sheet shows them (tests/sheets/photos.py `box_crop`), upright
(`digits.upright`), and keeps them as examples (their 40 main axes) for the vote of the
nearest (`digits.neighbours`). The odd half never reaches a reader: the tests and
bench/scoresheets.py write with it. The two networks that read beside the vote are made by
tools/train_convnet.py from the same kind of boxes (`box_samples`). Seeded: the same run gives
the same file. Needs the dev requirements (scikit-learn's digits); the app does not.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import django
import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
django.setup()

from matches.paper import digits  # noqa: E402
from tests.sheets.photos import box_crop, digit_samples  # noqa: E402


def distorted(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A box's ink bent by a smooth random field (each pixel moved by up to a few pixels, the
    moves of neighbours alike), then sometimes thinned or thickened by a pixel. Taught on
    such boxes a reader has seen a 3 drift towards a 5: it is less often sure of a digit it
    has not seen written that way."""
    height, width = ink.shape
    strength = rng.uniform(0.0, DISTORTION)
    moves = [
        np.asarray(
            Image.fromarray(rng.normal(0, strength, (4, 4)).astype(np.float32)).resize(
                (width, height), Image.Resampling.BILINEAR
            )
        )
        for _ in range(2)
    ]
    ys, xs = np.mgrid[0:height, 0:width]
    y = np.clip(ys + moves[0], 0, height - 1.001)
    x = np.clip(xs + moves[1], 0, width - 1.001)
    top, left = y.astype(int), x.astype(int)
    down, right = y - top, x - left
    bent = (
        ink[top, left] * (1 - down) * (1 - right)
        + ink[top, left + 1] * (1 - down) * right
        + ink[top + 1, left] * down * (1 - right)
        + ink[top + 1, left + 1] * down * right
    )
    stroke = rng.random()
    if stroke < 0.15:
        return -digits.joined(-bent)  # thinned: a 3×3 minimum
    if stroke < 0.3:
        return digits.joined(bent)
    return bent


#: the largest spread (pixels, of a box's ~32) of `distorted`'s random moves
DISTORTION = 2.0


def box_samples(
    count: int,
    seed: int = 1,
    low: int = 1,
    high: int = 8,
    upright: bool = True,
    bend: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """`count` single boxes, digits `low`-`high` (1-8: the seats) of the even half, features
    upright (or as written), `bend`: each box `distorted`."""
    rng = np.random.default_rng(seed)
    written = digit_samples("train")
    inputs, labels = [], []
    for _ in range(count):
        digit = int(rng.integers(low, high + 1))
        sample = written[digit][int(rng.integers(len(written[digit])))]
        crop = box_crop(sample, rng)
        if bend:
            crop = distorted(crop, rng)
        inputs.append(digits.features(digits.upright(crop) if upright else crop))
        labels.append(digit)
    return np.array(inputs), np.array(labels)


def save_neighbours(count: int, target: Path = digits.READERS[0], low: int = 1) -> None:
    """The vote's examples: `count` boxes projected on their 40 main axes, each axis
    stored as int8 with its scale (float16 made the file 2.3 MB; int8 errs by at most half a step,
    ~0.012 on axes spanning about ±3, far below the distances between digits). Written in parts
    of at most `digits.PART` examples (the first file holds the axes too): each file under 2 MB."""
    high = 8 if low else 9
    inputs, labels = box_samples(count, seed=101 if low else 13, low=low, high=high)
    mean = inputs.mean(axis=0)
    axes = np.linalg.svd(inputs - mean, full_matrices=False)[2][:40].T
    examples = (inputs - mean) @ axes
    scale = np.abs(examples).max(axis=0) / 127
    stored = np.round(examples / scale).astype(np.int8)
    for number in range(1, -(-count // digits.PART) + 1):
        path = digits.part(target, number)
        kept = slice((number - 1) * digits.PART, number * digits.PART)
        first = dict(mean=mean, axes=axes, scale=scale) if number == 1 else {}
        np.savez_compressed(
            path,
            **{name: value.astype(np.float32) for name, value in first.items()},
            examples=stored[kept],
            labels=labels[kept].astype(np.int8),
        )
        print(f"wrote {path} ({path.stat().st_size} bytes)")


def main() -> None:
    every = sys.argv[1:2] == ["--all"]
    numbers = [int(a) for a in sys.argv[1:] if not a.startswith("--")]
    # 30,000: a vote of 150,000 read 0.3 points more but was unanimous and wrong where the
    # vote of 30,000 was split and marked the box (bench/RESULTS-scoresheets.md)
    count = numbers[0] if numbers else 30_000
    if every:
        save_neighbours(count, digits.ALL[0], low=0)
    else:
        save_neighbours(count)


if __name__ == "__main__":
    main()
