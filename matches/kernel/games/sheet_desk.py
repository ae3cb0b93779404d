"""What a game's score sheet hands the desk's stack (docs/scoresheets.md, "The desk's stack";
matches/views/organiser/sheet_stack.py): how a deal's row of boxes is laid out on the desk's
page, the lines beside the rows (Gou Ji's event strip), and the game's side of the typing: the
boxes typed or read back into a row as the reader gives it (what `ResultForm.from_sheet`
takes), a report's summary back into boxes, and what the rules say of a row alone.

A game's sheet (`GameAdapter.score_sheet`) has `desk`: an object of the `SheetDesk` shape, or
None when the desk's stack does not type its sheets. The stack asks it and never the game's
name. Box names are the reader's ("finish.0", "won_units.2"); a deal's box is posted as
"d<deal>.<name>", a line's beside the rows as "d0.<name>"."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class BoxGroup:
    """Boxes that go together on the desk's page, as on the paper: a heading and the boxes'
    names in the order the keyboard moves through them. `numbered`: a place's number over each
    box (a finishing order); `arrows`: an arrow printed after these boxes (0-based: a burner →
    the burned)."""

    label: str
    names: tuple[str, ...]
    numbered: bool = False
    arrows: frozenset[int] = frozenset()


@dataclass(frozen=True)
class StripColumn:
    """A column of the lines beside the rows (Gou Ji's event strip): its kind, its heading, and
    a group of boxes a line."""

    kind: str
    heading: str
    lines: tuple[BoxGroup, ...]


@dataclass(frozen=True)
class Strip:
    legend: str
    columns: tuple[StripColumn, ...]


class SheetDesk(Protocol):
    def groups(self, seats: int) -> list[BoxGroup]:
        """A deal row's boxes at a table of `seats` seats, in groups."""
        ...

    def strip(self) -> Strip | None:
        """The lines beside the rows (their boxes posted as "d0.<name>"), None for none."""
        ...

    def rows(
        self, values: dict[str, str], seats: int, deals: int, finals: set[int]
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The written rows of the boxes typed ("d2.finish.0" -> "3"), each a dict with
        `number` and what the game's `ResultForm.from_sheet` takes, and what the boxes alone
        say is wrong (problems with `rule`, `code`, `text`, and `deal` for a row's). Deals in
        `finals` are skipped."""
        ...

    def values(self, summaries: list[tuple[int, dict[str, Any]]]) -> dict[str, str]:
        """The boxes of the reports that went in ((deal, summary), in deal order)."""
        ...

    def check(self, row: dict[str, Any], seats: int) -> list[dict[str, Any]]:
        """What the game's rules say of a written row alone, before it is sent: the engine's
        errors (rule, code, message, params), [] when the row needs the deals before it."""
        ...
