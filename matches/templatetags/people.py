"""What a page may offer the person reading it: the event's tabs an assistant cannot use are
not shown (the views refuse them anyway, through `matches.permissions`)."""

from __future__ import annotations

from django import template

from matches.permissions import can_manage_event

register = template.Library()


@register.filter
def managed_by(event, user) -> bool:
    """`{% if event|managed_by:user %}`: the user is one of the event's organisers (or an
    admin), who alone change its rules, settings and staff."""
    return event is not None and can_manage_event(user, event)
