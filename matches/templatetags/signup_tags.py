"""Registration's template filters: `{{ fen|yuan }}` writes integer fen as the pages write
money (6000 → 60, 6050 → 60.50); `{{ contact|masked }}` shows a registrant's contact to anyone
but the event's organisers (138****1234)."""

from django import template

from matches.events.fees import yuan as _yuan
from matches.events.privacy import mask

register = template.Library()


@register.filter
def yuan(fen) -> str:
    return _yuan(int(fen or 0))


@register.filter
def masked(contact: str) -> str:
    return mask(contact or "")
