"""Each game's settings form, picked by the game's machine name (shared code never branches on
it). The lead may move this into the per-game adapter (matches/games/adapters.py)."""

from __future__ import annotations

from importlib import import_module

SETTINGS_FORMS = {
    "gouji": "matches.games.gouji.settings_form.RulesForm",
    "giog": "matches.games.giog.settings_form.GiogSettingsForm",
}


def settings_form_class(game: str):
    module, _dot, name = SETTINGS_FORMS[game].rpartition(".")
    return getattr(import_module(module), name)
