"""Hostile-input figures: replay time of ever longer play logs (linear, not quadratic), and the
cost of the JSON guards (depth scan, unstorable-text walk) on large bodies.

    /work/main/.venv/bin/python bench/hostile.py
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")

import django  # noqa: E402

django.setup()

from matches.api.documents import _too_deep, _unstorable_text  # noqa: E402
from matches.kernel.games.registry import get_game  # noqa: E402


def best_of(runs: int, call) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    game = get_game("gouji")
    deal = next(iter(game.selfplay(1, 3)))
    print(f"a real deal: {len(deal['actions'])} actions")
    print("actions   replay (s)   per 1,000 actions (ms)   outcome")
    for total in (1_000, 10_000, 20_000, 40_000, 80_000):
        doc = json.loads(json.dumps(deal))
        doc["actions"] += [
            {"seat": 1 + k % 6, "pass": True} for k in range(total - len(deal["actions"]))
        ]
        verdict = game.replay(doc)
        seconds = best_of(3, lambda: game.replay(doc))
        print(
            f"{total:>7,}   {seconds:>10.3f}   {seconds / total * 1e6:>22.2f}   "
            f"{verdict['error']['code'] if verdict.get('error') else 'valid'}"
        )
    print("body (bytes)   depth scan (ms)   text walk (ms)")
    for total in (10_000, 80_000):
        doc = {"play_log": {**deal, "actions": deal["actions"] * (total // len(deal["actions"]))}}
        text = json.dumps(doc)
        parsed = json.loads(text)
        print(
            f"{len(text):>12,}   {best_of(3, lambda: _too_deep(text)) * 1e3:>15.1f}   "
            f"{best_of(3, lambda: _unstorable_text(parsed)) * 1e3:>14.1f}"
        )


if __name__ == "__main__":
    main()
