"""The hall's floor on other pages, each placed with one line so the pages that
carry them (the dashboard, the results queue, the table's phone) need no view change."""

from __future__ import annotations

from django import template

from matches.draw import clock
from matches.events import calls, zones

register = template.Library()


@register.inclusion_tag("manage/floor/_coverage_count.html")
def referee_coverage(event):
    """The dashboard's count of the current round's tables without a referee."""
    round_ = zones.current_round(event)
    return {"event": event, "coverage": zones.coverage(round_) if round_ else None}


@register.inclusion_tag("manage/floor/_calls.html", takes_context=True)
def open_calls(context, event, round_):
    """The results queue's list of tables calling a referee, each with its acknowledge button."""
    return {
        "event": event,
        "calls": calls.open_calls_of_round(round_) if round_ else [],
        "csrf_token": context.get("csrf_token"),
    }


@register.simple_tag
def open_call_of(table):
    """The table's open call for a referee, or None."""
    return calls.open_call(table)


@register.simple_tag
def answered_call_of(table):
    """The table's call a referee answered a moment ago, or None."""
    return calls.answered_call(table)


def clock_text(seconds: int | None) -> str:
    """The time left as the clock shows it: 1:05:09, 45:00, 0:09."""
    if seconds is None:
        return ""
    hours, rest = divmod(max(0, int(seconds)), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@register.inclusion_tag("public/_clock.html")
def round_clock(round_, size: str = ""):
    """The round's clock (the projector, the table phone, the round and close pages): the time
    left served as seconds and counted down in the browser (`static/js/clock.js`), which asks
    the public clock URL again every 30 seconds for a pause or an extension."""
    if round_ is None or getattr(round_, "pk", None) is None:
        return {"clock": None}
    state = clock.state(clock.clock_of(round_))
    if state["state"] == "off":
        return {"clock": None}
    return {
        "clock": state,
        "text": clock_text(state["seconds_left"]),
        "round": round_,
        "size": size,
    }
