"""The readable score sheet: one A4 per table, made to be photographed and read back
(`matches/paper/`): a QR in each corner (whose sheet, and where its corners are), the seats
and their players, boxes for the signers' initials, and the game's own part, one box per digit
(the game's `score_sheet` draws it: Gou Ji's finishing order, points, burns and event strip,
Giog's pieces won and beheadings). It stays a paper sheet: a pen fills it, and the table phone
or the desk types it as before when no photo is taken. docs/scoresheets.md."""

from __future__ import annotations

import io
from typing import Any

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from matches.draw.printing import FONT, HEIGHT, _canvas, _qr, _seats
from matches.models import Round
from matches.paper import layout
from matches.paper.layout import SheetKey

#: the boxes' lines: a light grey the reader's threshold drops, dark enough to write into
BOX_GREY = 0.62


def sheet_key(round_: Round, table, seats: int) -> SheetKey:
    event = round_.event
    return SheetKey.of_table(
        event.pk,
        round_.number,
        table.number,
        seats,
        event.deals_per_match,
        event.tie_break_deals or 0,
        event.adapter.score_sheet.magic,
    )


def _at(x: float, y: float) -> tuple[float, float]:
    """Layout millimetres from the top-left → reportlab points from the bottom-left."""
    return x * mm, HEIGHT - y * mm


class Pen:
    """What a game's sheet draws its part of the page with (`score_sheet.draw`), in layout
    millimetres: black text, and digit boxes in the grey the reader's threshold drops."""

    def __init__(self, pdf: canvas.Canvas):
        self.pdf = pdf

    def text(self, x: float, y: float, text: str, size: float) -> None:
        self.pdf.setFillColorRGB(0, 0, 0)
        self.pdf.setFont(FONT, size)
        self.pdf.drawString(*_at(x, y), text)

    def centred(self, x: float, y: float, text: str, size: float) -> None:
        self.pdf.setFillColorRGB(0, 0, 0)
        self.pdf.setFont(FONT, size)
        self.pdf.drawCentredString(*_at(x, y), text)

    def box(self, x: float, y: float) -> None:
        self.pdf.setStrokeColorRGB(BOX_GREY, BOX_GREY, BOX_GREY)
        self.pdf.setLineWidth(0.6)
        left, top = _at(x, y)
        self.pdf.rect(left, top - layout.BOX * mm, layout.BOX * mm, layout.BOX * mm, stroke=1)
        self.pdf.setStrokeColorRGB(0, 0, 0)
        self.pdf.setLineWidth(1)


def score_sheets_pdf(round_: Round) -> bytes:
    """One page per played table, in table order, as the event's game draws its sheet."""
    event = round_.event
    buffer = io.BytesIO()
    pdf = _canvas(buffer, f"{event.name} {round_.number} " + _("记分表"))
    sheet = event.adapter.score_sheet
    if sheet is None:
        # A game with no readable sheet: say so rather than print nothing.
        pdf.setFont(FONT, 14)
        pdf.drawString(*_at(20, 30), _("本赛事的牌桌没有可识别的记分表"))
        pdf.showPage()
        pdf.save()
        return buffer.getvalue()
    seats = _seats(round_)
    matches = round_.matches.played().with_sides().select_related("table")
    pages = 0
    for match in matches.order_by("table__number"):
        table = match.table
        key = sheet_key(round_, table, sheet.seats(event, table))
        table_seats = sorted(seats.get(table.pk, []), key=lambda s: s.seat)
        lines = [sheet.seat_line(seat) for seat in table_seats]
        subtitle = f"{event.name} · " + _("第 %(n)s 轮") % {"n": round_.number}
        _page(pdf, sheet, key, subtitle, lines, sheet.signers(match), event.deals_per_match)
        pages += 1
    if not pages:
        pdf.setFont(FONT, 14)
        pdf.drawString(*_at(20, 30), _("本轮没有牌桌"))
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def blank_sheet_pdf(key: SheetKey, deals_per_match: int, sheet: Any) -> bytes:
    """One sheet for `key` with no names on it, as the game's `sheet` draws it: what the test
    photos are made from."""
    buffer = io.BytesIO()
    pdf = _canvas(buffer, _("记分表"))
    lines = sheet.blank_seat_lines(key)
    _page(pdf, sheet, key, "", lines, sheet.signers(None), deals_per_match)
    pdf.save()
    return buffer.getvalue()


def _page(
    pdf: canvas.Canvas,
    sheet: Any,
    key: SheetKey,
    subtitle: str,
    seat_lines: list[str],
    signers: list[str],
    deals_per_match: int,
) -> None:
    size = layout.CORNER_QR
    for corner, (cx, cy) in enumerate(layout.CORNER_CENTRES):
        left, top = _at(cx - size / 2, cy - size / 2)
        _qr(pdf, key.text(corner), left, top - size * mm, size * mm)
    pdf.setFillColorRGB(0, 0, 0)
    pdf.setFont(FONT, 18)
    pdf.drawString(*_at(36, 19), _("第 %(n)s 桌") % {"n": key.table} + " · " + _("记分表"))
    pdf.setFont(FONT, 10)
    while subtitle and pdf.stringWidth(subtitle, FONT, 10) > 72 * mm:  # clear of the initials
        subtitle = subtitle[:-1]
    pdf.drawString(*_at(36, 26), subtitle)
    pdf.setFont(FONT, 9)
    # The seats with their players, two columns: the referee writes seat numbers, not names.
    per_column = (len(seat_lines) + 1) // 2
    for k, line in enumerate(seat_lines):
        column, row = divmod(k, per_column)
        pdf.drawString(*_at(14 + column * 92, 38 + row * 5), line)
    sheet.draw(Pen(pdf), key, deals_per_match)
    # The signers' initials (the captains', the referee's): not read by the machine, kept on
    # the photo; at the top between the title and the top-right code (the foot is the game's).
    for k, who in enumerate(signers):
        x = 112 + k * 22.5
        pdf.setFillColorRGB(0, 0, 0)
        pdf.setFont(FONT, 6.5)
        pdf.drawString(*_at(x, 15.5), who)
        left, top = _at(x, 17)
        pdf.rect(left, top - 12 * mm, 20.5 * mm, 12 * mm, stroke=1, fill=0)
    pdf.showPage()
