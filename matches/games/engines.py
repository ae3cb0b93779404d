"""The games the system knows, by machine name. Pure Python, like the engines."""
from __future__ import annotations

from matches.games.base import Game


def get_game(name: str) -> Game:
    """Return the engine of a game; KeyError for an unknown name."""
    if name == "gouji":
        from matches.games.gouji.engine.game import GoujiGame

        return GoujiGame()
    if name == "giog":
        from matches.games.giog.engine.game import GiogGame

        return GiogGame()
    raise KeyError(name)


GAME_NAMES = ("gouji", "giog")
