"""Each game's settings form, from its adapter (`GameAdapter.settings_form`)."""

from __future__ import annotations

from django.utils.module_loading import import_string

from matches.games.registry import adapter_named


def settings_form_class(game: str):
    return import_string(adapter_named(game).settings_form)
