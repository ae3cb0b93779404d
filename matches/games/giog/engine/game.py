"""Giog behind the small `Game` interface of `matches/kernel/games/adapter.py`."""

from __future__ import annotations

from typing import Any, Iterator

from matches.kernel.engine_errors import JSONObject

from .outcome import check_summary
from .replay import replay
from .selfplay import selfplay


class GiogGame:
    name = "giog"

    def replay(self, document: JSONObject) -> JSONObject:
        return replay(document)

    def check_summary(self, document: JSONObject) -> JSONObject:
        return check_summary(document)

    def selfplay(self, count: int, seed: int, **options: Any) -> Iterator[JSONObject]:
        return selfplay(count, seed, **options)


game = GiogGame()
