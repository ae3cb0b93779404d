"""Round names for the pages: a knockout round is named by the unions left (决赛 Final …)."""

from django import template

from matches.draw.bracket import knockout_name, stage_label

register = template.Library()


@register.filter
def stage_of(round_) -> str:
    """The round's stage as the page says it: 1/4决赛 / Quarter-final, or the stage's name."""
    return stage_label(round_)


@register.filter
def knockout_of(round_) -> str:
    """A knockout round's name (1/4决赛 / Quarter-final), "" for a Swiss or round-robin round."""
    return knockout_name(round_)
