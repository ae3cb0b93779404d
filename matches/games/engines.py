"""The rules engines the system knows, by machine name. Pure Python, like the engines: the
command line and the stateless rules API use it without a database."""

from __future__ import annotations

from importlib import import_module

from matches.games.base import Game

#: game name -> "module:Class" of its engine (the `Game` interface of `matches/games/base.py`)
ENGINES = {
    "gouji": "matches.games.gouji.engine.game:GoujiGame",
    "giog": "matches.games.giog.engine.game:GiogGame",
}


def register_engine(name: str, path: str) -> None:
    ENGINES[name] = path


def get_game(name: str) -> Game:
    """Return the engine of a game; KeyError for an unknown name."""
    module, _, cls = ENGINES[name].partition(":")
    return getattr(import_module(module), cls)()
