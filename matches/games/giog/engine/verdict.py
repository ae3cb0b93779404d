"""The verdicts of the Giog engine as frozen values (giog.md, "Hand record").

`to_json()` gives exactly the spec's JSON object, key order included (the command line and
`/api/v1/rules/giog/*` print it); `from_json()` reads it back into an equal value. The site
stores `GiogDealVerdict` and reads it only through the adapter.
"""

from __future__ import annotations

from dataclasses import dataclass

from matches.kernel.engine_errors import JSONObject, Mismatch, RuleError

#: seats grouped by place, best first (G11, G12)
Places = tuple[tuple[int, ...], ...]


def places_to_json(places: Places) -> list[list[int]]:
    return [list(group) for group in places]


def places_from_json(data: list[list[int]] | None) -> Places:
    return tuple(tuple(group) for group in data or ())


def _by_seat_json(pairs: tuple[tuple[int, object], ...]) -> JSONObject:
    return {str(seat): value for seat, value in pairs}


@dataclass(frozen=True)
class Trick:
    leader: int
    winner: int
    pieces: int  # how many pieces the winner took

    def to_json(self) -> JSONObject:
        return {"leader": self.leader, "winner": self.winner, "pieces": self.pieces}

    @classmethod
    def from_json(cls, data: JSONObject) -> Trick:
        return cls(leader=data["leader"], winner=data["winner"], pieces=data["pieces"])


@dataclass(frozen=True)
class SummaryVerdict:
    """The verdict on a `giog-outcome/1` summary: every inconsistency, or the places."""

    valid: bool
    errors: tuple[RuleError, ...] = ()
    places: Places = ()

    def to_json(self) -> JSONObject:
        return {
            "valid": self.valid,
            "errors": [error.to_json() for error in self.errors],
            "places": places_to_json(self.places),
        }

    @classmethod
    def from_json(cls, data: JSONObject) -> SummaryVerdict:
        return cls(
            valid=data.get("valid", False),
            errors=tuple(RuleError.from_json(e) for e in data.get("errors") or ()),
            places=places_from_json(data.get("places")),
        )


@dataclass(frozen=True)
class HandVerdict:
    """The verdict on a replayed `giog-hand/1` record. `won`: (seat, pieces) for every seat,
    zeros included, in seat order."""

    valid: bool
    complete: bool = False
    error: RuleError | None = None
    tricks: tuple[Trick, ...] = ()
    won: tuple[tuple[int, int], ...] = ()
    beheaded: tuple[int, ...] = ()
    places: Places = ()
    mismatches: tuple[Mismatch, ...] = ()

    def to_json(self) -> JSONObject:
        return {
            "valid": self.valid,
            "complete": self.complete,
            "error": self.error.to_json() if self.error is not None else None,
            "tricks": [trick.to_json() for trick in self.tricks],
            "won": _by_seat_json(self.won),
            "beheaded": list(self.beheaded),
            "places": places_to_json(self.places),
            "mismatches": [m.to_json() for m in self.mismatches],
        }

    @classmethod
    def from_json(cls, data: JSONObject) -> HandVerdict:
        return cls(
            valid=data.get("valid", False),
            complete=data.get("complete", False),
            error=RuleError.from_json(data["error"]) if data.get("error") else None,
            tricks=tuple(Trick.from_json(t) for t in data.get("tricks") or ()),
            won=tuple((int(seat), n) for seat, n in (data.get("won") or {}).items()),
            beheaded=tuple(data.get("beheaded") or ()),
            places=places_from_json(data.get("places")),
            mismatches=tuple(Mismatch.from_json(m) for m in data.get("mismatches") or ()),
        )


@dataclass(frozen=True)
class GiogDealVerdict:
    """What the site stores for a hand report: the checked summary, the replay when a hand
    record came with it, the pieces won and beheaded seats as reported, and each seat's
    tournament points for the hand as shown ("3", "1.5"; the standings add exact fractions)."""

    checked: SummaryVerdict
    replay: HandVerdict | None = None
    won: tuple[tuple[int, int], ...] = ()
    beheaded: tuple[int, ...] = ()
    points: tuple[tuple[int, str], ...] = ()

    @property
    def valid(self) -> bool:
        return self.checked.valid

    @property
    def points_by_seat(self) -> JSONObject:
        """Seat ("1") -> the hand's points as shown, for the pages."""
        return _by_seat_json(self.points)

    def side_scores(self) -> tuple[int | None, int | None]:
        return None, None  # players sit as individuals: no sides with a score

    def settles_like(self, other: object) -> bool:
        return (
            isinstance(other, GiogDealVerdict)
            and self.checked.places == other.checked.places
            and self.points == other.points
        )

    def report_json(self) -> JSONObject:
        # The results API has always shown these two for every game; a hand has neither.
        return {"union_scores": None, "tributes": []}

    def to_json(self) -> JSONObject:
        data = self.checked.to_json()
        if self.replay is not None:
            data["replay"] = self.replay.to_json()
        data["won"] = _by_seat_json(self.won)
        data["beheaded"] = list(self.beheaded)
        data["points"] = _by_seat_json(self.points)
        return data

    @classmethod
    def from_json(cls, data: JSONObject) -> GiogDealVerdict:
        replay = data.get("replay")
        return cls(
            checked=SummaryVerdict.from_json(data),
            replay=HandVerdict.from_json(replay) if replay is not None else None,
            won=tuple((int(seat), n) for seat, n in (data.get("won") or {}).items()),
            beheaded=tuple(data.get("beheaded") or ()),
            points=tuple((int(seat), p) for seat, p in (data.get("points") or {}).items()),
        )


@dataclass(frozen=True)
class GiogTally:
    """One hand's own figures, as the standings read them: the site stores this as the deal
    tally's `detail`, next to the places every game's tally has (G11, G12). The pieces each
    seat won, (seat, pieces) in seat order, and the beheaded seats."""

    won: tuple[tuple[int, int], ...] = ()
    beheaded: tuple[int, ...] = ()

    @property
    def won_by_seat(self) -> dict[int, int]:
        return dict(self.won)

    def to_json(self) -> JSONObject:
        return {"won": _by_seat_json(self.won), "beheaded": list(self.beheaded)}

    @classmethod
    def from_json(cls, data: JSONObject) -> GiogTally:
        return cls(
            won=tuple((int(seat), n) for seat, n in (data.get("won") or {}).items()),
            beheaded=tuple(data.get("beheaded") or ()),
        )
