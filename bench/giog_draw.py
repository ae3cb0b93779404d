"""Giog draw: time per round and repeated opponents per round, for several field sizes.

    python bench/giog_draw.py

Plain figures, no Django: the draw engine alone (matches/games/giog/seating.py).
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from matches.games.giog.seating import GiogPlayer, apply_round, draw_giog  # noqa: E402

FIELDS = [(8, 3), (10, 3), (12, 4), (16, 5), (24, 5), (40, 6), (100, 6), (400, 6)]


def main() -> None:
    print(f"{'players':>7} {'rounds':>6} {'ms/round':>9}  repeated opponent pairs per round")
    for count, rounds in FIELDS:
        players = {i: GiogPlayer(id=i, rank=i, club=i % 6) for i in range(count)}
        repeats, spent = [], 0.0
        for number in range(1, rounds + 1):
            started = time.perf_counter()
            draw = draw_giog(players.values(), seed=number)
            spent += time.perf_counter() - started
            repeats.append(draw.quality["repeat_opponents"])
            players = apply_round(players, draw)
        print(f"{count:>7} {rounds:>6} {1000 * spent / rounds:>9.1f}  {repeats}")


if __name__ == "__main__":
    main()
