"""Round names for the pages: a knockout round is named by the unions left (决赛 Final …)."""

from django import template

from matches.draw.bracket import stage_label

register = template.Library()


@register.filter
def stage_of(round_) -> str:
    """The round's stage as the page says it: 四分之一决赛 / Quarter-final, or the stage's name."""
    return stage_label(round_)
