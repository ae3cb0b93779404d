"""The rules engines the system knows, by game name: each game's adapter names its engine
(`GameAdapter.engine`), so a game is one line of the registry. The engines are pure Python:
the command line and the stateless rules API run them without a database."""

from __future__ import annotations

from matches.kernel.games.base import Game
from matches.kernel.games.registry import adapter_named


def get_game(name: str) -> Game:
    """Return the engine of a game; KeyError for an unknown name."""
    return adapter_named(name).engine
