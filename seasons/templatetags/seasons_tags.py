from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    return mapping.get(key) if hasattr(mapping, "get") else None


@register.simple_tag
def merge_requests_waiting(user, event_id=None):
    """The open merge requests waiting for `user`'s answer (for `event_id` only, when given):
    the events list and an event's dashboard tell the organiser of them (seasons/permissions.py)."""
    from seasons.permissions import requests_waiting_for

    return requests_waiting_for(user, event_id)
