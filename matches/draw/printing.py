"""PDFs for the tournament room: table cards with score sheets, and the pairings list for the wall.

Chinese text uses WenQuanYi Micro Hei (Debian's `fonts-wqy-microhei`, Apache 2.0 or GPLv3 with
the font embedding exception), registered as a TrueType font: reportlab embeds the subset of
glyphs a PDF uses, so a printer without an Asian font pack prints the names, not boxes
(`pdffonts` lists it `emb yes`; `make fonts` installs the package). Without the font file the
cards fall back to reportlab's CID font STSong-Light, which the reader must supply. The referee
QR code is drawn square by square from `segno`'s matrix: no image library needed.
"""

from __future__ import annotations

import io
import os

import segno
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from matches.draw.seat_drawing import draw_seats
from matches.models import RefereeLink, RefereeZone, Round, TableSeat
from matches.models.round import SIDE_A

#: Where Debian (and Ubuntu) put WenQuanYi Micro Hei; `CJK_FONT_PATH` names another TTF/TTC.
FONT_FILES = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/wqy-microhei/wqy-microhei.ttc",
)
FALLBACK_FONT = "STSong-Light"


def _register_font() -> str:
    candidates = [os.environ.get("CJK_FONT_PATH", "")] + list(FONT_FILES)
    for path in candidates:
        if path and os.path.exists(path):
            # subfontIndex 0: the proportional face of the collection (1 is the monospaced one).
            pdfmetrics.registerFont(TTFont("WenQuanYiMicroHei", path, subfontIndex=0))
            return "WenQuanYiMicroHei"
    pdfmetrics.registerFont(UnicodeCIDFont(FALLBACK_FONT))
    return FALLBACK_FONT


FONT = _register_font()
WIDTH, HEIGHT = A4
MARGIN = 15 * mm


def referee_links(round_: Round, user=None) -> dict[int, str]:
    """table id → the token of an active referee link, creating one where a table has none."""
    tokens = {}
    for table in round_.tables.order_by("number"):
        link = (
            table.referee_links.filter(revoked_at__isnull=True).order_by("created_at", "id").first()
        )
        if link is None:
            link = RefereeLink.objects.create(
                table=table,
                label=gettext_noop("打印的桌卡"),  # a key: matches/models/labels.py
                created_by=user if getattr(user, "is_authenticated", False) else None,
            )
        tokens[table.pk] = link.token
    return tokens


def _canvas(buffer, title: str) -> canvas.Canvas:
    pdf = canvas.Canvas(buffer, pagesize=A4, pageCompression=1)
    pdf.setTitle(title)
    pdf.setAuthor("gouji-tournament")
    return pdf


def _qr(pdf: canvas.Canvas, url: str, x: float, y: float, size: float) -> None:
    matrix = [list(row) for row in segno.make_qr(url, error="m").matrix_iter(border=2)]
    cell = size / len(matrix)
    pdf.setFillColorRGB(0, 0, 0)
    for row, line in enumerate(matrix):
        for col, dark in enumerate(line):
            if dark:
                pdf.rect(x + col * cell, y + size - (row + 1) * cell, cell, cell, stroke=0, fill=1)


def _shape(event):
    """The event's table of two unions (the game's `table_shape`)."""
    return event.adapter.table_shape(event)


def _side_seats(shape, side: str) -> str:
    """Side A's or B's seat numbers, "1-3-5" or "1-2-3-4"."""
    return "-".join(str(seat) for seat in shape.seats_of(side))


def _seats(round_: Round) -> dict:
    seats: dict[int, list[TableSeat]] = {}
    for seat in TableSeat.objects.filter(round=round_).select_related("player", "union"):
        seats.setdefault(seat.table_id, []).append(seat)
    return seats


def _zone_names(event) -> list[tuple[int, int, str]]:
    """The hall's zones as (first, last, name): a card says where in the hall its table is."""
    return list(
        RefereeZone.objects.filter(event=event).values_list("first_table", "last_table", "name")
    )


def _zone_of(zones: list[tuple[int, int, str]], number: int) -> str:
    return next((name for first, last, name in zones if first <= number <= last), "")


def table_cards_pdf(round_: Round, referee_urls: dict[int, str]) -> bytes:
    """One A4 page per table: seats, a score sheet with a row per deal, signatures, the QR code;
    its zone of the hall beside the table number; the round's byes on a last page of their
    own (a union that sits out finds its name, and 轮空, in the stack)."""
    event = round_.event
    buffer = io.BytesIO()
    pdf = _canvas(buffer, f"{event.name} {round_.number}")
    seats = _seats(round_)
    zones = _zone_names(event)
    deal_rows = event.deals_per_match + (event.tie_break_deals or 0)
    matches = round_.matches.played().with_sides().select_related("table")
    shape = None if round_.event.adapter.seats_own_tables else _shape(event)
    for match in matches.order_by("table__number"):
        # Tables whose sides are players (Giog: 2-4 seats) take a result per seat on the sheet.
        per_seat = not match.union_sides
        table = match.table
        table_seats = sorted(seats.get(table.pk, []), key=lambda s: s.seat)
        top = HEIGHT - MARGIN
        pdf.setFont(FONT, 20)
        heading = _("第 %(n)s 桌") % {"n": table.number}
        zone = _zone_of(zones, table.number)
        if zone:
            heading += " · " + _("区域 %(zone)s") % {"zone": zone}
        pdf.drawString(MARGIN, top - 8 * mm, heading)
        pdf.setFont(FONT, 11)
        pdf.drawString(
            MARGIN, top - 15 * mm, f"{event.name} · " + _("第 %(n)s 轮") % {"n": round_.number}
        )
        if not per_seat:
            pdf.drawString(
                MARGIN,
                top - 21 * mm,
                f"{match.union_a.name} ({_side_seats(shape, 'A')})  —  "
                f"{match.union_b.name} ({_side_seats(shape, 'B')})",
            )
        pdf.drawString(MARGIN, top - 27 * mm, _("规则：") + event.adapter.rules_line(event))
        url = referee_urls.get(table.pk, "")
        if url:
            _qr(pdf, url, WIDTH - MARGIN - 32 * mm, top - 32 * mm, 32 * mm)
            pdf.setFont(FONT, 7)
            pdf.drawRightString(WIDTH - MARGIN, top - 35 * mm, url)
        # Seats
        y = top - 44 * mm
        pdf.setFont(FONT, 12)
        pdf.drawString(MARGIN, y, _("座位"))
        if per_seat:
            for seat in table_seats:
                y -= 7 * mm
                pdf.drawString(MARGIN, y, f"{seat.seat}")
                pdf.drawString(MARGIN + 70 * mm, y, seat.player.name)
        else:  # two unions: the seats drawn around the table, head rivals opposite
            y = draw_seats(pdf, FONT, event, table_seats, table.number, y, WIDTH)
        # Score sheet: one row per deal, down to the signatures at the foot of the page (the
        # rows grow to fill the A4; a running total per side for the two-union sheet).
        y -= 12 * mm
        if per_seat:
            columns = [_("手")] + [str(s.seat) for s in table_seats] + [_("斩首")]
            widths = [14] + [24] * len(table_seats) + [40]
        else:
            # A column per place (the seat number written in it): six, or eight at R44's table.
            assert shape is not None  # a table of two unions
            places = [str(k) for k in shape.seats]
            columns = [_("局"), *places, _("开点"), "A", "B", _("A 累计"), _("B 累计")]
            narrow = len(places) > 6
            widths = [12] + [8 if narrow else 10] * len(places) + [28 if narrow else 32]
            widths += [17 if narrow else 19] * 4
        x_positions = [MARGIN]
        for w in widths[:-1]:
            x_positions.append(x_positions[-1] + w * mm)
        right = x_positions[-1] + widths[-1] * mm
        pdf.setFont(FONT, 10)
        pdf.drawString(MARGIN, y + 2 * mm, _("各家赢子数") if per_seat else _("名次（填座位号）"))
        y -= 6 * mm
        signatures_height = 34 * mm
        room = y - MARGIN - signatures_height
        row_height = max(8 * mm, min(18 * mm, room / (deal_rows + 1)))
        for k in range(deal_rows + 1):
            pdf.line(MARGIN, y - k * row_height, right, y - k * row_height)
            label = (
                columns
                if k == 0
                else [
                    str(k)
                    if k <= event.deals_per_match
                    else _("加%(n)s") % {"n": k - event.deals_per_match}
                ]
                + [""] * (len(columns) - 1)
            )
            pdf.setFont(FONT, 10 if k == 0 else 14)
            text_y = y - k * row_height - min(row_height, 12 * mm) / 2 - 1.5 * mm
            for x, text in zip(x_positions, label):
                pdf.drawString(x + 1.5 * mm, text_y, text)
        bottom = y - (deal_rows + 1) * row_height
        pdf.line(MARGIN, bottom, right, bottom)
        for x in x_positions + [right]:
            pdf.line(x, y, x, bottom)
        # Few deals: the rest of the page down to the signatures is a box for notes (a dispute,
        # a time stop, a substitute), so the whole A4 serves the table.
        notes_top = bottom - 6 * mm
        notes_bottom = MARGIN + signatures_height
        if notes_top - notes_bottom > 20 * mm:
            pdf.setFont(FONT, 10)
            pdf.drawString(MARGIN, notes_top - 5 * mm, _("备注（争议、超时、换人）"))
            pdf.rect(MARGIN, notes_bottom, right - MARGIN, notes_top - notes_bottom - 7 * mm)
        # Signatures
        y = min(bottom - 14 * mm, MARGIN + signatures_height - 10 * mm)
        pdf.setFont(FONT, 11)
        signers = (
            (_("裁判签名"),)
            if per_seat
            else (
                _("裁判签名"),
                _("%(u)s 队长") % {"u": match.union_a.name},
                _("%(u)s 队长") % {"u": match.union_b.name},
            )
        )
        for k, who in enumerate(signers):
            x = MARGIN + k * 60 * mm
            pdf.drawString(x, y, who)
            pdf.line(x, y - 10 * mm, x + 52 * mm, y - 10 * mm)
        pdf.showPage()
        if not per_seat:
            _captain_cards(pdf, event, round_, table, match)
    byes = [m for m in round_.matches.with_sides() if m.is_bye]
    if byes:
        _byes_page(pdf, event, round_, byes)
    elif not matches.exists():
        pdf.setFont(FONT, 14)
        pdf.drawString(MARGIN, HEIGHT - MARGIN - 10 * mm, _("本轮没有牌桌"))
        pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _bye_name(match) -> str:
    side = match.side_a
    if side is None:
        return ""
    return side.union.name if side.union_id else str(side.player or "")


def _byes_page(pdf: canvas.Canvas, event, round_: Round, byes: list) -> None:
    """The round's byes: no table, no score sheet, no opponent; each name with 轮空."""
    top = HEIGHT - MARGIN
    pdf.setFont(FONT, 20)
    pdf.drawString(MARGIN, top - 8 * mm, _("轮空"))
    pdf.setFont(FONT, 11)
    pdf.drawString(
        MARGIN, top - 15 * mm, f"{event.name} · " + _("第 %(n)s 轮") % {"n": round_.number}
    )
    pdf.drawString(MARGIN, top - 21 * mm, _("以下本轮轮空，不上桌，无需记分。"))
    y = top - 34 * mm
    pdf.setFont(FONT, 14)
    for match in byes:
        if y < MARGIN:
            pdf.showPage()
            pdf.setFont(FONT, 14)
            y = top - 10 * mm
        pdf.drawString(MARGIN, y, f"{_bye_name(match)}  —  " + _("轮空"))
        y -= 9 * mm
    pdf.showPage()


def _captain_cards(pdf: canvas.Canvas, event, round_: Round, table, match) -> None:
    """One page after the table card: a slip per union's captain with the captain's PIN, cut
    apart and handed to each captain (the table card itself lies open on the table)."""
    for k, (side, union) in enumerate((s.position, s.union) for s in match.union_sides):
        top = HEIGHT - MARGIN - k * 70 * mm
        pdf.setDash(3, 3)
        pdf.rect(MARGIN, top - 60 * mm, WIDTH - 2 * MARGIN, 60 * mm, stroke=1, fill=0)
        pdf.setDash()
        pdf.setFont(FONT, 14)
        pdf.drawString(MARGIN + 6 * mm, top - 12 * mm, _("队长卡") + f" · {side} · {union.name}")
        pdf.setFont(FONT, 10)
        pdf.drawString(
            MARGIN + 6 * mm,
            top - 20 * mm,
            f"{event.name} · "
            + _("第 %(n)s 轮") % {"n": round_.number}
            + " · "
            + _("第 %(n)s 桌") % {"n": table.number},
        )
        captain = union.captain
        if captain is not None:
            pdf.drawString(MARGIN + 6 * mm, top - 27 * mm, _("队长") + f"：{captain.name}")
        pdf.setFont(FONT, 12)
        pdf.drawString(MARGIN + 6 * mm, top - 40 * mm, _("队长密码"))
        pdf.setFont("Courier-Bold", 28)
        pdf.drawString(MARGIN + 40 * mm, top - 42 * mm, union.captain_pin)
        pdf.setFont(FONT, 9)
        pdf.drawString(
            MARGIN + 6 * mm,
            top - 52 * mm,
            _("每局成绩提交后，在本桌的手机上输入此密码确认。请勿告诉对方联邦。"),
        )
    pdf.showPage()


def pairings_pdf(round_: Round, order: str = "table") -> bytes:
    """The pairings list for the wall: table, union A and its players, union B and its players.
    `order="name"`: one line per union (or player), A→Z, with its table and opponent."""
    if order == "name":
        return _pairings_by_name_pdf(round_)
    event = round_.event
    buffer = io.BytesIO()
    pdf = _canvas(buffer, f"{event.name} {round_.number}")
    seats = _seats(round_)
    title = f"{event.name} · " + _("第 %(n)s 轮对阵") % {"n": round_.number}
    row_height = 12 * mm

    matches = list(
        round_.matches.with_sides().select_related("table").order_by("table__number", "id")
    )
    # Byes (no table) after the tables, on every database (SQLite sorts NULL first).
    matches.sort(key=lambda m: m.is_bye)
    # A round's sides are all unions (Gou Ji) or all players (Giog).
    per_seat = not any(match.union_sides for match in matches)

    def header():
        pdf.setFont(FONT, 16)
        pdf.drawString(MARGIN, HEIGHT - MARGIN - 6 * mm, title)
        pdf.setFont(FONT, 10)
        pdf.drawString(MARGIN, HEIGHT - MARGIN - 14 * mm, _("桌号"))
        if per_seat:
            pdf.drawString(MARGIN + 16 * mm, HEIGHT - MARGIN - 14 * mm, _("座位"))
            return HEIGHT - MARGIN - 18 * mm
        shape = _shape(event)
        pdf.drawString(
            MARGIN + 16 * mm,
            HEIGHT - MARGIN - 14 * mm,
            _("A 方 %(seats)s 号座") % {"seats": _side_seats(shape, "A")},
        )
        pdf.drawString(
            MARGIN + 96 * mm,
            HEIGHT - MARGIN - 14 * mm,
            _("B 方 %(seats)s 号座") % {"seats": _side_seats(shape, "B")},
        )
        return HEIGHT - MARGIN - 18 * mm

    y = header()
    for match in matches:
        if y - row_height < MARGIN:
            pdf.showPage()
            y = header()
        pdf.line(MARGIN, y, WIDTH - MARGIN, y)
        table_seats = sorted(seats.get(match.table_id, []), key=lambda s: s.seat)
        names_a = "、".join(s.player.name for s in table_seats if s.side == SIDE_A)
        names_b = "、".join(s.player.name for s in table_seats if s.side != SIDE_A)
        pdf.setFont(FONT, 14)
        pdf.drawString(MARGIN, y - 6 * mm, str(match.table.number) if match.table_id else "—")
        if match.is_bye:  # one line: the union, and 轮空 where an opponent would stand
            pdf.setFont(FONT, 11)
            pdf.drawString(MARGIN + 16 * mm, y - 5 * mm, _bye_name(match))
            pdf.drawString(MARGIN + 96 * mm, y - 5 * mm, _("轮空"))
            pdf.setFont(FONT, 8)
            pdf.drawString(MARGIN + 16 * mm, y - 10 * mm, names_a)
            y -= row_height
            continue
        if per_seat:  # the players in seat order
            pdf.setFont(FONT, 11)
            pdf.drawString(
                MARGIN + 16 * mm,
                y - 6 * mm,
                "  ".join(f"{s.seat} {s.player.name}" for s in table_seats),
            )
            y -= row_height
            continue
        pdf.setFont(FONT, 11)
        pdf.drawString(MARGIN + 16 * mm, y - 5 * mm, match.union_a.name)
        pdf.drawString(MARGIN + 96 * mm, y - 5 * mm, match.union_b.name)
        pdf.setFont(FONT, 8)
        pdf.drawString(MARGIN + 16 * mm, y - 10 * mm, names_a)
        pdf.drawString(MARGIN + 96 * mm, y - 10 * mm, names_b)
        y -= row_height
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def _pairings_by_name_pdf(round_: Round) -> bytes:
    from matches.draw.listing import by_name

    event = round_.event
    buffer = io.BytesIO()
    pdf = _canvas(buffer, f"{event.name} {round_.number}")
    title = f"{event.name} · " + _("第 %(n)s 轮对阵（按名称）") % {"n": round_.number}
    row_height = 8 * mm
    columns = (MARGIN, MARGIN + 70 * mm, MARGIN + 90 * mm, MARGIN + 112 * mm)

    def header():
        pdf.setFont(FONT, 16)
        pdf.drawString(MARGIN, HEIGHT - MARGIN - 6 * mm, title)
        pdf.setFont(FONT, 10)
        labels = (
            _("联邦") if event.is_team else _("选手"),
            _("桌号"),
            _("座位"),
            _("对手") if event.is_team else "",
        )
        for x, label in zip(columns, labels):
            pdf.drawString(x, HEIGHT - MARGIN - 14 * mm, label)
        return HEIGHT - MARGIN - 18 * mm

    y = header()
    for row in by_name(round_):
        if y - row_height < MARGIN:
            pdf.showPage()
            y = header()
        pdf.line(MARGIN, y, WIDTH - MARGIN, y)
        pdf.setFont(FONT, 12)
        pdf.drawString(columns[0], y - 6 * mm, row["name"])
        bye = row.get("bye") or not row["table"]
        pdf.drawString(columns[1], y - 6 * mm, "—" if bye else str(row["table"]))
        pdf.setFont(FONT, 10)
        pdf.drawString(columns[2], y - 6 * mm, "—" if bye else row["seats"])
        # A bye's opponent column says so, never a blank where a name should be.
        pdf.drawString(columns[3], y - 6 * mm, _("轮空") if bye else row["opponent"])
        y -= row_height
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()


def poster_pdf(event, event_url: str, find_url: str) -> bytes:
    """A poster for the hall's walls (A4 portrait): the event's name, a large QR code of its
    public pages (pairings, results, standings) and a smaller one of find-my-table, each with
    its address written out for those who type it."""
    buffer = io.BytesIO()
    pdf = _canvas(buffer, f"{event.name} · " + _("海报"))
    top = HEIGHT - MARGIN
    pdf.setFont(FONT, 30)
    pdf.drawCentredString(WIDTH / 2, top - 18 * mm, event.name)
    details = " · ".join(str(x) for x in (event.venue, event.start_date) if x)
    if details:
        pdf.setFont(FONT, 14)
        pdf.drawCentredString(WIDTH / 2, top - 28 * mm, details)
    pdf.setFont(FONT, 20)
    pdf.drawCentredString(WIDTH / 2, top - 44 * mm, _("扫码查看对阵、成绩和排名"))
    size = 120 * mm
    _qr(pdf, event_url, (WIDTH - size) / 2, top - 50 * mm - size, size)
    pdf.setFont(FONT, 12)
    pdf.drawCentredString(WIDTH / 2, top - 56 * mm - size, event_url)
    small = 50 * mm
    y = MARGIN + 8 * mm
    _qr(pdf, find_url, MARGIN, y, small)
    pdf.setFont(FONT, 18)
    pdf.drawString(MARGIN + small + 8 * mm, y + small - 14 * mm, _("查找你的座位"))
    pdf.setFont(FONT, 12)
    pdf.drawString(
        MARGIN + small + 8 * mm, y + small - 24 * mm, _("输入姓名、联邦、俱乐部或拼音首字母")
    )
    pdf.drawString(MARGIN + small + 8 * mm, y + small - 34 * mm, find_url)
    pdf.showPage()
    pdf.save()
    return buffer.getvalue()
