"""A player's rating across rated rounds as inline SVG, drawn on the server (no script, no
inline style: the site's CSP holds; colours are presentation attributes)."""

from __future__ import annotations

import unicodedata

from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

WIDTH, HEIGHT = 360, 196
LEFT, RIGHT, TOP, BOTTOM = 34, 10, 24, 36  # the plot's margins (y values left, events below)
FONT = 11  # px of the viewBox; the chart is drawn at about 1:1 on a phone (max 30rem wide)
ELLIPSIS = "…"


def text_width(text: str) -> float:
    """An upper estimate of `text`'s width at FONT px: wide (CJK) characters are 1 em, others
    0.62 em (wider than the average Latin letter, so an estimate that fits does fit)."""
    return sum(FONT * (1.0 if unicodedata.east_asian_width(c) in "WF" else 0.62) for c in text)


def fit(text: str, room: float) -> str:
    """`text` cut (with an ellipsis) to fit `room` px; "" when not even one character fits."""
    if text_width(text) <= room:
        return text
    for end in range(len(text) - 1, 0, -1):
        cut = text[:end].rstrip() + ELLIPSIS
        if text_width(cut) <= room:
            return cut
    return ""


def _segments(steps: list[dict]) -> list[tuple[int, int, str]]:
    """The runs of consecutive steps of one event: (first index, last index + 1, name). An
    event's rounds are contiguous in the rating's order (by the event's start date, its id)."""
    runs: list[tuple[int, int, str]] = []
    for k, step in enumerate(steps):
        key = step.get("event_id", step["event"])
        if runs and runs[-1][2] == key:
            runs[-1] = (runs[-1][0], k + 1, key)
        else:
            runs.append((k, k + 1, key))
    return [(a, b, steps[a]["event"]) for a, b, _key in runs]


def rating_chart_svg(steps: list[dict]) -> str:
    """`steps`: [{"rating": r, "event": name, "event_id": id, "number": n}, ...] in the
    rating's order. Each point is an image whose name (its <title>) is its event, round and
    rating after it; the x axis is cut into the events, each labelled with its name (cut to
    fit its width; the full name is the label's <title>)."""
    if not steps:
        return ""
    values = [s["rating"] for s in steps]
    low, high = min(values + [0.0]), max(values + [1.0])
    span = max(high - low, 1.0)
    axis = HEIGHT - BOTTOM
    slot = (WIDTH - LEFT - RIGHT) / len(steps)  # each round its own slot: events are runs

    def x(k: float) -> float:
        return LEFT + k * slot

    def y(v: float) -> float:
        return axis - (v - low) * (axis - TOP) / span

    title = escape(_("等级分走势"))
    # role="group", not "img": an image's children are presentational, and the points' names
    # must reach a screen reader.
    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="group" '
        f'aria-label="{title}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{title}</title>",
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{axis}" stroke="#999"/>',
        f'<line x1="{LEFT}" y1="{axis}" x2="{WIDTH - RIGHT}" y2="{axis}" stroke="#999"/>',
        f'<text x="2" y="{TOP + 4}" font-size="{FONT}" aria-hidden="true">{high:.1f}</text>',
        f'<text x="2" y="{axis + 4}" font-size="{FONT}" aria-hidden="true">{low:.1f}</text>',
    ]
    for first, end, name in _segments(steps):
        if first:  # a boundary between two events
            parts.append(
                f'<line class="event-boundary" x1="{x(first):.1f}" y1="{TOP}" '
                f'x2="{x(first):.1f}" y2="{axis + 6}" stroke="#bbb" stroke-dasharray="3 3"/>'
            )
        label = fit(name, (end - first) * slot - 6)
        if label:
            parts.append(
                f'<text class="event-label" x="{x((first + end) / 2):.1f}" y="{axis + 15}" '
                f'font-size="{FONT}" text-anchor="middle"><title>{escape(name)}</title>'
                f"{escape(label)}</text>"
            )
    if len(steps) > 1:
        points = " ".join(f"{x(k + 0.5):.1f},{y(v):.1f}" for k, v in enumerate(values))
        parts.append(
            f'<polyline fill="none" stroke="#1d5fa8" stroke-width="2.5" points="{points}"/>'
        )
    for k, step in enumerate(steps):
        label = escape(
            _("%(event)s 第 %(n)s 轮：%(r)s")
            % {"event": step["event"], "n": step["number"], "r": f"{step['rating']:.1f}"}
        )
        parts.append(
            f'<circle class="rating-point" role="img" cx="{x(k + 0.5):.1f}" '
            f'cy="{y(values[k]):.1f}" r="3.5" fill="#1d5fa8"><title>{label}</title></circle>'
        )
    rated = escape(_("已计分轮次：%(n)s") % {"n": len(steps)})
    parts.append(
        f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 4}" font-size="{FONT}" text-anchor="end">'
        f"{rated}</text>"
    )
    parts.append("</svg>")
    return mark_safe("".join(parts))
