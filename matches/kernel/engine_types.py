"""The values a game hands the shared code, as frozen types every game's engine and adapter
share: a deal's verdict (`DealVerdict`), a settled deal's tally (`Tally`, its `Places`), the
game's settings (`GameSettings`), a table of two sides (`TableShape`) and what the public pages read for a game (`PublicTable`,
`PlayedSeat`). Pure Python: the kernel's report and tally writers import these, not the
adapter."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from matches.kernel.engine_errors import JSONObject


@dataclass(frozen=True)
class TableShape:
    """A table of two sides (unions) as a game seats it: the side ("A" or "B") of each seat,
    seat 1 first. Everything that counts seats or union members asks this, never a number."""

    sides: tuple[str, ...]

    @property
    def size(self) -> int:
        """Seats at a full table."""
        return len(self.sides)

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(range(1, self.size + 1))

    @property
    def union_size(self) -> int:
        """Players of one union (a side holds half the table)."""
        return self.size // 2

    def side_of(self, seat: int) -> str:
        return self.sides[seat - 1]

    def seats_of(self, side: str) -> tuple[int, ...]:
        return tuple(seat for seat, s in enumerate(self.sides, start=1) if s == side)


@dataclass(frozen=True)
class PublicTable:
    """What the public table page read for the game (`public_table`): seat number -> seat,
    deal id -> tally and the numbers of the deals with a play log (both empty while the
    round's results are hidden)."""

    seats: dict[int, Any]
    visible: bool
    tallies: dict[int, Any] = field(default_factory=dict)
    logged: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class PlayedSeat:
    """A player's seat in a visible round for `public_player`, with its table's tallies (deal 1
    first; empty while the round's results are hidden)."""

    seat: Any
    visible: bool
    tallies: list[Any] = field(default_factory=list)


class GameSettings(Protocol):
    """A game's per-event settings (`Event.game_settings`) as its own frozen type."""

    def to_json(self) -> JSONObject: ...


@dataclass(frozen=True)
class NoSettings:
    """The settings of a game that has none: `{}`."""

    def to_json(self) -> JSONObject:
        return {}


class DealVerdict(Protocol):
    """A game's verdict on one deal report, as its engine's frozen type (`to_json` is what a
    `DealReport.verdict` stores; the adapter's `read_verdict` reads it back)."""

    @property
    def valid(self) -> bool: ...

    def side_scores(self) -> tuple[int | None, int | None]:
        """(A, B): the two sides' scores of the deal, or (None, None) for a game without."""
        ...

    def settles_like(self, other: object) -> bool:
        """Whether `other` settles the deal the same way (a recheck has nothing to correct)."""
        ...

    def report_json(self) -> JSONObject:
        """What the results API shows of a report next to its state."""
        ...

    def to_json(self) -> JSONObject: ...


#: seats grouped by place, best first; the seats of a group share their place (Giog's G11)
Places = tuple[tuple[int, ...], ...]


def places_to_json(places: Places) -> list[list[int]]:
    return [list(group) for group in places]


def places_from_json(data: Any) -> Places:
    """`DealTally.places` as stored: a list of groups of seats."""
    return tuple(tuple(group) for group in data or ())


class TallyDetail(Protocol):
    """A game's own figures of one settled deal, as its engine's frozen type (`to_json` is what
    `DealTally.detail` stores; the adapter's `read_tally_detail` reads it back)."""

    def to_json(self) -> JSONObject: ...


D_co = TypeVar("D_co", bound=TallyDetail, covariant=True)


@dataclass(frozen=True)
class Tally(Generic[D_co]):
    """One settled deal as the standings read it (a `DealTally` row): what every game has, the
    places (seats grouped best first) and the two sides' scores (None in a game whose sides
    score nothing, Giog), and the game's own typed document (`detail`)."""

    places: Places
    detail: D_co
    score_a: int | None = None
    score_b: int | None = None

    @property
    def seats(self) -> tuple[int, ...]:
        """Every seat that played, best first."""
        return tuple(seat for group in self.places for seat in group)

    def place_of(self, seat: int) -> int | None:
        """The seat's place, 1 first; a shared place counts its seats (1, 2, 2, 4)."""
        ahead = 0
        for group in self.places:
            if seat in group:
                return ahead + 1
            ahead += len(group)
        return None
