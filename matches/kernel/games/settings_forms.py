"""Each game's settings form, from its adapter (`GameAdapter.settings_form`).

What the wizard and the rules page ask of it, whatever the game: `from_values(values, data)`
(the wizard's stored values), `for_event(event, data, frozen)`, `from_preset(preset)` (refilled
from a preset the organiser picked; a game without presets ignores it), `values()` (what
`Event.game_settings` stores), and for the page `groups()`, `preset_rows()` and `diff()`. The
shared views never look inside the values: they are the game's document."""

from __future__ import annotations

from django.utils.module_loading import import_string

from matches.kernel.games.registry import adapter_named


def settings_form_class(game: str):
    return import_string(adapter_named(game).settings_form)
