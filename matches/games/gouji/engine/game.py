"""Gou Ji as a `Game` (matches/kernel/games/adapter.py)."""

from __future__ import annotations

from typing import Any, Iterator

from matches.games.gouji.engine.replay import replay
from matches.games.gouji.engine.selfplay import selfplay
from matches.games.gouji.engine.settle import settle
from matches.kernel.engine_errors import JSONObject


class GoujiGame:
    name = "gouji"

    def check_summary(self, document: JSONObject) -> JSONObject:
        """The verdict on a `gouji-outcome/1` summary (see `settle`). Raises BadDocument."""
        return settle(document)

    def replay(self, document: JSONObject) -> JSONObject:
        """The verdict on a `gouji-deal/1` record (see `replay`). Raises BadDocument."""
        return replay(document)

    def selfplay(self, count: int, seed: int, **options: Any) -> Iterator[JSONObject]:
        """`count` self-played deal records; option `rules`: a preset name or rules object."""
        return selfplay(count, seed, options.get("rules", "standard"))
