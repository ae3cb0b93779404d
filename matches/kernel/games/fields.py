"""A small helper the games' settings forms share."""

from __future__ import annotations

from typing import Any

from django import forms


def mark(field: forms.Field, **marks: Any) -> forms.Field:
    """`field` with the marks the settings templates read (`rule_id`, `section`, `flag`):
    Django's fields carry no such attributes of their own."""
    for name, value in marks.items():
        setattr(field, name, value)
    return field
