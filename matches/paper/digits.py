"""The digit readers: one box's ink → the probability of each digit 0-9, three times.

Three readers built differently, so that they are seldom sure of the same wrong digit, all
learned from single boxes written with one half of scikit-learn's bundled handwritten digits
(the test photos write with the other): the vote of the nearest boxes of that half
(`neighbours`, `tools/train_digits.py`), and two small convolutional networks (`convnet`,
`tools/train_convnet.py`), one seeing the box as written, the other with its slant taken out
(`upright`). Nothing is downloaded: the files ship with the code.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
from PIL import Image

HERE = Path(__file__).parent
#: the readers of a seat's box (digits 1-8), in `reader.combine`'s order: the vote, the
#: network on the box as written, the network on the box upright
READERS = (
    HERE / "digits_neighbours.npz",
    HERE / "digits_convnet.npz",
    HERE / "digits_convnet_upright.npz",
)
#: the same three made from boxes of every digit, for the boxes that can hold a 0 or a 9 (a
#: deal number's, Giog's pieces won); a seat's box keeps the readers above, which never read
#: a 0 or a 9 (`tools/train_digits.py --all`, `tools/train_convnet.py --all`)
ALL = (
    HERE / "digits_all_neighbours.npz",
    HERE / "digits_all_convnet.npz",
    HERE / "digits_all_convnet_upright.npz",
)
#: the vote: the digits of this many nearest written boxes. Fewer make a vote unanimous (a
#: single box's only way to be sure) more often; chosen on seed 11's photos (30,000 examples):
#: 15 97.7 % unaided, 9 98.1 %, 5 98.4 %, all 0 silent; 3 left a sure wrong burn unmarked.
#: With 150,000 examples 15 97.92 %, 9 98.07 %, 7 98.11 %, but on seeds 2 and 4 a unanimous
#: wrong burn seat each that the 30,000 left split (marked): 30,000 kept.
NEIGHBOURS = 9
SIDE = 28  # the ink is fitted into 20×20 and centred in 28×28, then halved: 14×14 inputs
HALF = SIDE // 2
FIT = 20


def features(ink: np.ndarray) -> np.ndarray:
    """A box's darkness (0 paper - 1 ink) → 196 numbers: the ink's bounding box scaled to fit
    20×20 (its proportions kept), centred, halved to 14×14. Where in the box and how large the
    digit was written no longer matters."""
    rows = np.flatnonzero((ink > 0.3).any(axis=1))
    cols = np.flatnonzero((ink > 0.3).any(axis=0))
    canvas = np.zeros((SIDE, SIDE), dtype=np.float32)
    if len(rows) and len(cols):
        crop = ink[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
        height, width = crop.shape
        scale = FIT / max(height, width)
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        glyph = Image.fromarray((crop * 255).astype(np.uint8)).resize(
            size, Image.Resampling.BILINEAR
        )
        top, left = (SIDE - size[1]) // 2, (SIDE - size[0]) // 2
        canvas[top : top + size[1], left : left + size[0]] = np.asarray(glyph) / 255.0
    return canvas.reshape(SIDE // 2, 2, SIDE // 2, 2).mean(axis=(1, 3)).ravel()


def upright(ink: np.ndarray) -> np.ndarray:
    """The ink sheared so that its main axis stands vertical (from its second moments): a
    slanted hand and an upright one give the second network the same digit."""
    total = float(ink.sum())
    if total <= 0:
        return ink
    height, width = ink.shape
    ys, xs = np.mgrid[0:height, 0:width]
    cy, cx = float((ys * ink).sum()) / total, float((xs * ink).sum()) / total
    spread = float(((ys - cy) ** 2 * ink).sum()) / total
    slant = float(((ys - cy) * (xs - cx) * ink).sum()) / total / spread if spread else 0.0
    image = Image.fromarray((ink * 255).astype(np.uint8)).transform(
        (width, height),
        Image.Transform.AFFINE,
        (1, slant, -slant * cy, 0, 1, 0),
        Image.Resampling.BILINEAR,
    )
    return np.asarray(image, dtype=np.float32) / 255.0


def patches(images: np.ndarray) -> np.ndarray:
    """Images (count, height, width, channels) → each pixel's 3×3 neighbourhood (zeros past
    the edge) side by side: (count, height, width, 9 × channels), ready for a filter bank."""
    _, height, width, _ = images.shape
    padded = np.pad(images, ((0, 0), (1, 1), (1, 1), (0, 0)))
    return np.concatenate(
        [padded[:, dy : dy + height, dx : dx + width] for dy in range(3) for dx in range(3)],
        axis=3,
    )


def pool(images: np.ndarray) -> np.ndarray:
    """The largest value of each 2×2 square (an odd edge padded with zeros: after a ReLU
    nothing is below zero)."""
    count, height, width, channels = images.shape
    even = np.pad(images, ((0, 0), (0, height % 2), (0, width % 2), (0, 0)))
    squares = even.reshape(count, (height + 1) // 2, 2, (width + 1) // 2, 2, channels)
    return squares.max(axis=(2, 4))


@functools.cache
def _convnet_weights(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


def convnet(inputs: np.ndarray, weights: Path | dict[str, np.ndarray] = READERS[1]) -> np.ndarray:
    """Rows of features (as written or upright, as the network learned them) → rows of ten
    probabilities: two banks of 3×3 filters (ReLU, 2×2 pooling each: 14×14 → 7×7 → 4×4),
    then a hidden layer and softmax."""
    layers = _convnet_weights(weights) if isinstance(weights, Path) else weights
    images = inputs.reshape(-1, HALF, HALF, 1).astype(np.float32)
    for filters, bias in (("k1", "c1"), ("k2", "c2")):
        images = pool(np.maximum(patches(images) @ layers[filters] + layers[bias], 0.0))
    flat = images.reshape(len(images), -1)
    hidden = np.maximum(flat @ layers["w1"] + layers["b1"], 0.0)
    logits = hidden @ layers["w2"] + layers["b2"]
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    return odds / odds.sum(axis=1, keepdims=True)


#: a vote's examples are stored in files of at most this many (each file under 2 MB): the
#: first `digits_neighbours.npz`, the next `digits_neighbours_2.npz`, …
PART = 50_000


def part(path: Path, number: int) -> Path:
    """The `number`th file (from 1) of the vote whose first file is `path`."""
    return path if number == 1 else path.with_name(f"{path.stem}_{number}.npz")


@functools.cache
def _examples(path: Path = READERS[0]) -> tuple[np.ndarray, ...]:
    examples, labels = [], []
    with np.load(path) as data:
        mean, axes, scale = data["mean"], data["axes"], data["scale"]
    number = 1
    while part(path, number).exists():
        with np.load(part(path, number)) as data:
            # int8 a main axis, scaled back (tools/train_digits.py: each file under 2 MB)
            examples.append(data["examples"].astype(np.float32) * scale)
            labels.append(data["labels"])
        number += 1
    kept = np.concatenate(examples)
    return mean, axes, kept, (kept**2).sum(axis=1), np.concatenate(labels)


#: boxes a vote compares with every example at once: with a vote of 150,000, 16 × 150,000
#: distances (10 MB, and twice that for argpartition's indexes); 64 at once peaked at 245 MB
CHUNK = 16


def neighbours(inputs: np.ndarray, examples: Path = READERS[0]) -> np.ndarray:
    """Rows of (upright) features → rows of ten shares: how many of the NEIGHBOURS nearest
    written boxes of the training half (in the 40 main axes of their features) are each digit.
    Nothing learned but the axes: a box between two digits gets a split vote, where a network
    trained to certainty may not."""
    mean, axes, kept, norms, labels = _examples(examples)
    projected = (inputs - mean) @ axes
    votes = np.zeros((len(inputs), 10))
    for start in range(0, len(inputs), CHUNK):
        distances = norms[None, :] - 2.0 * projected[start : start + CHUNK] @ kept.T
        nearest = labels[np.argpartition(distances, NEIGHBOURS, axis=1)[:, :NEIGHBOURS]]
        for digit in range(10):
            votes[start : start + CHUNK, digit] = (nearest == digit).mean(axis=1)
    return votes


#: a piece of ink smaller than this many pixels (of a box's ~32×32) is a speck, not a stroke
SPECK = 4


def joined(ink: np.ndarray) -> np.ndarray:
    """The ink thickened by a pixel all round (a 3×3 maximum): a glyph broken by a thin
    stroke falling under the ink threshold is whole again."""
    padded = np.pad(ink, 1)
    height, width = ink.shape
    return np.max(
        [padded[dy : dy + height, dx : dx + width] for dy in range(3) for dx in range(3)], axis=0
    )


def pieces(ink: np.ndarray, level: float = 0.3) -> int:
    """How many separate pieces of ink (4-connected pixels darker than `level`, specks left
    out) a box holds. An 8 whose waist fell under the ink threshold is two pieces that every
    reader takes for a 2: a caller can refuse to trust such a glyph where nothing checks it.
    Labels spread in numpy (each pixel takes its smallest neighbour's label, then jumps along
    its label's own label) until nothing changes: no scipy at run time."""
    mask = np.pad(ink > level, 1)
    if not mask.any():
        return 0
    count = mask.size
    labels = np.where(mask, np.arange(count).reshape(mask.shape), count)
    flat_mask = mask.ravel()
    while True:
        spread = labels.copy()
        spread[1:-1, 1:-1] = np.minimum.reduce(
            [
                labels[1:-1, 1:-1],
                labels[:-2, 1:-1],
                labels[2:, 1:-1],
                labels[1:-1, :-2],
                labels[1:-1, 2:],
            ]
        )
        spread = np.where(mask, spread, count)
        flat = spread.ravel()
        jumped = np.where(flat_mask, flat[np.minimum(flat, count - 1)], count).reshape(mask.shape)
        jumped = np.where(mask, np.minimum(spread, jumped), count)
        if np.array_equal(jumped, labels):
            break
        labels = jumped
    sizes = np.bincount(labels[mask])
    return int((sizes >= SPECK).sum())
