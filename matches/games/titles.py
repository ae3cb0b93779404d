"""What each game is called on the site (its adapter's `site_title`) and which note explains its
own columns, picked by the game's machine name so templates never branch on it (the lead may
fold COLUMN_NOTES into the per-game adapter)."""
from __future__ import annotations

from matches.games.registry import adapter_named, default_game

#: A short template explaining the game's own columns (absent: nothing to explain).
COLUMN_NOTES = {"giog": "games/giog/_columns_note.html"}


def site_title(event=None, game: str | None = None) -> str:
    game = getattr(event, "game", None) or game or default_game()
    try:
        return adapter_named(game).site_title()
    except KeyError:
        return adapter_named(default_game()).site_title()


def column_note(event) -> str | None:
    return COLUMN_NOTES.get(getattr(event, "game", None))
