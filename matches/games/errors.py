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
