"""A player's rating across rated rounds as inline SVG, drawn on the server (no script)."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

WIDTH, HEIGHT, PAD = 360, 180, 34


def rating_chart_svg(steps: list[dict]) -> str:
    """`steps`: [{"rating": r, "event": name, "number": n}, ...] in the rating's order."""
    if not steps:
        return ""
    values = [s["rating"] for s in steps]
    low, high = min(values + [0.0]), max(values + [1.0])
    span = max(high - low, 1.0)
    count = max(len(steps) - 1, 1)

    def x(k: int) -> float:
        return PAD + k * (WIDTH - 2 * PAD) / count

    def y(v: float) -> float:
        return HEIGHT - PAD - (v - low) * (HEIGHT - 2 * PAD) / span

    title = escape(_("等级分走势"))
    parts = [
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{title}" xmlns="http://www.w3.org/2000/svg">',
        f"<title>{title}</title>",
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" stroke="#999"/>',
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" stroke="#999"/>',
        f'<text x="2" y="{PAD + 4}" font-size="11">{high:.1f}</text>',
        f'<text x="2" y="{HEIGHT - PAD + 4}" font-size="11">{low:.1f}</text>',
    ]
    if len(steps) > 1:
        points = " ".join(f"{x(k):.1f},{y(v):.1f}" for k, v in enumerate(values))
        parts.append(
            f'<polyline fill="none" stroke="#1d5fa8" stroke-width="2.5" points="{points}"/>'
        )
    for k, step in enumerate(steps):
        label = escape(
            _("%(event)s 第 %(n)s 轮：%(r)s")
            % {"event": step["event"], "n": step["number"], "r": f"{step['rating']:.1f}"}
        )
        parts.append(
            f'<circle cx="{x(k):.1f}" cy="{y(values[k]):.1f}" r="3.5" fill="#1d5fa8">'
            f"<title>{label}</title></circle>"
        )
    rated = escape(_("已计分轮次：%(n)s") % {"n": len(steps)})
    parts.append(
        f'<text x="{WIDTH - PAD}" y="{HEIGHT - PAD + 16}" font-size="11" text-anchor="end">'
        f"{rated}</text>"
    )
    parts.append("</svg>")
    return mark_safe("".join(parts))
