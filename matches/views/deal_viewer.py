"""The deal viewer page, shared by its three audiences: a play log step by step.

The views that decide who may see which report live with their audience (`public.py`,
`referee.py`, `organiser/results.py`); this module renders the page. The game's adapter gives
the steps (`deal_viewer`), already worded in the page's language; the page shows one step
(`?step=N`, which works without JavaScript) and hands every step to `static/js/deal_viewer.js`,
which steps forward and back by buttons and keys (←/→, Home/End) without asking the server, and
plays the steps by itself (play/pause, three speeds; the space bar toggles it).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from matches.kernel.games.registry import adapter_for


def step_param(request, count: int, default: int = 0) -> int:
    """`?step=N` within 0…count-1 (ASCII digits only); `default` otherwise."""
    value = request.GET.get("step", "")
    if value.isascii() and value.isdigit() and len(value) <= 5:
        return min(int(value), max(count - 1, 0))
    return default


def words() -> dict:
    """The page's fixed words the script needs when it draws a step."""
    return {
        "pos": _("第 %(n)s 步，共 %(total)s 步"),
        "start": _("开局：各家手中的牌"),
        "empty": _("桌面无牌"),
        "turn": _("轮到"),
        "marked": _("这一步与报告不符"),
        "play": _("▶ 自动播放"),
        "pause": _("⏸ 暂停"),
    }


def render_viewer(
    request,
    report,
    seat_names: dict,
    *,
    base: str = "base.html",
    back: str,
    title: str,
    against=None,
    choices=(),
):
    """The viewer page of `report`'s play log, compared with `against`'s summary (by default
    the report's own). 404 when the game has no viewer or the log cannot be read."""
    event = report.deal.match.round.event
    adapter = adapter_for(event)
    other = against or report
    viewer = adapter.deal_viewer(event, report.play_log, other.summary, seat_names)
    if viewer is None or not viewer["steps"]:
        raise Http404("no steps to show")
    steps = viewer["steps"]
    marked = viewer["disagreement"]["step"] if viewer["disagreement"] else None
    current = step_param(request, len(steps), default=marked or 0)
    last = len(steps) - 1
    return render(
        request,
        "viewer/deal.html",
        {
            "event": event,
            "base_template": base,
            "report": report,
            "against": other,
            "choices": choices,
            "viewer": viewer,
            "step": steps[current],
            "current": current,
            "last": last,
            "previous": max(current - 1, 0),
            "next": min(current + 1, last),
            "marked": marked,
            "deal_name": adapter.deal_name(report.deal.number),
            "title": title,
            "back": back,
            "step_query": f"?against={other.pk}&step=" if other.pk != report.pk else "?step=",
            "words": {**words(), "table": viewer["table_title"]},
        },
    )
