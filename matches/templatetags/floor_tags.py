"""The hall's floor on other pages (issue 26), each placed with one line so the pages that
carry them (the dashboard, the results queue, the table's phone) need no view change."""

from __future__ import annotations

from django import template

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
