"""Where everything sits on the readable score sheet, in millimetres from the page's top-left
corner: the printer (`matches/draw/sheet_printing.py`) draws from it and the reader
(`reader.py`) looks there. Pure Python: no Django, no image library.

The four corners carry the same small QR code (the table's key and the corner's number): a
reader that finds them knows whose sheet it is and where the page's corners are, so one kind
of mark does both jobs. One box per digit: a seat number per place of the finishing order, the
seats that opened a point, the burns as burner → burned (and, from GJS3 where the row has
room, each burn's outcome); and below the rows, the rare events
as lines of their own (`event_boxes`): the deal's row number in two boxes, then the seats of a
suffocation (suffocator → suffocated), a revolution, or a declaration with its kind.
"""

from __future__ import annotations

from dataclasses import dataclass

PAGE_W, PAGE_H = 210.0, 297.0
#: a corner QR's side and the centres of the four (top-left, top-right, bottom-right,
#: bottom-left: the corner number in its text)
CORNER_QR = 20.0
_C = 10.0 + CORNER_QR / 2
CORNER_CENTRES = ((_C, _C), (PAGE_W - _C, _C), (PAGE_W - _C, PAGE_H - _C), (_C, PAGE_H - _C))
BOX = 9.0  # a digit's box, square
PITCH = 10.0  # from one box to the next in a group
POINT_BOXES = 4
BURN_PAIRS = 2
ROWS_TOP = 70.0
ROWS_BOTTOM = 255.0
MAX_ROW = 16.0
FINISH_X = 24.0
MAGIC = "GJS3"
#: at most this many seats a deal row has a burn outcome box beside each burn pair: at eight
#: seats the second burn ends at 201 mm of the page's 210 (docs/scoresheets.md)
OUTCOME_MAX_SEATS = 6
#: a burn outcome box's digit (blank: a success), the deal record's outcomes
BURN_OUTCOME_DIGITS = {1: "success", 2: "counter", 3: "stopped", 4: "false"}

#: The event strip, at the foot of the page between the bottom corner codes (x 30-180; the
#: rows end at ROWS_BOTTOM whatever their number, the codes start at 267), where the captains'
#: initials were (now at the top, beside the title). Three columns, EVENT_LINES lines each, one
#: per kind: each line the deal's row number (tens, units), then the kind's seats. The printer
#: draws a column's heading and the kinds' legend above its first line.
EVENT_TOP = 259.5
EVENT_PITCH = 10.5
EVENT_LINES = 3
#: kind -> (the column's x, its boxes: (part, offset from x)). "s": a suffocation (R27),
#: suffocator → suffocated; "r": a revolution (R29); "d": a declaration (R34), its kind a digit
#: (DECLARATION_KINDS)
EVENT_COLUMNS: dict[str, tuple[float, tuple[tuple[str, float], ...]]] = {
    "s": (34.0, (("tens", 0.0), ("units", PITCH), ("by", 23.0), ("seat", 36.0))),
    "r": (86.0, (("tens", 0.0), ("units", PITCH), ("seat", 23.0))),
    "d": (126.0, (("tens", 0.0), ("units", PITCH), ("seat", 23.0), ("kind", 36.0))),
}
#: an event line's deal number, tens and units: boxes that hold a 0 or a 9
DEAL_PARTS = ("tens", "units")
#: a declaration's kind digit: 1 明点, 2 暗点, 3 特点; 4 a 特点 that failed (GJS3 sheets)
DECLARATION_KINDS = {1: "clear", 2: "unclear", 3: "special", 4: "special_failed"}


@dataclass(frozen=True)
class SheetKey:
    """Whose sheet: the event, the round's number, the table's number; and its shape (seats,
    deal rows) so a reader knows the boxes without asking the database."""

    event: int
    round: int
    table: int
    seats: int
    rows: int
    #: the key text's first word: which layout (its three letters: a game's sheet, GJS Gou Ji's)
    #: and which version of it (GJS3: with burn outcomes and a failed 特点, GJS2: with the
    #: event strip, GJS1: printed before it)
    magic: str = MAGIC

    @classmethod
    def of_table(
        cls,
        event: int,
        round_: int,
        table: int,
        seats: int,
        deals: int,
        tie_breaks: int,
        magic: str = MAGIC,
    ) -> SheetKey:
        """A table's sheet: a row per deal and tie-break deal (at most 20 on one page)."""
        return cls(event, round_, table, seats, min(deals + tie_breaks, 20), magic)

    @property
    def version(self) -> int:
        """The version of Gou Ji's layout (0: another game's sheet)."""
        return int(self.magic[3]) if self.magic[:3] == MAGIC[:3] else 0

    @property
    def events(self) -> bool:
        """Whether the sheet has Gou Ji's event strip (GJS2 on)."""
        return self.version >= 2

    @property
    def outcomes(self) -> bool:
        """Whether its burn pairs have an outcome box (GJS3 on, where the row has room)."""
        return self.version >= 3 and self.seats <= OUTCOME_MAX_SEATS

    @property
    def declaration_kinds(self) -> list[int]:
        """The kind digits its 宣点 lines can hold: 4 (a failed 特点) from GJS3 on."""
        return [k for k in DECLARATION_KINDS if k < 4 or self.version >= 3]

    def text(self, corner: int) -> str:
        return f"{self.magic}/e{self.event}/r{self.round}/t{self.table}/s{self.seats}/d{self.rows}/c{corner}"

    @classmethod
    def parse(cls, text: str) -> tuple[SheetKey, int] | None:
        """(the key, the corner) of a corner QR's text; None for any other text."""
        parts = text.split("/")
        magic = parts[0]
        if len(parts) != 7 or not (
            len(magic) == 4 and magic[:3].isalpha() and magic[:3].isupper() and magic[3].isdigit()
        ):
            return None
        values = []
        for part, letter in zip(parts[1:], "ertsdc"):
            if part[:1] != letter or not part[1:].isdigit() or len(part) > 10:
                return None
            values.append(int(part[1:]))
        *fields, corner = values
        if corner > 3 or not 2 <= fields[3] <= 8 or not 1 <= fields[4] <= 20:
            return None
        event, round_, table, seats, rows = fields
        return cls(event, round_, table, seats, rows, magic), corner


@dataclass(frozen=True)
class Box:
    """One digit's box: the field it fills ("finish", "point", "burner", "burned"), the deal
    row, its index in the field (place - 1, nth point, nth burn), and where it is. An event
    line's box has row 0, the field "<kind>_<part>" ("s_by", "d_kind") and the line's index.
    `any_digit`: the box can hold a 0 or a 9 (a deal number's, a count's), read by the 0-9
    readers (`digits.ALL`); a seat's box by those who learned the seats' digits."""

    field: str
    row: int
    index: int
    x: float
    y: float
    any_digit: bool = False

    @property
    def name(self) -> str:
        return f"{self.row}.{self.field}.{self.index}"


def row_height(rows: int) -> float:
    return min(MAX_ROW, (ROWS_BOTTOM - ROWS_TOP) / rows)


def row_top(row: int, rows: int) -> float:
    """The top of deal row `row` (1-based)."""
    return ROWS_TOP + (row - 1) * row_height(rows)


def group_x(seats: int) -> dict[str, float]:
    """Where each group of boxes starts: the finishing order, the points, the burns."""
    points = FINISH_X + seats * PITCH + 4.0
    burns = points + POINT_BOXES * PITCH + 5.0
    return {"finish": FINISH_X, "points": points, "burns": burns}


def burn_x(seats: int, pair: int, outcomes: bool = False) -> tuple[float, float]:
    """The burner's and the burned box's x of burn pair `pair` (an arrow between them); with
    `outcomes` the pairs are further apart, an outcome box after each (`outcome_x`)."""
    width = 2 * BOX + 4.0 + (BOX + OUTCOME_GAP + 3.0 if outcomes else 4.0)
    start = group_x(seats)["burns"] + pair * width
    return start, start + BOX + 4.0


#: from a burned box to its outcome box (the page's 8 mm right margin holds at six seats)
OUTCOME_GAP = 1.5


def outcome_x(seats: int, pair: int) -> float:
    """The outcome box's x of burn pair `pair`, just after its burned box."""
    return burn_x(seats, pair, True)[1] + BOX + OUTCOME_GAP


def boxes(key: SheetKey) -> list[Box]:
    """Every digit box of the sheet, row by row."""
    out = []
    xs = group_x(key.seats)
    for row in range(1, key.rows + 1):
        y = row_top(row, key.rows) + (row_height(key.rows) - BOX) / 2
        for place in range(key.seats):
            out.append(Box("finish", row, place, xs["finish"] + place * PITCH, y))
        for k in range(POINT_BOXES):
            out.append(Box("point", row, k, xs["points"] + k * PITCH, y))
        for pair in range(BURN_PAIRS):
            burner, burned = burn_x(key.seats, pair, key.outcomes)
            out.append(Box("burner", row, pair, burner, y))
            out.append(Box("burned", row, pair, burned, y))
            if key.outcomes:
                out.append(Box("outcome", row, pair, outcome_x(key.seats, pair), y))
    return out


def event_boxes(key: SheetKey) -> list[Box]:
    """The event strip's boxes (none on an older sheet), column by column, line by line."""
    if not key.events:
        return []
    out = []
    for kind, (x, parts) in EVENT_COLUMNS.items():
        for line in range(EVENT_LINES):
            y = EVENT_TOP + line * EVENT_PITCH
            out += [
                Box(f"{kind}_{part}", 0, line, x + dx, y, part in DEAL_PARTS) for part, dx in parts
            ]
    return out


def every_box(key: SheetKey) -> list[Box]:
    """The rows' boxes, then the event strip's."""
    return boxes(key) + event_boxes(key)


def is_event(name: str) -> bool:
    """Whether a box name, whole ("0.s_by.1") or within its row ("s_by.1"), is an event box."""
    parts = name.split(".")
    field = parts[1] if len(parts) == 3 else parts[0]
    return field[:2] in {f"{kind}_" for kind in EVENT_COLUMNS}


def full_name(row: int, name: str) -> str:
    """A box's whole name from its name within a deal's row: an event box's row is 0."""
    return f"0.{name}" if is_event(name) else f"{row}.{name}"
