"""The digit classifier: one box's ink → the probability of each digit 0-9.

A small network (196 inputs, one hidden layer, 10 outputs) whose weights are `digits.npz`
beside this file, made by `tools/train_digits.py` from scikit-learn's bundled handwritten
digits (one half; the test photos write with the other) drawn on the project's own sheet and
photographed in software. Nothing is downloaded: the file ships with the code.
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
from PIL import Image

WEIGHTS = Path(__file__).with_name("digits.npz")
SIDE = 28  # the ink is fitted into 20×20 and centred in 28×28, then halved: 14×14 inputs
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


@functools.cache
def _weights() -> tuple[np.ndarray, ...]:
    with np.load(WEIGHTS) as data:
        return tuple(data[name] for name in ("w1", "b1", "w2", "b2"))


def classify(inputs: np.ndarray) -> np.ndarray:
    """Rows of features → rows of ten probabilities (softmax)."""
    w1, b1, w2, b2 = _weights()
    hidden = np.maximum(inputs @ w1 + b1, 0.0)
    logits = hidden @ w2 + b2
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    return odds / odds.sum(axis=1, keepdims=True)
