"""Results in words for any game: a reported deal as its game shows it, a deal's name, and a
standings row's value by the column keys its game gives."""

from __future__ import annotations

from django import template
from django.template.loader import render_to_string

from matches import selectors
from matches.kernel.games.registry import adapter_for
from matches.results import deals

register = template.Library()


@register.simple_tag(takes_context=True)
def deal_summary(context, report, seat_names):
    """A reported result in words, as its game shows it (the game's result form says how).
    The page's `event` names the game: a table's history lists many reports, and following
    each one's deal, match and round to the event would cost four queries a report."""
    event = context.get("event") or report.deal.match.round.event
    form = adapter_for(event).result_form
    context = form.summary_context(report, seat_names or {})
    # What a deal owes goes to the next deal of its match: after the last, to nobody.
    context["last_deal"] = deals.is_last_deal(report.deal, event)
    return render_to_string(form.templates["summary"], context)


@register.simple_tag(takes_context=True)
def deal_line(context, report, seat_names) -> str:
    """A reported result in one line (the finishing order, the scores), as its game says it:
    shown right above the PIN boxes, so whoever confirms sees what they confirm. A "·" stays at
    the end of its part (a no-break space), never at the start of a wrapped line. "" for a game
    whose form has no `summary_line`."""
    event = context.get("event") or report.deal.match.round.event
    line = getattr(adapter_for(event).result_form, "summary_line", None)
    parts = line(report, seat_names or {}) if line is not None else []
    return "\u00a0· ".join(parts)


@register.filter
def deal_name(number, event) -> str:
    """ "第 3 局" in Gou Ji, "第 3 手" in Giog: the event's game names its deals."""
    return adapter_for(event).deal_name(number)


@register.filter
def field(row: dict, key: str):
    """A standings row's value by column key (the columns come from the event's game)."""
    return row.get(key, "")


@register.filter
def state_word(state: str) -> str:
    """A deal's, report's or table's state in the one wording every page uses
    (`selectors.STATE_WORDS`)."""
    return selectors.state_label(state)
