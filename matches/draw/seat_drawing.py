"""The table card's drawing of the seats around the table: six or eight boxes on an oval, seat 1
nearest the reader and the numbers going counterclockwise as play passes (R1, R44), each box
with its seat, side, player and union; head rivals (the game's `head_rival_seat`) sit opposite
each other and a dashed line joins each pair across the table. A referee or a late player sees
where to sit without reading the list."""

from __future__ import annotations

import math

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from matches.models.round import SIDE_A

#: The oval the seat boxes sit on and the table inside it, in mm from its centre.
SEATS_RX, SEATS_RY = 58, 24
TABLE_RX, TABLE_RY = 22, 10
BOX_W, BOX_H = 42, 13
#: Height of the boxes' oval at eight seats (the larger), boxes included.
OVAL = (2 * (SEATS_RY + 2) + BOX_H) * mm


def _centres(count: int, cx: float, cy: float) -> dict[int, tuple[float, float]]:
    """Seat -> the centre of its box: seat 1 at the bottom, then counterclockwise."""
    rx, ry = (SEATS_RX + (4 if count > 6 else 0)) * mm, (SEATS_RY + (2 if count > 6 else 0)) * mm
    centres = {}
    for k in range(count):
        angle = math.radians(-90 + k * 360 / count)
        centres[k + 1] = (cx + rx * math.cos(angle), cy + ry * math.sin(angle))
    return centres


def draw_seats(
    pdf: canvas.Canvas, font: str, event, seats: list, table_number: int, top: float, width: float
) -> float:
    """Draw the seats of one table below `top`, centred on a page `width` wide; returns the y
    under the drawing."""
    count = len(seats)
    if count < 2:
        return top
    cx, cy = width / 2, top - 4 * mm - OVAL / 2
    centres = _centres(count, cx, cy)
    # Head rivals first, under the boxes: a dashed line from box to box across the table.
    pdf.setDash(2, 2)
    pdf.setStrokeColorRGB(0.55, 0.55, 0.55)
    adapter = event.adapter
    for seat in sorted(centres):
        rival = adapter.head_rival_seat(seat, count)
        if rival and rival > seat and rival in centres:
            pdf.line(*centres[seat], *centres[rival])
    pdf.setDash()
    pdf.setStrokeColorRGB(0, 0, 0)
    pdf.setFillColorRGB(0.93, 0.93, 0.93)
    pdf.ellipse(
        cx - TABLE_RX * mm, cy - TABLE_RY * mm, cx + TABLE_RX * mm, cy + TABLE_RY * mm, fill=1
    )
    pdf.setFillColorRGB(0, 0, 0)
    pdf.setFont(font, 12)
    pdf.drawCentredString(cx, cy - 1.5 * mm, _("第 %(n)s 桌") % {"n": table_number})
    for seat in seats:
        x, y = centres.get(seat.seat, (cx, cy))
        a_side = seat.side == SIDE_A
        # Union A's boxes drawn heavier: the two unions tell apart at a glance, even in grey.
        pdf.setLineWidth(1.6 if a_side else 0.6)
        pdf.setFillColorRGB(1, 1, 1)
        pdf.roundRect(
            x - BOX_W * mm / 2, y - BOX_H * mm / 2, BOX_W * mm, BOX_H * mm, 2 * mm, fill=1
        )
        pdf.setLineWidth(1)
        pdf.setFillColorRGB(0, 0, 0)
        pdf.setFont(font, 11)
        side = "A" if a_side else "B"
        name = _fit(pdf, font, f"{seat.seat} · {side} · {seat.player.name}", 11, (BOX_W - 3) * mm)
        pdf.drawCentredString(x, y + 0.8 * mm, name)
        pdf.setFont(font, 8)
        union = seat.union.name if seat.union_id else ""
        pdf.drawCentredString(x, y - 4 * mm, _fit(pdf, font, union, 8, (BOX_W - 3) * mm))
    pdf.setFont(font, 8)
    legend = top - 4 * mm - OVAL - 5 * mm
    pdf.drawCentredString(cx, legend, _("座位按出牌顺序逆时针排列；虚线连起对头；粗框为 A 方。"))
    return legend - 4 * mm


def _fit(pdf: canvas.Canvas, font: str, text: str, size: float, room: float) -> str:
    """`text` cut with "…" to fit `room` points wide (a long union name stays in its box)."""
    if pdf.stringWidth(text, font, size) <= room:
        return text
    while text and pdf.stringWidth(text + "…", font, size) > room:
        text = text[:-1]
    return text + "…"
