"""The readable score sheet: one A4 per table of two unions, made to be photographed and read
back (`matches/paper/`): a QR in each corner (whose sheet, and where its corners are),
one box per digit (the finishing order as seat numbers, the seats that opened a point, the
burns), and boxes for the captains' initials. It stays a paper sheet: a pen fills it, and the
table phone or the desk types it as before when no photo is taken. docs/scoresheets.md."""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from matches.draw.printing import FONT, HEIGHT, _canvas, _qr, _seats, _shape
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
    )


def _at(x: float, y: float) -> tuple[float, float]:
    """Layout millimetres from the top-left → reportlab points from the bottom-left."""
    return x * mm, HEIGHT - y * mm


def _box(pdf: canvas.Canvas, x: float, y: float) -> None:
    left, top = _at(x, y)
    pdf.rect(left, top - layout.BOX * mm, layout.BOX * mm, layout.BOX * mm, stroke=1, fill=0)


def score_sheets_pdf(round_: Round) -> bytes:
    """One page per played table of two unions, in table order."""
    event = round_.event
    buffer = io.BytesIO()
    pdf = _canvas(buffer, f"{event.name} {round_.number} " + _("记分表"))
    if event.adapter.seats_own_tables:
        # Per-seat tables (Giog) have no sheet to read yet: say so rather than print nothing.
        pdf.setFont(FONT, 14)
        pdf.drawString(*_at(20, 30), _("本赛事的牌桌没有可识别的记分表"))
        pdf.showPage()
        pdf.save()
        return buffer.getvalue()
    shape = _shape(event)
    seats = _seats(round_)
    matches = round_.matches.played().with_sides().select_related("table")
    pages = 0
    for match in matches.order_by("table__number"):
        table = match.table
        key = sheet_key(round_, table, len(shape.seats))
        lines = []
        for seat in sorted(seats.get(table.pk, []), key=lambda s: s.seat):
            side = "A" if seat.side == "A" else "B"
            union = seat.union.name if seat.union_id else ""
            lines.append(f"{seat.seat} · {side} · {union} · {seat.player.name}"[:48])
        subtitle = f"{event.name} · " + _("第 %(n)s 轮") % {"n": round_.number}
        unions = (match.union_a.name, match.union_b.name)
        _page(pdf, key, subtitle, lines, unions, event.deals_per_match)
        pages += 1
    if not pages:
        pdf.setFont(FONT, 14)
        pdf.drawString(*_at(20, 30), _("本轮没有牌桌"))
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def blank_sheet_pdf(key: SheetKey, deals_per_match: int) -> bytes:
    """One sheet for `key` with no names on it: what the test photos are made from."""
    buffer = io.BytesIO()
    pdf = _canvas(buffer, _("记分表"))
    lines = [f"{seat} · {'AB'[(seat - 1) % 2]}" for seat in range(1, key.seats + 1)]
    _page(pdf, key, "", lines, ("", ""), deals_per_match)
    pdf.save()
    return buffer.getvalue()


#: each event column's heading, above its first line
EVENT_HEADINGS = {
    "s": gettext_lazy("闷：局号 · 闷人者→被闷者"),
    "r": gettext_lazy("革命：局号 · 座位"),
    "d": gettext_lazy("宣点：局号 · 座位 · 1明 2暗 3特"),
}


def _event_strip(pdf: canvas.Canvas, key: SheetKey) -> None:
    """The rare events, a line each (layout.EVENT_COLUMNS): the deal's row number in two
    boxes, then the kind's seats, in the rows' grey."""
    for kind, (x, _parts) in layout.EVENT_COLUMNS.items():
        pdf.setFillColorRGB(0, 0, 0)
        pdf.setFont(FONT, 6.5)
        pdf.drawString(*_at(x, layout.EVENT_TOP - 1.2), str(EVENT_HEADINGS[kind]))
        if kind == "s":
            for line in range(layout.EVENT_LINES):
                y = layout.EVENT_TOP + line * layout.EVENT_PITCH + layout.BOX / 2 + 1
                pdf.setFont(FONT, 9)
                pdf.drawCentredString(*_at(x + 34.5, y), "→")
    # A 0 is the digit the readers read worst: deals 1-9 are written in the units box alone.
    pdf.setFont(FONT, 6)
    pdf.drawString(*_at(12, layout.EVENT_TOP + 1.5), _("局号 1-9"))
    pdf.drawString(*_at(12, layout.EVENT_TOP + 4.0), _("十位不填"))
    pdf.setStrokeColorRGB(BOX_GREY, BOX_GREY, BOX_GREY)
    pdf.setLineWidth(0.6)
    for box in layout.event_boxes(key):
        _box(pdf, box.x, box.y)
    pdf.setStrokeColorRGB(0, 0, 0)
    pdf.setLineWidth(1)


def _page(
    pdf: canvas.Canvas,
    key: SheetKey,
    subtitle: str,
    seat_lines: list[str],
    unions: tuple[str, str],
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
    xs = layout.group_x(key.seats)
    pdf.setFont(FONT, 9)
    pdf.drawString(
        *_at(xs["finish"], layout.ROWS_TOP - 6), _("名次 1→%(n)s（填座位号）") % {"n": key.seats}
    )
    pdf.drawString(*_at(xs["points"], layout.ROWS_TOP - 6), _("开点（座位号）"))
    pdf.drawString(*_at(xs["burns"], layout.ROWS_TOP - 6), _("烧（烧者→被烧）"))
    pdf.setFont(FONT, 7)
    for place in range(key.seats):
        pdf.drawCentredString(
            *_at(xs["finish"] + place * layout.PITCH + layout.BOX / 2, layout.ROWS_TOP - 1.5),
            str(place + 1),
        )
    height = layout.row_height(key.rows)
    for row in range(1, key.rows + 1):
        top = layout.row_top(row, key.rows)
        pdf.setFillColorRGB(0, 0, 0)
        pdf.setFont(FONT, 11)
        label = str(row) if row <= deals_per_match else _("加%(n)s") % {"n": row - deals_per_match}
        pdf.drawString(*_at(12, top + height / 2 + 1.5), label)
        if row > deals_per_match:  # the number an event line gives this row
            pdf.setFont(FONT, 6)
            pdf.drawString(*_at(12, top + height / 2 - 2.5), f"({row})")
        box_y = top + (height - layout.BOX) / 2
        for pair in range(layout.BURN_PAIRS):
            burner, burned = layout.burn_x(key.seats, pair)
            pdf.setFont(FONT, 9)
            pdf.drawCentredString(*_at(burner + layout.BOX + 2, box_y + layout.BOX / 2 + 1), "→")
        pdf.setStrokeColorRGB(BOX_GREY, BOX_GREY, BOX_GREY)
        pdf.setLineWidth(0.6)
        for box in layout.boxes(key):
            if box.row == row:
                _box(pdf, box.x, box.y)
        pdf.setStrokeColorRGB(0, 0, 0)
        pdf.setLineWidth(1)
    _event_strip(pdf, key)
    # The captains' initials and the referee's: not read by the machine, kept on the photo;
    # at the top between the title and the top-right code (the foot holds the event strip).
    signers = (_("A 队长") + f" {unions[0]}"[:8], _("B 队长") + f" {unions[1]}"[:8], _("裁判"))
    for k, who in enumerate(signers):
        x = 112 + k * 22.5
        pdf.setFont(FONT, 6.5)
        pdf.drawString(*_at(x, 15.5), who)
        left, top = _at(x, 17)
        pdf.rect(left, top - 12 * mm, 20.5 * mm, 12 * mm, stroke=1, fill=0)
    pdf.showPage()
