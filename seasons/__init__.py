"""Seasons: one person across events, the rating list, series tables (and, later, the 擂台赛
ladder: a module of its own here, `seasons/ladder/`). Depends on the matches kernel and models,
never the other way round (import-linter, pyproject.toml)."""
