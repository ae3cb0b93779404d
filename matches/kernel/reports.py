"""What the results service answers besides a stored report: a refusal (`ResultError`) and the
engine's reading of a report that has not been stored (`Checked`). Shared by every game."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from matches.kernel.engine_types import DealVerdict


class ResultError(Exception):
    """A refused request, with a stable code, an HTTP status and the rule id where one applies.

    `errors` lists every inconsistency the engine found; `verdict` is the engine's verdict.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        status: int = 400,
        rule: str | None = None,
        errors: list | None = None,
        verdict: dict | None = None,
        retry_after: int | None = None,
        params: dict | None = None,
    ):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.rule = rule
        self.errors = errors or []
        self.verdict = verdict
        self.retry_after = retry_after  # seconds, for a 429
        self.params = params or {}  # the numbers of the message, for its translation

    def as_dict(self) -> dict:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.rule:
            error["rule"] = self.rule
        if self.errors:
            error["errors"] = self.errors
        if self.verdict is not None:
            error["verdict"] = self.verdict
        return error

    def problems(self) -> list[dict]:
        """The refusal as the list of problems a form shows."""
        return self.errors or [
            {"rule": self.rule, "code": self.code, "message": self.message, "params": self.params}
        ]


@dataclass
class Checked:
    """A report as the game's engine read it; nothing is stored yet."""

    summary: dict
    play_log: dict | None
    verdict: DealVerdict
    errors: list = field(default_factory=list)

    @property
    def accepted(self) -> bool:
        return not self.errors

    @property
    def side_scores(self) -> tuple[int | None, int | None]:
        """(A, B): the two sides' scores of the deal; (None, None) for a game without."""
        return self.verdict.side_scores()


def require_documents(summary, play_log, summary_format: str, log_format: str) -> None:
    """Every game's first check: at least one document, and each a JSON object."""
    if summary is None and play_log is None:
        raise ResultError(
            "bad_document", f"send a summary ({summary_format}), a play log ({log_format}) or both"
        )
    for name, doc in (("summary", summary), ("play_log", play_log)):
        if doc is not None and not isinstance(doc, dict):
            raise ResultError("bad_document", f"the {name} must be a JSON object")
