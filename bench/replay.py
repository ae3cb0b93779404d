"""Replay speed: self-play N full deals, then time `replay` on each record.

    python bench/replay.py [--deals 1000] [--seed 1] [--rules standard eight-players six-decks]
                           [--profile]

Prints deals per second and microseconds per action for each rule set, side by side (by
default the six-player game, eight players and six packs). Generating the deals is not timed; the
timed part is exactly what `gouji replay` does with a parsed JSON document (reading the record,
checking the setup, applying every action, settling the outcome and the claims).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from matches.games.gouji.engine import play  # noqa: E402
from matches.games.gouji.engine.record import read_record  # noqa: E402
from matches.games.gouji.engine.replay import initial_state, replay  # noqa: E402
from matches.games.gouji.engine.selfplay import selfplay  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", nargs="+", default=["standard", "eight-players", "six-decks"])
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    rows = [bench(rules, args.deals, args.seed, args.profile) for rules in args.rules]
    if len(rows) > 1 and not args.profile:
        print()
        print("| rules | deals | actions | deals/s | µs per action | apply only, µs |")
        print("| --- | ---: | ---: | ---: | ---: | ---: |")
        for row in rows:
            print("| {} | {} | {} | {:.0f} | {:.2f} | {:.2f} |".format(*row))


def bench(rules: str, deals: int, seed: int, profile: bool) -> tuple:
    started = time.perf_counter()
    docs = list(selfplay(deals, seed, rules))
    generated = time.perf_counter() - started
    actions = sum(len(doc["actions"]) for doc in docs)
    print(f"self-played {len(docs)} deals ({rules}), {actions} actions, in {generated:.1f} s")

    if profile:
        import cProfile
        import pstats

        cProfile.runctx(
            "for doc in docs: replay(doc)",
            globals(),
            {"docs": docs, "replay": replay},
            "/tmp/replay.prof",
        )
        pstats.Stats("/tmp/replay.prof").sort_stats("tottime").print_stats(15)
        return (rules, len(docs), actions, 0.0, 0.0, 0.0)

    best = None
    for _ in range(3):  # best of three, to keep other processes' noise out
        started = time.perf_counter()
        for doc in docs:
            verdict = replay(doc)
            assert verdict["valid"] and verdict["complete"], verdict["error"]
        elapsed = time.perf_counter() - started
        best = elapsed if best is None else min(best, elapsed)
    assert best is not None  # at least one repeat ran
    print(
        f"replay: {len(docs) / best:.0f} deals/s, {best / actions * 1e6:.2f} µs per action "
        f"(whole replay: read, setup, apply, settle)"
    )

    records = [read_record(doc) for doc in docs]
    apply = play.apply
    started = time.perf_counter()
    for record in records:
        state = initial_state(record)
        for action in record.actions:
            state = apply(state, action)
    elapsed = time.perf_counter() - started
    print(f"apply only: {elapsed / actions * 1e6:.2f} µs per action")
    return (
        rules,
        len(docs),
        actions,
        len(docs) / best,
        best / actions * 1e6,
        elapsed / actions * 1e6,
    )


if __name__ == "__main__":
    main()
