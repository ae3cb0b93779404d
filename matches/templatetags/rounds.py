"""Small filters for round pages: forfeits and byes said plainly."""

from django import template

register = template.Library()


@register.filter
def forfeited_by(match, union_id) -> bool:
    """Whether `union_id` is the union (or one of the two) that forfeited `match`."""
    return bool(match.forfeit) and match.forfeited_by(int(union_id))
