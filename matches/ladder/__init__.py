"""The 擂台赛 challenge ladder: `rules.py` is the pure ladder (no Django); docs/ladder.md."""
