"""What each game is called in the site's title and which note explains its own columns, picked
by the game's machine name so templates never branch on it (the lead may fold both into the
per-game adapter)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from matches.games.registry import default_game

SITE_TITLES = {"gouji": _("够级赛事"), "giog": _("Giog 赛事")}
#: A short template explaining the game's own columns (absent: nothing to explain).
COLUMN_NOTES = {"giog": "games/giog/_columns_note.html"}


def site_title(event=None, game: str | None = None) -> str:
    game = getattr(event, "game", None) or game or default_game()
    return SITE_TITLES.get(game) or SITE_TITLES[default_game()]


def column_note(event) -> str | None:
    return COLUMN_NOTES.get(getattr(event, "game", None))
