"""Gou Ji as a `Game` (matches/rules/base.py)."""
from __future__ import annotations

from matches.rules.gouji.settle import settle


class GoujiGame:
    name = "gouji"

    def check_summary(self, document: dict) -> dict:
        """The verdict on a `gouji-outcome/1` summary (see `settle`). Raises BadDocument."""
        return settle(document)
