"""The high-card rules engine: pure Python, like the real games' engines (no Django)."""

from __future__ import annotations

import random
from dataclasses import dataclass

from matches.kernel.engine_errors import BadDocument, JSONObject, RuleError

OUTCOME_FORMAT = "highcard-outcome/1"
DEAL_FORMAT = "highcard-deal/1"


def _cards(doc) -> dict:
    if not isinstance(doc, dict) or not isinstance(doc.get("cards"), dict):
        raise BadDocument("a high-card document has a cards object")
    return doc["cards"]


def check_summary(doc) -> dict:
    """H1: each seat draws one card from 1 to 13; H2: no tie, the higher card wins."""
    cards = _cards(doc)
    errors = []
    for seat in ("1", "2"):
        value = cards.get(seat)
        if type(value) is not int or not 1 <= value <= 13:
            errors.append(
                {
                    "rule": "H1",
                    "code": "bad_card",
                    "message": f"seat {seat} needs a card from 1 to 13",
                }
            )
    if not errors and cards["1"] == cards["2"]:
        errors.append({"rule": "H2", "code": "tie", "message": "the two cards must differ"})
    if errors:
        return {"valid": False, "errors": errors, "winner": None, "union_scores": None}
    winner = 1 if cards["1"] > cards["2"] else 2
    return {
        "valid": True,
        "errors": [],
        "winner": winner,
        "union_scores": {"A": 1 if winner == 1 else -1, "B": 1 if winner == 2 else -1},
    }


@dataclass(frozen=True)
class HighCardVerdict:
    """The verdict as a frozen value, as the real engines have theirs."""

    valid: bool
    errors: tuple[RuleError, ...] = ()
    winner: int | None = None

    def side_scores(self) -> tuple[int | None, int | None]:
        if self.winner is None:
            return None, None
        return (1, -1) if self.winner == 1 else (-1, 1)

    def settles_like(self, other: object) -> bool:
        return isinstance(other, HighCardVerdict) and other.winner == self.winner

    def report_json(self) -> JSONObject:
        a, b = self.side_scores()
        return {"union_scores": None if a is None else {"A": a, "B": b}, "tributes": []}

    def to_json(self) -> JSONObject:
        return {
            "valid": self.valid,
            "errors": [error.to_json() for error in self.errors],
            "winner": self.winner,
            "union_scores": self.report_json()["union_scores"],
        }

    @classmethod
    def from_json(cls, data: JSONObject) -> HighCardVerdict:
        return cls(
            valid=data.get("valid", False),
            errors=tuple(RuleError.from_json(e) for e in data.get("errors") or ()),
            winner=data.get("winner"),
        )


@dataclass(frozen=True)
class HighCardTally:
    """One card's own figure, as the standings read it (a tally's `detail`): the winning seat
    (the places say it too; this is the game's document, kept small)."""

    winner: int

    def to_json(self) -> JSONObject:
        return {"winner": self.winner}

    @classmethod
    def from_json(cls, data: JSONObject) -> HighCardTally:
        return cls(winner=data["winner"])


class HighCardGame:
    name = "highcard"

    def check_summary(self, document: dict) -> dict:
        return check_summary(document)

    def replay(self, document: dict) -> dict:
        return check_summary(document)

    def selfplay(self, count: int, seed: int, **options):
        rng = random.Random(seed)
        for _ in range(count):
            first, second = rng.sample(range(1, 14), 2)
            yield {"format": DEAL_FORMAT, "cards": {"1": first, "2": second}}
