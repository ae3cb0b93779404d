"""{{ user|organises:event }}: whether the page shows the organiser's own links (settings, staff),
which an assistant would only meet as a refusal (matches/permissions.py decides)."""

from __future__ import annotations

from django import template

from matches.permissions import can_manage_event

register = template.Library()


@register.filter
def organises(user, event) -> bool:
    return can_manage_event(user, event)
