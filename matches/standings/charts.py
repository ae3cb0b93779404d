"""A union's rank across rounds as inline SVG, drawn on the server (no script, no CDN)."""

from __future__ import annotations

from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

WIDTH, HEIGHT, PAD = 320, 180, 30


def rank_chart_svg(history: list[dict]) -> str:
    """`history`: [{"round": n, "rank": r, "of": total}, ...] in round order. Rank 1 is on top."""
    if not history:
        return ""
    worst = max(max(h["of"] for h in history), 2)
    rounds = [h["round"] for h in history]
    first, last = min(rounds), max(rounds)
    span = max(last - first, 1)

    def x(r):
        return PAD + (r - first) * (WIDTH - 2 * PAD) / span

    def y(rank):
        return PAD + (rank - 1) * (HEIGHT - 2 * PAD) / (worst - 1)

    points = " ".join(f"{x(h['round']):.1f},{y(h['rank']):.1f}" for h in history)
    title = escape(_("各轮名次"))
    parts = [
        f'<svg class="rank-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{title}" '
        f'xmlns="http://www.w3.org/2000/svg">',
        f"<title>{title}</title>",
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" stroke="#999"/>',
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" stroke="#999"/>',
        f'<text x="4" y="{PAD + 4}" font-size="11">1</text>',
        f'<text x="4" y="{HEIGHT - PAD + 4}" font-size="11">{worst}</text>',
    ]
    if len(history) > 1:
        parts.append(
            f'<polyline fill="none" stroke="#b3261e" stroke-width="2.5" points="{points}"/>'
        )
    for h in history:
        cx, cy = x(h["round"]), y(h["rank"])
        parts.append(
            f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="#b3261e">'
            f"<title>{escape(_('第 %(n)s 轮：第 %(r)s 名') % {'n': h['round'], 'r': h['rank']})}</title></circle>"
        )
        parts.append(
            f'<text x="{cx:.1f}" y="{HEIGHT - PAD + 16}" font-size="11" text-anchor="middle">{h["round"]}</text>'
        )
        parts.append(f'<text x="{cx + 6:.1f}" y="{cy - 6:.1f}" font-size="11">{h["rank"]}</text>')
    parts.append("</svg>")
    return mark_safe("".join(parts))
