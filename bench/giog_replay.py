"""Replay speed of the Giog engine: self-plays N hands, then times replaying them.

/work/main/.venv/bin/python bench/giog_replay.py [--hands 2000] [--players 4] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from matches.games.giog.engine import game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    records = list(game.selfplay(args.hands, args.seed, players=args.players))
    actions = sum(len(r["actions"]) for r in records)
    start = time.perf_counter()
    for record in records:
        verdict = game.replay(record)
        if not verdict["complete"] or verdict["mismatches"]:
            raise SystemExit(f"a self-played hand did not replay cleanly: {verdict}")
    elapsed = time.perf_counter() - start
    print(f"{args.hands} hands, {args.players} players, {actions} actions in {elapsed:.3f} s")
    print(f"{args.hands / elapsed:,.0f} hands/s, {elapsed / actions * 1e6:.1f} µs per action")


if __name__ == "__main__":
    main()
