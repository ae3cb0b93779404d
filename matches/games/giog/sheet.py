"""Giog's readable score sheet (docs/scoresheets.md), the game's side of the shared sheet code
(`GameAdapter.score_sheet`): a table of 2-4 seats, a row per hand, in each row the pieces each
seat won in two digit boxes (tens, units: under 10 the units alone) and up to two beheaded
seats (G12: only a General behead, and there are two). Printed from the round page as Gou Ji's
sheet is, read by the same reader (`matches/paper/reader.py`) into the hand form
(`ResultForm.from_sheet`), every unsure box marked for a person; the summary then goes through
the Giog engine as a typed one (a total that is not the pieces in play: G10)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from django.utils.translation import gettext as _

from matches.games.giog import sheet_desk
from matches.games.giog.sheet_desk import GiogDesk
from matches.paper import layout, reader
from matches.paper.layout import Box, SheetKey

MAGIC = "GGS1"
SEAT_X = 30.0  # the first seat's tens box
SEAT_PITCH = 30.0  # from one seat's pair of boxes to the next
BEHEADED_X = 152.0
BEHEADED = sheet_desk.BEHEADED
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
            # the units of a count hold any digit (0-9): read by the 0-9 readers
            units = seat_x(seat) + layout.PITCH
            out.append(Box("won_units", row, seat - 1, units, y, any_digit=True))
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
    reading: reader.Reading,
    name: str,
    among: list[int],
    unsure: list[str],
    trust: float,
    unchecked: bool = False,
) -> int | None:
    """A box's digit, its name in `unsure` when it is not `among` those it can hold, below
    `trust` among them, or (`unchecked`: a box nothing else on the hand checks, a beheaded
    seat) below `reader.UNCHECKED` or a glyph in pieces (`reader.broken`)."""
    read = reading.fields.get(name, reader.Field(None, 1.0))
    bar = max(trust, reader.UNCHECKED) if unchecked else trust
    if read.value is not None and (
        read.value not in among
        or reader.confidence_among(read, among) < bar
        or (unchecked and reader.broken(read, trust))
    ):
        unsure.append(name.split(".", 1)[1])
    return read.value


#: a 0's probability is never taken below this (set when the seats' readers, who never read a
#: 0, read the units; with the 0-9 readers seed 11's 60 photos read 5 of 2,282 boxes more right
#: without it, 0 silent either way: kept)
ZERO_FLOOR = 0.01


def _odds(read: reader.Field | None, blank: float) -> np.ndarray:
    """A box's probability of each digit; a blank box: a 0 with probability `blank`."""
    if read is None or read.value is None:
        odds = np.full(10, 1e-6)
        odds[0] = blank
        return odds
    odds = np.maximum(np.array(read.probabilities or [0.1] * 10, dtype=float), 1e-6)
    odds[0] = max(odds[0], ZERO_FLOOR)
    return odds * (0.5 if read.faint else 1.0)


def _whole(
    reading: reader.Reading, number: int, seats: list[int], trust: float
) -> tuple[dict[int, int | None], list[str]] | None:
    """A hand whose every seat's units box is written, read as a whole: of every way to give
    each seat a multiple of the players (a trick holds as many pieces of each, G8) adding up to
    the pieces in play (G4), the most probable given each box's probabilities (a 0 never below
    ZERO_FLOOR), and for each seat the probability of its count given that the hand adds up.
    It mends one thing only, a misread 0 (the seats' readers' blind spot, used here before the
    units had the 0-9 readers): a seat whose boxes read another digit
    where the hand needs a 0 is that 0, sure, when every other seat is read sure as written
    and the hand is `reader.JOINT` sure of it (mending any other digit made sure swaps that
    still add up: silent errors). A seat read as written is sure when its boxes are (`trust`)
    and the hand is too; an unsure seat keeps what its boxes read, its boxes marked. None: a
    units box blank, or no way to add up."""
    total = IN_PLAY.get(len(seats))
    fields = reading.fields
    names = {s: (f"won_tens.{s - 1}", f"won_units.{s - 1}") for s in seats}
    reads = {s: tuple(fields.get(f"{number}.{n}") for n in names[s]) for s in seats}
    if total is None or any(r[1] is None or r[1].value is None for r in reads.values()):
        return None
    counts = np.arange(0, total + 1, len(seats))
    odds = []
    for seat in seats:
        tens, units = reads[seat]
        p_tens, p_units = _odds(tens, 1.0), _odds(units, 1.0)
        odds.append(p_tens[counts // 10] * p_units[counts % 10])
    grids = np.array(list(itertools.product(range(len(counts)), repeat=len(seats))))
    grids = grids[counts[grids].sum(axis=1) == total]
    if not len(grids):
        return None
    weights = np.prod([odds[k][grids[:, k]] for k in range(len(seats))], axis=0)
    if weights.sum() <= 0:
        return None
    best = grids[int(weights.argmax())]
    won: dict[int, int | None] = {}
    marked: list[str] = []
    read_counts, changed, own_sure = {}, {}, {}
    for k, seat in enumerate(seats):
        tens, units = reads[seat]
        assert units is not None and units.value is not None  # every units box is written
        read_counts[seat] = (
            tens.value if tens and tens.value is not None else 0
        ) * 10 + units.value
        count = int(counts[best[k]])
        changed[seat] = [
            digit
            for box, digit in ((tens, count // 10), (units, count % 10))
            if (box.value if box is not None and box.value is not None else 0) != digit
        ]
        own_sure[seat] = all(
            reader.confidence_among(box, among) >= trust and box.value in among
            for box, among in ((tens, [1, 2, 3]), (units, list(range(10))))
            if box is not None and box.value is not None
        )
    for k, seat in enumerate(seats):
        share = float(weights[grids[:, k] == best[k]].sum() / weights.sum())
        others = all(own_sure[s] and not changed[s] for s in seats if s != seat)
        if not changed[seat]:
            sure = own_sure[seat] and share >= trust
        else:  # only a 0 misread, the one doubt of the hand
            sure = set(changed[seat]) == {0} and others and share >= max(trust, reader.JOINT)
        if sure:
            won[seat] = int(counts[best[k]])
        else:
            won[seat] = read_counts[seat]
            marked += [
                name
                for name, box in zip(names[seat], reads[seat])
                if box is not None and box.value is not None
            ]
    return won, marked


def rows(reading: reader.Reading, trust: float | None = None) -> list[HandRow]:
    """The sheet's hands. A seat's count is its two boxes (a blank tens is 0; a tens box can
    hold 1-3, as nobody wins more than 32), each unsure below `trust` among what it can hold;
    a written row with a seat's units left blank marks that box; a beheaded box is judged
    among the table's seats. A hand read for every seat whose counts do not add up to the
    pieces in play (G4) has every count box marked: one of them is wrong (most often a 9 or a 0, the
    digits the readers read worst), the reader cannot tell which. What the boxes say is not
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
        whole = _whole(reading, number, seats, trust)
        if whole is not None:  # the hand read as a whole: its counts add up
            won, marked = whole
            unsure = [name for name in unsure if not name.startswith("won_")] + marked
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
            _digit(reading, f"{number}.beheaded.{k}", seats, unsure, trust, unchecked=True)
            for k in range(BEHEADED)
        ]
        out.append(HandRow(number, won, [s for s in beheaded if s is not None], unsure))
    return out


class GiogSheet:
    magic = MAGIC
    #: the desk's stack types this sheet's boxes (matches/views/organiser/sheet_stack.py)
    desk = GiogDesk()

    def seats(self, event, table) -> int:
        """The table's seats (2-4); 0 when no table is named yet (the desk's refused sheet)."""
        return table.seats.count() if table is not None else 0

    def boxes(self, key: SheetKey) -> list[Box]:
        return boxes(key)

    def rows(self, reading: reader.Reading) -> list[HandRow]:
        return rows(reading)

    def row_json(self, reading: reader.Reading, row: HandRow) -> dict[str, Any]:
        """What the hand form takes of a read row, and every box of the row by name (the desk's
        fields), a seat's count as the hand reads it whole (a 0 mended is a 0 in its box)."""
        named = {
            name.split(".", 1)[1]: read.value
            for name, read in reading.fields.items()
            if name.split(".", 1)[0] == str(row.number)
        }
        for seat, count in row.won.items():
            if count is not None:
                named[f"won_tens.{seat - 1}"] = count // 10 if count >= 10 else None
                named[f"won_units.{seat - 1}"] = count % 10
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
        return sheet_desk.box_label(name)


SHEET = GiogSheet()
