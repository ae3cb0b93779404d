"""Giog behind the small `Game` interface of `matches/games/base.py`."""

from __future__ import annotations

from typing import Iterator

from .outcome import check_summary
from .replay import replay
from .selfplay import selfplay


class GiogGame:
    name = "giog"

    def replay(self, document: dict) -> dict:
        return replay(document)

    def check_summary(self, document: dict) -> dict:
        return check_summary(document)

    def selfplay(self, count: int, seed: int, **options) -> Iterator[dict]:
        return selfplay(count, seed, **options)


game = GiogGame()
