"""The small interface every game's rules engine implements.

The tournament side (services, tasks, API) talks to a game only through this interface, so a new
game is a new module here, not a change to the tournament model.
"""

from __future__ import annotations

from typing import Iterator, Protocol


class Game(Protocol):
    #: short machine name, e.g. "gouji" or "giog"
    name: str

    def replay(self, document: dict) -> dict:
        """Replay a full record (e.g. `gouji-deal/1`) and return the verdict JSON object.

        Raises `BadDocument` when the document cannot be read; rule violations are reported
        inside the verdict, never raised.
        """

    def check_summary(self, document: dict) -> dict:
        """Check a referee's summary of one deal/hand and return its verdict JSON object
        (for Gou Ji: `gouji settle` on a `gouji-outcome/1`). Raises `BadDocument`."""

    def selfplay(self, count: int, seed: int, **options) -> Iterator[dict]:
        """Yield `count` complete records played by simple bots from `random.Random(seed)`."""
