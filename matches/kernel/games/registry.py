"""Which games the tournament side knows: game name -> its adapter (`adapter.py`), which names
the game's engine too. A new game is one line here and its folder `matches/games/<game>/`.

Shared code asks `adapter_for(event)` and never compares a game's name. Adapters are named by
import path and loaded on first use, so this module imports no game (and no model).
"""

from __future__ import annotations

from functools import cache

from django.utils.module_loading import import_string

#: game name -> dotted path of its adapter class; the first is the default for new events.
ADAPTERS = {
    "gouji": "matches.games.gouji.adapter.GoujiAdapter",
    "giog": "matches.games.giog.adapter.GiogAdapter",
}


def register_game(name: str, adapter_path: str) -> None:
    """Add a game (the tests' third game); its adapter names its engine."""
    ADAPTERS[name] = adapter_path
    adapter_named.cache_clear()


@cache
def adapter_named(name: str):
    """The adapter of a game; KeyError for a game this site does not know."""
    return import_string(ADAPTERS[name])()


def adapter_for(event):
    return adapter_named(event.game)


def default_game() -> str:
    return next(iter(ADAPTERS))


def game_choices() -> list[tuple[str, str]]:
    """(name, label) of every game, for the event form's choices."""
    return [(name, adapter_named(name).label) for name in ADAPTERS]
