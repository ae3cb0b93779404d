"""The three kinds of failure an engine reports.

- `RuleViolation`: the input is readable but breaks a rule (an illegal play, an inconsistent
  summary). It carries the rule id from the spec (R9, G8, ...) and a stable machine code.
- `BadDocument`: the input cannot be read at all (bad JSON, unknown field, wrong type, bad card
  character). Verdicts report it as code `bad_document`.
- `EngineBug`: an internal invariant broke. This is a bug in the engine, never the user's fault,
  so it is kept apart from the two above and must never be turned into a verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: a JSON object as `json.loads` gives it
JSONObject = dict[str, Any]


class NoAction:
    """A summary's error has no play-log step at all (its JSON has no `action` key); a replay's
    setup error has `"action": null`."""

    def __repr__(self) -> str:
        return "NO_ACTION"


NO_ACTION = NoAction()


@dataclass(frozen=True)
class RuleError:
    """One broken rule in a verdict: rule id (None when no rule applies), stable machine code,
    the engine's English message and its numbers (`params`, for a translation to fill in);
    `action`, the 0-based step of a replay's error (None: the setup), or NO_ACTION."""

    rule: str | None
    code: str
    message: str
    params: JSONObject = field(default_factory=dict)
    action: int | None | NoAction = NO_ACTION

    def to_json(self) -> JSONObject:
        error: JSONObject = {} if isinstance(self.action, NoAction) else {"action": self.action}
        error.update({"rule": self.rule, "code": self.code, "message": self.message})
        if self.params:
            error["params"] = dict(self.params)
        return error

    @classmethod
    def from_json(cls, data: JSONObject) -> RuleError:
        return cls(
            rule=data.get("rule"),
            code=data["code"],
            message=data.get("message", ""),
            params=dict(data.get("params") or {}),
            action=data["action"] if "action" in data else NO_ACTION,
        )


@dataclass(frozen=True)
class Mismatch:
    """A field of `claimed` that differs from the replay; the values are as the JSON has them."""

    field: str
    claimed: Any
    replayed: Any

    def to_json(self) -> JSONObject:
        return {"field": self.field, "claimed": self.claimed, "replayed": self.replayed}

    @classmethod
    def from_json(cls, data: JSONObject) -> Mismatch:
        return cls(field=data["field"], claimed=data["claimed"], replayed=data["replayed"])


class RuleViolation(Exception):
    def __init__(self, rule: str | None, code: str, message: str, **params: Any):
        super().__init__(message)
        self.rule = rule
        self.code = code
        self.message = message
        # The numbers of the message (seats, places, counts), for a translation to fill in.
        self.params = params

    def as_dict(self) -> JSONObject:
        return self.as_error().to_json()

    def as_error(self, action: int | None | NoAction = NO_ACTION) -> RuleError:
        """The violation as a verdict lists it; `action`: the play log's step (a replay's)."""
        return RuleError(self.rule, self.code, self.message, dict(self.params), action)


class BadDocument(Exception):
    code = "bad_document"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def as_dict(self) -> JSONObject:
        return {"code": self.code, "message": self.message}


class EngineBug(AssertionError):
    """An invariant of the engine itself broke."""


def as_published(verdict: dict[str, Any]) -> dict[str, Any]:
    """The verdict as the deal-record spec writes it, for the command line and /rules/….

    Errors carry their `params` inside the app, so that each language's message can fill in the
    numbers; the spec's error object has no such field, and other tools read that JSON, so the
    published verdict leaves it out.
    """
    published = dict(verdict)
    if isinstance(verdict.get("error"), dict):
        published["error"] = _without_params(verdict["error"])
    if isinstance(verdict.get("errors"), list):
        published["errors"] = [_without_params(error) for error in verdict["errors"]]
    return published


def _without_params(error: Any) -> Any:
    if not isinstance(error, dict):
        return error
    return {key: value for key, value in error.items() if key != "params"}
