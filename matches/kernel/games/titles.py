"""What each game is called in the site's title and which note explains its own columns, from
the game's adapter, so templates never branch on the game."""

from __future__ import annotations

from matches.kernel.games.registry import adapter_named, default_game


def site_title(event=None, game: str | None = None) -> str:
    return adapter_named(getattr(event, "game", None) or game or default_game()).site_title


def column_note(event) -> str | None:
    game = getattr(event, "game", None)
    return adapter_named(game).column_note_template if game else None
