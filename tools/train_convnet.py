"""Train the score sheets' two digit-reading networks (small, convolutional) in numpy.

    .venv/bin/python tools/train_convnet.py [--all] [--upright] [boxes] [epochs]

Four files (`digits.READERS`, `digits.ALL`): the seats' digits 1-8 or (`--all`) every digit,
the box as written or (`--upright`) with its slant taken out (`digits.upright`). Each network
(`digits.convnet`) has two layers of 3×3 filters: it sees strokes and their joints wherever
they are, where a flat network sees a stroke moved by a pixel as another input. It learns
from single boxes of the even half of scikit-learn's handwritten digits (tests/sheets/photos.py
`box_crop`, its own seed; the odd half writes the test photos), each bent a little at random
(`train_digits.distorted`): on the tuning seed's photos the networks taught on bent boxes were
sure of a wrong digit 3 times instead of 8 (bench/RESULTS-scoresheets.md). Written in numpy
(gradients by hand, checked by `gradients_match`) because the project installs no
deep-learning package: torch alone would be several times the install's whole allowance.
About 4 minutes a file on one core (`OPENBLAS_NUM_THREADS=1`). Seeded: the same run gives the
same file.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from train_digits import box_samples  # noqa: E402  (sets Django up)

from matches.paper import digits  # noqa: E402

FILTERS = (16, 32)
HIDDEN = 64


def initial(rng: np.random.Generator, outputs: int) -> dict[str, np.ndarray]:
    """He-initialised weights: two 3×3 filter banks, a hidden layer, the outputs."""
    first, second = FILTERS
    flat = (digits.HALF // 4 + 1) ** 2 * second  # 14 → 7 → 4 squares after two poolings

    def he(*shape: int) -> np.ndarray:
        return (rng.normal(0, np.sqrt(2 / shape[0]), shape)).astype(np.float32)

    return {
        "k1": he(9, first),
        "c1": np.zeros(first, np.float32),
        "k2": he(9 * first, second),
        "c2": np.zeros(second, np.float32),
        "w1": he(flat, HIDDEN),
        "b1": np.zeros(HIDDEN, np.float32),
        "w2": he(HIDDEN, outputs),
        "b2": np.zeros(outputs, np.float32),
    }


def unpatch(grad: np.ndarray, channels: int) -> np.ndarray:
    """The gradient of `digits.patches`: each 3×3 neighbour's share added back to its pixel."""
    n, h, w, _ = grad.shape
    padded = np.zeros((n, h + 2, w + 2, channels), grad.dtype)
    for k, (dy, dx) in enumerate((dy, dx) for dy in range(3) for dx in range(3)):
        padded[:, dy : dy + h, dx : dx + w] += grad[..., k * channels : (k + 1) * channels]
    return padded[:, 1:-1, 1:-1]


def unpool(grad: np.ndarray, before: np.ndarray) -> np.ndarray:
    """The gradient of `digits.pool`: each square's gradient to its largest value(s)."""
    n, h, w, c = before.shape
    even = np.pad(before, ((0, 0), (0, h % 2), (0, w % 2), (0, 0)))
    blocks = even.reshape(n, (h + 1) // 2, 2, (w + 1) // 2, 2, c)
    largest = blocks.max(axis=(2, 4), keepdims=True)
    spread = (blocks == largest) * grad[:, :, None, :, None, :]
    return spread.reshape(even.shape)[:, :h, :w]


def loss_and_gradients(
    weights: dict[str, np.ndarray], inputs: np.ndarray, labels: np.ndarray, decay: float = 0.0
) -> tuple[float, dict[str, np.ndarray]]:
    """Cross-entropy of a batch and each weight's gradient (the forward pass is
    `digits.convnet`'s, its intermediate values kept)."""
    side = digits.HALF
    x = inputs.reshape(-1, side, side, 1)
    p1 = digits.patches(x)
    z1 = p1 @ weights["k1"] + weights["c1"]
    r1 = np.maximum(z1, 0)
    a1 = digits.pool(r1)
    p2 = digits.patches(a1)
    z2 = p2 @ weights["k2"] + weights["c2"]
    r2 = np.maximum(z2, 0)
    a2 = digits.pool(r2)
    flat = a2.reshape(len(x), -1)
    hidden = np.maximum(flat @ weights["w1"] + weights["b1"], 0)
    logits = hidden @ weights["w2"] + weights["b2"]
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    odds /= odds.sum(axis=1, keepdims=True)
    count = len(x)
    loss = float(-np.log(odds[np.arange(count), labels] + 1e-12).mean())

    d_logits = odds
    d_logits[np.arange(count), labels] -= 1
    d_logits /= count
    grads = {"w2": hidden.T @ d_logits, "b2": d_logits.sum(axis=0)}
    d_hidden = (d_logits @ weights["w2"].T) * (hidden > 0)
    grads["w1"] = flat.T @ d_hidden
    grads["b1"] = d_hidden.sum(axis=0)
    d_a2 = (d_hidden @ weights["w1"].T).reshape(a2.shape)
    d_z2 = unpool(d_a2, r2) * (z2 > 0)
    second = weights["k2"].shape[1]
    grads["k2"] = p2.reshape(-1, p2.shape[-1]).T @ d_z2.reshape(-1, second)
    grads["c2"] = d_z2.sum(axis=(0, 1, 2))
    d_a1 = unpatch(d_z2 @ weights["k2"].T, a1.shape[-1])
    d_z1 = unpool(d_a1, r1) * (z1 > 0)
    first = weights["k1"].shape[1]
    grads["k1"] = p1.reshape(-1, 9).T @ d_z1.reshape(-1, first)
    grads["c1"] = d_z1.sum(axis=(0, 1, 2))
    for name in ("k1", "k2", "w1", "w2"):
        loss += decay / 2 * float((weights[name] ** 2).sum())
        grads[name] = grads[name] + decay * weights[name]
    return loss, grads


def gradients_match() -> bool:
    """The hand-written gradients against finite differences, on a few random weights."""
    rng = np.random.default_rng(0)
    weights = {k: v.astype(np.float64) for k, v in initial(rng, 10).items()}
    inputs = rng.random((5, digits.HALF**2))
    labels = rng.integers(0, 10, 5)
    _, grads = loss_and_gradients(weights, inputs, labels, decay=1e-3)
    for name, value in weights.items():
        for _ in range(3):
            index = tuple(int(rng.integers(n)) for n in value.shape)
            kept = value[index]
            value[index] = kept + 1e-6
            up = loss_and_gradients(weights, inputs, labels, decay=1e-3)[0]
            value[index] = kept - 1e-6
            down = loss_and_gradients(weights, inputs, labels, decay=1e-3)[0]
            value[index] = kept
            numeric = (up - down) / 2e-6
            if abs(numeric - grads[name][index]) > 1e-5 + 1e-3 * abs(numeric):
                print(f"{name}{index}: by hand {grads[name][index]:.6g}, numeric {numeric:.6g}")
                return False
    return True


def train(
    inputs: np.ndarray, labels: np.ndarray, epochs: int, seed: int = 7, batch: int = 128
) -> dict[str, np.ndarray]:
    """Adam over shuffled batches, the step halved for each of the last three epochs."""
    rng = np.random.default_rng(seed)
    weights = initial(rng, 10)
    first = {k: np.zeros_like(v) for k, v in weights.items()}
    second = {k: np.zeros_like(v) for k, v in weights.items()}
    step, beta1, beta2, t = 2e-3, 0.9, 0.999, 0
    for epoch in range(epochs):
        started, total, order = time.perf_counter(), 0.0, rng.permutation(len(inputs))
        if epoch >= epochs - 3:
            step /= 2
        for start in range(0, len(order), batch):
            chosen = order[start : start + batch]
            loss, grads = loss_and_gradients(weights, inputs[chosen], labels[chosen], 1e-4)
            total += loss * len(chosen)
            t += 1
            for name, grad in grads.items():
                first[name] = beta1 * first[name] + (1 - beta1) * grad
                second[name] = beta2 * second[name] + (1 - beta2) * grad**2
                fresh = first[name] / (1 - beta1**t)
                spread = second[name] / (1 - beta2**t)
                weights[name] -= (step * fresh / (np.sqrt(spread) + 1e-8)).astype(np.float32)
        print(
            f"epoch {epoch + 1}: loss {total / len(inputs):.4f} "
            f"({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
    return weights


#: each file's seeds (boxes, training) by (every digit, upright)
SEEDS = {
    (False, False): (201, 7),
    (False, True): (301, 9),
    (True, False): (31, 7),
    (True, True): (41, 9),
}


def main() -> None:
    args = sys.argv[1:]
    every, upright = "--all" in args, "--upright" in args
    numbers = [int(a) for a in args if not a.startswith("--")]
    count = numbers[0] if numbers else 120_000
    epochs = numbers[1] if len(numbers) > 1 else 12
    assert gradients_match(), "the network's gradients are wrong"
    low, high = (0, 9) if every else (1, 8)
    boxes_seed, training_seed = SEEDS[every, upright]
    inputs, labels = box_samples(
        count, seed=boxes_seed, low=low, high=high, upright=upright, bend=True
    )
    held = len(inputs) // 10  # a tenth kept aside: how often the network is right on new boxes
    weights = train(inputs[held:], labels[held:], epochs, seed=training_seed)
    right = (digits.convnet(inputs[:held], weights).argmax(axis=1) == labels[:held]).mean()
    print(f"{count} boxes, {epochs} epochs; right on the tenth kept aside: {right:.4f}")
    target = (digits.ALL if every else digits.READERS)[2 if upright else 1]
    # typed Any: numpy's stubs take a keyword's value for savez's own `allow_pickle` flag
    stored: dict[str, Any] = {name: value.astype(np.float32) for name, value in weights.items()}
    np.savez_compressed(target, **stored)
    print(f"wrote {target} ({target.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
