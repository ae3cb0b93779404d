"""The 擂台赛 challenge ladder: a club league's seasons of quarterly sessions (docs/ladder.md).

`rules.py` is the pure ladder (no Django); `service/` moves a season between its rows
(`models.py`) and the rules; `permissions.py` says who may run a season; `views.py` the pages.
Depends on the matches app's shared pieces, never the other way round (import-linter,
pyproject.toml)."""
