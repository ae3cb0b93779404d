"""Giog's readable score sheet (docs/scoresheets.md), the game's side of the shared sheet code
(`GameAdapter.score_sheet`): a table of 2-4 seats, a row per hand, in each row the pieces each
seat won in two digit boxes (tens, units: under 10 the units alone) and up to two beheaded
seats (G12: only a General behead, and there are two). Printed from the round page as Gou Ji's
sheet is, read by the same reader (`matches/paper/reader.py`) into the hand form
(`ResultForm.from_sheet`), every unsure box marked for a person; the summary then goes through
the Giog engine as a typed one (a total that is not the pieces in play: G10)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from matches.paper import layout, reader
from matches.paper.layout import Box, SheetKey

MAGIC = "GGS1"
SEAT_X = 30.0  # the first seat's tens box
SEAT_PITCH = 30.0  # from one seat's pair of boxes to the next
BEHEADED_X = 152.0
BEHEADED = 2
#: G4: the pieces in play at a table of n players, what a hand's counts add up to
IN_PLAY = {2: 24, 3: 30, 4: 32}


def seat_x(seat: int) -> float:
    """The tens box's x of seat `seat` (1-based); the units box is one PITCH right."""
    return SEAT_X + (seat - 1) * SEAT_PITCH


def boxes(key: SheetKey) -> list[Box]:
    out = []
    for row in range(1, key.rows + 1):
        y = layout.row_top(row, key.rows) + (layout.row_height(key.rows) - layout.BOX) / 2
        for seat in range(1, key.seats + 1):
            out.append(Box("won_tens", row, seat - 1, seat_x(seat), y))
            out.append(Box("won_units", row, seat - 1, seat_x(seat) + layout.PITCH, y))
        for k in range(BEHEADED):
            out.append(Box("beheaded", row, k, BEHEADED_X + k * layout.PITCH, y))
    return out


@dataclass
class HandRow:
    """One hand's row as read: pieces won per seat (None: not read), beheaded seats as read,
    and the boxes a person must check."""

    number: int
    won: dict[int, int | None]
    beheaded: list[int | None]
    unsure: list[str] = field(default_factory=list)

    @property
    def blank(self) -> bool:
        return not (any(v is not None for v in self.won.values()) or self.beheaded or self.unsure)


def _digit(
    reading: reader.Reading, name: str, among: list[int], unsure: list[str], trust: float
) -> int | None:
    read = reading.fields.get(name, reader.Field(None, 1.0))
    if read.value is not None and (
        read.value not in among or reader.confidence_among(read, among) < trust
    ):
        unsure.append(name.split(".", 1)[1])
    return read.value


def rows(reading: reader.Reading, trust: float | None = None) -> list[HandRow]:
    """The sheet's hands. A seat's count is its two boxes (a blank tens is 0; a tens box can
    hold 1-3, as nobody wins more than 32), each unsure below `trust` among what it can hold;
    a written row with a seat's units left blank marks that box; a beheaded box is judged
    among the table's seats. A hand read for every seat whose counts do not add up to the
    pieces in play (G4) has every count box marked: one of them is wrong (most often a 0, the
    digit the readers read worst), the reader cannot tell which. What the boxes say is not
    mended: the engine refuses such a total as it stands (G10)."""
    trust = reader.TRUST if trust is None else trust
    key = reading.key
    seats = list(range(1, key.seats + 1))
    out = []
    for number in range(1, key.rows + 1):
        unsure: list[str] = []
        won: dict[int, int | None] = {}
        for seat in seats:
            at = f"{number}.won_%s.{seat - 1}"
            tens = _digit(reading, at % "tens", [1, 2, 3], unsure, trust)
            units = _digit(reading, at % "units", list(range(10)), unsure, trust)
            won[seat] = None if units is None else (tens or 0) * 10 + units
            if units is None and tens is not None:
                unsure.append(f"won_units.{seat - 1}")
        if any(v is not None for v in won.values()):
            for seat, count in won.items():  # a hand written for some seats only: who else?
                name = f"won_units.{seat - 1}"
                if count is None and name not in unsure:
                    unsure.append(name)
        counts = [v for v in won.values() if v is not None]
        complete = len(counts) == len(seats)
        wrong_total = complete and sum(counts) != IN_PLAY.get(len(seats), sum(counts))
        for seat in seats:
            # A trick holds as many pieces from each player (G8, G10): a seat's count is a
            # multiple of the players; a count that is not, or a hand that does not add up,
            # has its boxes marked.
            count = won[seat]
            if wrong_total or (count is not None and count % len(seats)):
                for part in ("tens", "units"):
                    name = f"won_{part}.{seat - 1}"
                    written = reading.fields.get(f"{number}.{name}")
                    if written is not None and written.value is not None and name not in unsure:
                        unsure.append(name)
        beheaded = [
            _digit(reading, f"{number}.beheaded.{k}", seats, unsure, trust) for k in range(BEHEADED)
        ]
        out.append(HandRow(number, won, [s for s in beheaded if s is not None], unsure))
    return out


class GiogSheet:
    magic = MAGIC
    desk = False  # the desk's stack types Gou Ji's boxes only

    def seats(self, event, table) -> int:
        return table.seats.count()

    def boxes(self, key: SheetKey) -> list[Box]:
        return boxes(key)

    def rows(self, reading: reader.Reading) -> list[HandRow]:
        return rows(reading)

    def row_json(self, reading: reader.Reading, row: HandRow) -> dict[str, Any]:
        named = {
            name.split(".", 1)[1]: read.value
            for name, read in reading.fields.items()
            if name.split(".", 1)[0] == str(row.number)
        }
        return {
            "won": {str(seat): count for seat, count in row.won.items()},
            "beheaded": row.beheaded,
            "boxes": named,
        }

    def seat_line(self, seat) -> str:
        return f"{seat.seat} · {seat.player.name}"[:48]

    def signers(self, match) -> list[str]:
        return [_("裁判")]

    def blank_seat_lines(self, key: SheetKey) -> list[str]:
        return [str(seat) for seat in range(1, key.seats + 1)]

    def draw(self, pen, key: SheetKey, deals_per_match: int) -> None:
        top = layout.ROWS_TOP
        pen.text(SEAT_X, top - 7, _("各座位赢子数（不足10只填个位）"), 9)
        pen.text(BEHEADED_X, top - 7, _("斩首（座位号）"), 9)
        for seat in range(1, key.seats + 1):
            pen.centred(seat_x(seat) + layout.BOX + 0.5, top - 1.5, _("%(s)s号") % {"s": seat}, 8)
        height = layout.row_height(key.rows)
        for row in range(1, key.rows + 1):
            label = (
                str(row) if row <= deals_per_match else _("加%(n)s") % {"n": row - deals_per_match}
            )
            pen.text(12, layout.row_top(row, key.rows) + height / 2 + 1.5, label, 11)
        for box in boxes(key):
            pen.box(box.x, box.y)

    def box_label(self, name: str) -> str:
        field_name, index_text = name.split(".")
        index = int(index_text)
        if field_name == "won_tens":
            return _("%(s)s号赢子数十位") % {"s": index + 1}
        if field_name == "won_units":
            return _("%(s)s号赢子数个位") % {"s": index + 1}
        return _("第%(n)s个斩首座位") % {"n": index + 1}


SHEET = GiogSheet()
