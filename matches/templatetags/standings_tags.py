"""The standings on a phone: which of a game's player columns a 390 px screen shows."""

from __future__ import annotations

from django import template

register = template.Library()


@register.simple_tag
def phone_columns(columns):
    """(key, title, numeric, more) for each column: on a phone in portrait only the first
    numeric column stays (rank and name always do); the others are "more", shown on tap or in
    landscape (`static/css/standings.css`)."""
    first_numeric = next((key for key, _title, numeric in columns if numeric), None)
    return [(key, title, numeric, key != first_numeric) for key, title, numeric in columns]
