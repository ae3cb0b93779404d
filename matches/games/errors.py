"""The three kinds of failure an engine reports.

- `RuleViolation`: the input is readable but breaks a rule (an illegal play, an inconsistent
  summary). It carries the rule id from the spec (R9, G8, ...) and a stable machine code.
- `BadDocument`: the input cannot be read at all (bad JSON, unknown field, wrong type, bad card
  character). Verdicts report it as code `bad_document`.
- `EngineBug`: an internal invariant broke. This is a bug in the engine, never the user's fault,
  so it is kept apart from the two above and must never be turned into a verdict.
"""

from __future__ import annotations


class RuleViolation(Exception):
    def __init__(self, rule: str | None, code: str, message: str, **params):
        super().__init__(message)
        self.rule = rule
        self.code = code
        self.message = message
        # The numbers of the message (seats, places, counts), for a translation to fill in.
        self.params = params

    def as_dict(self) -> dict:
        error = {"rule": self.rule, "code": self.code, "message": self.message}
        if self.params:
            error["params"] = dict(self.params)
        return error


class BadDocument(Exception):
    code = "bad_document"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message}


class EngineBug(AssertionError):
    """An invariant of the engine itself broke."""


def as_published(verdict: dict) -> dict:
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


def _without_params(error):
    if not isinstance(error, dict):
        return error
    return {key: value for key, value in error.items() if key != "params"}
