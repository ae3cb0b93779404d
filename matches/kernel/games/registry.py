"""Which games the tournament side knows: game name -> its adapter (`adapter.py`), which names
the game's engine too. A new game is one line here and its folder `matches/games/<game>/`.

Shared code asks `adapter_for(event)` and never compares a game's name; what it reads of a
game by name only is here too: its engine (`get_game`, pure Python: the command line and the
stateless rules API run it without a database), its settings form (`settings_form_class`;
what the wizard and the rules page ask of it: `GameAdapter.settings_form`), the site's title
and the note on its own columns (`site_title`, `column_note`: templates never branch on the
game). Adapters are named by import path and loaded on first use, so this module imports no
game (and no model).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from matches.kernel.games.adapter import Game

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


def get_game(name: str) -> Game:
    """The rules engine of a game; KeyError for an unknown name."""
    return adapter_named(name).engine


def settings_form_class(game: str):
    """The game's settings form (`GameAdapter.settings_form`)."""
    return import_string(adapter_named(game).settings_form)


def site_title(event=None, game: str | None = None) -> str:
    """What the game is called in the site's title (the default game's without either)."""
    return adapter_named(getattr(event, "game", None) or game or default_game()).site_title


def column_note(event) -> str | None:
    """The template that explains the game's own columns, if it has one."""
    game = getattr(event, "game", None)
    return adapter_named(game).column_note_template if game else None
