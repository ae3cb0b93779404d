"""Gou Ji's readable score sheet, the game's side of the shared sheet code (the printer
`matches/draw/sheet_printing.py`, the service `matches/sheets/`, the pages): its layout and its
reading are `matches/paper/layout.py` and `reader.rows` (a row per deal: the finishing order,
the points, the burns and their outcomes, the event strip's lines); here what the shared code asks of a game's
sheet (`GameAdapter.score_sheet`): how many seats, which boxes, how a read row becomes what the
deal form takes, how its part of the page is drawn, a box in words. docs/scoresheets.md."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from matches.games.gouji import sheet_words
from matches.games.gouji.sheet_desk import GoujiDesk
from matches.games.gouji.sheet_words import EVENT_HEADINGS
from matches.paper import layout, reader
from matches.paper.layout import Box, SheetKey


class GoujiSheet:
    magic = layout.MAGIC
    #: the desk's stack types this sheet's boxes (matches/views/organiser/sheet_stack.py)
    desk = GoujiDesk()

    def seats(self, event, table) -> int:
        return len(event.adapter.table_shape(event).seats)

    def boxes(self, key: SheetKey) -> list[Box]:
        return layout.every_box(key)

    def rows(self, reading: reader.Reading) -> list[reader.Row]:
        return reader.rows(reading)

    def row_json(self, reading: reader.Reading, row: reader.Row) -> dict[str, Any]:
        """What the deal form takes of a read row (`ResultForm.from_sheet`), and every box of
        the row by name, a finishing order as the row reads it whole (a box alone may read
        another seat than its place holds in the most probable order)."""
        boxes = {
            name.split(".", 1)[1]: read.value
            for name, read in reading.fields.items()
            if name.split(".", 1)[0] == str(row.number)
        }
        boxes.update({f"finish.{place}": seat for place, seat in enumerate(row.finish)})
        return {
            "finish": row.finish,
            "points": row.points,
            "burns": [list(pair) for pair in row.burns],
            "burn_outcomes": list(row.burn_outcomes),
            "suffocated": [list(pair) for pair in row.suffocated],
            "revolution": row.revolution,
            "declarations": [list(pair) for pair in row.declarations],
            "boxes": boxes,
        }

    def seat_line(self, seat) -> str:
        side = "A" if seat.side == "A" else "B"
        union = seat.union.name if seat.union_id else ""
        return f"{seat.seat} · {side} · {union} · {seat.player.name}"[:48]

    def signers(self, match) -> list[str]:
        unions = (match.union_a.name, match.union_b.name) if match is not None else ("", "")
        return [_("A 队长") + f" {unions[0]}"[:8], _("B 队长") + f" {unions[1]}"[:8], _("裁判")]

    def blank_seat_lines(self, key: SheetKey) -> list[str]:
        return [f"{seat} · {'AB'[(seat - 1) % 2]}" for seat in range(1, key.seats + 1)]

    def draw(self, pen, key: SheetKey, deals_per_match: int) -> None:
        """The rows' headings, each deal row's label, arrows and boxes, and the event strip."""
        xs = layout.group_x(key.seats)
        top = layout.ROWS_TOP
        pen.text(xs["finish"], top - 6, _("名次 1→%(n)s（填座位号）") % {"n": key.seats}, 9)
        pen.text(xs["points"], top - 6, _("开点（座位号）"), 9)
        if key.outcomes:  # the outcome box's key, above the burns' heading
            pen.text(xs["burns"], top - 6, _("烧（烧者→被烧 · 结果）"), 9)
            pen.text(xs["burns"], top - 11, str(sheet_words.OUTCOME_KEY), 7)
        else:
            pen.text(xs["burns"], top - 6, _("烧（烧者→被烧）"), 9)
        for place in range(key.seats):
            x = xs["finish"] + place * layout.PITCH + layout.BOX / 2
            pen.centred(x, top - 1.5, str(place + 1), 7)
        height = layout.row_height(key.rows)
        for row in range(1, key.rows + 1):
            row_top = layout.row_top(row, key.rows)
            tie = _("加%(n)s") % {"n": row - deals_per_match}
            pen.text(
                12, row_top + height / 2 + 1.5, str(row) if row <= deals_per_match else tie, 11
            )
            if row > deals_per_match:  # the number an event line gives this row
                pen.text(12, row_top + height / 2 - 2.5, f"({row})", 6)
            box_y = row_top + (height - layout.BOX) / 2
            for pair in range(layout.BURN_PAIRS):
                burner, _burned = layout.burn_x(key.seats, pair, key.outcomes)
                pen.centred(burner + layout.BOX + 2, box_y + layout.BOX / 2 + 1, "→", 9)
        for box in layout.boxes(key):
            pen.box(box.x, box.y)
        if not key.events:
            return
        for kind, (x, _parts) in layout.EVENT_COLUMNS.items():
            heading = EVENT_HEADINGS[kind] if key.version < 3 else sheet_words.heading(kind)
            pen.text(x, layout.EVENT_TOP - 1.2, str(heading), 6.5)
            if kind == "s":
                for line in range(layout.EVENT_LINES):
                    y = layout.EVENT_TOP + line * layout.EVENT_PITCH + layout.BOX / 2 + 1
                    pen.centred(x + 34.5, y, "→", 9)
        # Deals 1-9 are written in the units box alone: a box fewer to write and to read.
        pen.text(12, layout.EVENT_TOP + 1.5, _("局号 1-9"), 6)
        pen.text(12, layout.EVENT_TOP + 4.0, _("十位不填"), 6)
        for box in layout.event_boxes(key):
            pen.box(box.x, box.y)

    def box_label(self, name: str) -> str:
        """A box of a deal's row in words: "finish.5" -> 第6名, "s_seat.0" -> 闷第1行的被闷者."""
        return sheet_words.box_label(name)


SHEET = GoujiSheet()
