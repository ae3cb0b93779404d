"""The verdicts of the Gou Ji engine as frozen values (deal-record.md, "Verdict").

`to_json()` gives exactly the spec's JSON object (key order included, so the command line and
`/api/v1/rules/*` print what they always printed); `from_json()` reads it back into an equal
value. The site stores `GoujiDealVerdict` (a settled summary, judged by its replay when a play
log came with it) and reads it only through the adapter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from matches.kernel.engine_errors import JSONObject, Mismatch, RuleError


@dataclass(frozen=True)
class UnionScores:
    """R31–R33: each union's deal score."""

    a: int
    b: int
    #: R32 names the union that strung three first ({"B": 4, "A": -4}); kept so that the JSON
    #: reads as it always has, but no part of the value (PostgreSQL's jsonb sorts the keys)
    b_first: bool = field(default=False, compare=False)

    def to_json(self) -> JSONObject:
        if self.b_first:
            return {"B": self.b, "A": self.a}
        return {"A": self.a, "B": self.b}

    @classmethod
    def from_json(cls, data: JSONObject) -> UnionScores:
        return cls(a=data["A"], b=data["B"], b_first=next(iter(data)) == "B")


@dataclass(frozen=True)
class Tribute:
    """One entry of the ledger owed at the start of the next deal (R35–R42). In a pooled place
    tribute (R38 `pool`) the payer puts cards in (`pool="put"`, no receiver) and the winners
    pick them out in order (`pool="pick"`, `pick` 1, 2, no payer)."""

    payer: int | None
    receiver: int | None
    kind: str  # suffocation | burn | point | place | string_three
    cards: int
    pool: str | None = None
    pick: int | None = None

    def to_json(self) -> JSONObject:
        data: JSONObject = {
            "from": self.payer,
            "to": self.receiver,
            "kind": self.kind,
            "cards": self.cards,
        }
        if self.pool is not None:
            data["pool"] = self.pool
        if self.pick is not None:
            data["pick"] = self.pick
        return data

    @classmethod
    def from_json(cls, data: JSONObject) -> Tribute:
        return cls(
            payer=data["from"],
            receiver=data["to"],
            kind=data["kind"],
            cards=data["cards"],
            pool=data.get("pool"),
            pick=data.get("pick"),
        )


def ledger_to_json(ledger: tuple[Tribute, ...]) -> list[JSONObject]:
    return [entry.to_json() for entry in ledger]


def ledger_from_json(data: list[JSONObject] | None) -> tuple[Tribute, ...]:
    return tuple(Tribute.from_json(entry) for entry in data or ())


@dataclass(frozen=True)
class Burn:
    burner: int
    burned: int
    outcome: str | None  # success | counter | stopped | false; None while undecided

    def to_json(self) -> JSONObject:
        return {"burner": self.burner, "burned": self.burned, "outcome": self.outcome}

    @classmethod
    def from_json(cls, data: JSONObject) -> Burn:
        return cls(burner=data["burner"], burned=data["burned"], outcome=data["outcome"])


@dataclass(frozen=True)
class Suffocation:
    seat: int
    by: int

    def to_json(self) -> JSONObject:
        return {"seat": self.seat, "by": self.by}

    @classmethod
    def from_json(cls, data: JSONObject) -> Suffocation:
        return cls(seat=data["seat"], by=data["by"])


def _scores_json(scores: UnionScores | None) -> JSONObject | None:
    return scores.to_json() if scores is not None else None


def _scores(data: JSONObject | None) -> UnionScores | None:
    return UnionScores.from_json(data) if data else None


@dataclass(frozen=True)
class SettleVerdict:
    """The verdict on a `gouji-outcome/1` summary: every inconsistency, or the scores and the
    tributes the deal leaves."""

    valid: bool
    errors: tuple[RuleError, ...] = ()
    union_scores: UnionScores | None = None
    tributes: tuple[Tribute, ...] = ()

    def to_json(self) -> JSONObject:
        return {
            "valid": self.valid,
            "errors": [error.to_json() for error in self.errors],
            "union_scores": _scores_json(self.union_scores),
            "tributes": ledger_to_json(self.tributes),
        }

    @classmethod
    def from_json(cls, data: JSONObject) -> SettleVerdict:
        return cls(
            valid=data["valid"],
            errors=tuple(RuleError.from_json(e) for e in data.get("errors") or ()),
            union_scores=_scores(data.get("union_scores")),
            tributes=ledger_from_json(data.get("tributes")),
        )


@dataclass(frozen=True)
class ReplayVerdict:
    """The verdict on a `gouji-deal/1` record, replayed hand by hand."""

    valid: bool
    complete: bool = False
    error: RuleError | None = None
    finish: tuple[int, ...] = ()
    points: tuple[int, ...] = ()
    burns: tuple[Burn, ...] = ()
    suffocated: tuple[Suffocation, ...] = ()
    notes: tuple[str, ...] = ()
    union_scores: UnionScores | None = None
    tributes: tuple[Tribute, ...] = ()
    mismatches: tuple[Mismatch, ...] = ()
    #: R34: which special declarations failed; only when a seat declared special
    special_failed: tuple[int, ...] | None = None

    def to_json(self) -> JSONObject:
        data: JSONObject = {
            "valid": self.valid,
            "complete": self.complete,
            "error": self.error.to_json() if self.error is not None else None,
            "finish": list(self.finish),
            "points": list(self.points),
            "burns": [burn.to_json() for burn in self.burns],
            "suffocated": [entry.to_json() for entry in self.suffocated],
            "notes": list(self.notes),
            "union_scores": _scores_json(self.union_scores),
            "tributes": ledger_to_json(self.tributes),
            "mismatches": [m.to_json() for m in self.mismatches],
        }
        if self.special_failed is not None:
            data["special_failed"] = list(self.special_failed)
        return data

    @classmethod
    def from_json(cls, data: JSONObject) -> ReplayVerdict:
        special = data.get("special_failed")
        return cls(
            valid=data.get("valid", False),
            complete=data.get("complete", False),
            error=RuleError.from_json(data["error"]) if data.get("error") else None,
            finish=tuple(data.get("finish") or ()),
            points=tuple(data.get("points") or ()),
            burns=tuple(Burn.from_json(b) for b in data.get("burns") or ()),
            suffocated=tuple(Suffocation.from_json(s) for s in data.get("suffocated") or ()),
            notes=tuple(data.get("notes") or ()),
            union_scores=_scores(data.get("union_scores")),
            tributes=ledger_from_json(data.get("tributes")),
            mismatches=tuple(Mismatch.from_json(m) for m in data.get("mismatches") or ()),
            special_failed=tuple(special) if special is not None else None,
        )


@dataclass(frozen=True)
class GoujiDealVerdict:
    """What the site stores for a deal report: the settled summary (with the match's R40
    streak), and, when a play log came with it, the replay, which judges the deal where the
    two differ (`settled_from="replay"`)."""

    settled: SettleVerdict
    replay: ReplayVerdict | None = None
    settled_from: str | None = None

    @property
    def valid(self) -> bool:
        return self.settled.valid

    def side_scores(self) -> tuple[int | None, int | None]:
        scores = self.settled.union_scores
        return (scores.a, scores.b) if scores is not None else (None, None)

    def settles_like(self, other: object) -> bool:
        """The same scores and the same tributes (a recheck finds nothing to correct)."""
        return (
            isinstance(other, GoujiDealVerdict)
            and self.settled.union_scores == other.settled.union_scores
            and self.settled.tributes == other.settled.tributes
        )

    def report_json(self) -> JSONObject:
        """The scores and tributes a report shows in the results API."""
        return {
            "union_scores": _scores_json(self.settled.union_scores),
            "tributes": ledger_to_json(self.settled.tributes),
        }

    def to_json(self) -> JSONObject:
        data = self.settled.to_json()
        if self.replay is not None:
            data["replay"] = self.replay.to_json()
        if self.settled_from is not None:
            data["settled_from"] = self.settled_from
        return data

    @classmethod
    def from_json(cls, data: JSONObject) -> GoujiDealVerdict:
        """Also reads a stored verdict written before a field existed (missing: empty)."""
        replay = data.get("replay")
        return cls(
            settled=SettleVerdict.from_json({"valid": False, **data}),
            replay=ReplayVerdict.from_json(replay) if replay is not None else None,
            settled_from=data.get("settled_from"),
        )


@dataclass(frozen=True)
class GoujiTally:
    """One settled Gou Ji deal's own figures, as the standings read them: the site stores this
    as the deal tally's `detail`, next to what every game's tally has (the places, the two
    unions' scores). The seats that opened a point, the seats of successful burns and
    counter-burns (a seat twice for two), the union that strung three ("A"/"B", None when
    nobody did) and the streak of strings before this deal (R40), and the ledger the deal leaves
    for the next one (R35-R43)."""

    points: tuple[int, ...] = ()
    burners: tuple[int, ...] = ()
    strung: str | None = None
    streak: int = 0
    tributes: tuple[Tribute, ...] = ()

    def to_json(self) -> JSONObject:
        return {
            "points": list(self.points),
            "burners": list(self.burners),
            "strung": self.strung,
            "streak": self.streak,
            "tributes": ledger_to_json(self.tributes),
        }

    @classmethod
    def from_json(cls, data: JSONObject) -> GoujiTally:
        return cls(
            points=tuple(data.get("points") or ()),
            burners=tuple(data.get("burners") or ()),
            strung=data.get("strung") or None,
            streak=data.get("streak") or 0,
            tributes=ledger_from_json(data.get("tributes")),
        )
