"""{% site_title event %}, {% column_note event %}, {% rules_line event %}: the game's own name,
column notes and rule set in one line."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string

from matches.kernel.games import registry

register = template.Library()


@register.simple_tag
def site_title(event=None, game=None):
    """The site's title for the event's game (or for `game` while an event is being made)."""
    return registry.site_title(event, game)


@register.simple_tag(takes_context=True)
def column_note(context, event=None):
    name = registry.column_note(event)
    return render_to_string(name, {"event": event}) if name else ""


@register.simple_tag
def side_seats(event, side: str) -> str:
    """The seat numbers of side A or B at a table of the event's game, "1-3-5" or "1-2-3-4"
    (the game's `table_shape`)."""
    shape = event.adapter.table_shape(event)
    return "-".join(str(seat) for seat in shape.seats_of(side))


@register.simple_tag
def strings_label(event) -> str:
    """The union standings' string column: 串三户, or 串四户 at an eight-seat table."""
    return event.adapter.strings_of_three_label(event)


@register.inclusion_tag("manage/_rules_line.html")
def rules_line(event):
    """The event's rule set in one line (the game's `rules_line`), linked to its rules tab."""
    return {"event": event, "line": event.adapter.rules_line(event)}
