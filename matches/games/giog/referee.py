"""The referee's form for a Giog table: pieces won per seat, beheaded seats, an optional hand
record, checked live by htmx against the Giog engine (errors carry their G rule id).

The shared referee pages (`matches/views/referee/table.py`) use it through `GiogAdapter.result_form`;
a hand is a `Deal` of the table's match, reported through `matches.results.submit`.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from matches.games.giog.engine.outcome import OUTCOME_FORMAT
from matches.games.giog.messages import MESSAGES as CODE_TEXT
from matches.games.giog.messages import RULE_NAMES
from matches.games.giog.standings import numbered
from matches.kernel.games.adapter import describe_error
from matches.kernel.json_text import DocumentError, parse_json_text
from matches.kernel.reports import ResultError

MAX_HAND_RECORD = 512 * 1024
MAX_WON = 32


def _int(value) -> int | None:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if -MAX_WON <= number <= MAX_WON else None


@dataclass
class HandEntry:
    seats: list[int]
    won: dict[int, int | None] = field(default_factory=dict)
    raw: dict[int, str] = field(default_factory=dict)
    beheaded: list[int] = field(default_factory=list)
    hand_record_text: str = ""
    idempotency_key: str = ""
    reason: str = ""
    form_errors: list[dict] = field(default_factory=list)

    @classmethod
    def blank(cls, seats: list[int]) -> HandEntry:
        return cls(seats=seats, idempotency_key=uuid.uuid4().hex)

    @classmethod
    def from_post(cls, seats: list[int], data, files=None) -> HandEntry:
        entry = cls(seats=seats)
        for seat in seats:
            text = (data.get(f"won_{seat}") or "").strip()[:10]
            entry.raw[seat] = text
            entry.won[seat] = _int(text) if text else None
            if text and entry.won[seat] is None:
                entry.form_errors.append(
                    {
                        "rule": "G10",
                        "code": "bad_won",
                        "message": f"seat {seat}: {text!r} is not a count",
                        "params": {"seat": seat},
                    }
                )
        entry.beheaded = [s for s in seats if data.get(f"beheaded_{s}")]
        entry.hand_record_text = (data.get("hand_record") or "")[:MAX_HAND_RECORD]
        upload = (files or {}).get("hand_record_file")
        if upload is not None and upload.size:
            if upload.size > MAX_HAND_RECORD:
                entry.form_errors.append(
                    {
                        "rule": None,
                        "code": "bad_document",
                        "message": "the hand record file is too large",
                    }
                )
            else:
                entry.hand_record_text = upload.read().decode("utf-8", errors="replace")
        entry.idempotency_key = (data.get("idempotency_key") or uuid.uuid4().hex)[:100]
        return entry

    @property
    def has_outcome(self) -> bool:
        return any(v is not None for v in self.won.values()) or bool(self.beheaded)

    def summary(self) -> dict | None:
        """The giog-outcome/1 summary; None when only a hand record was given."""
        if not self.has_outcome and self.hand_record_text.strip():
            return None
        return {
            "format": OUTCOME_FORMAT,
            "players": len(self.seats),
            "won": {str(s): self.won[s] for s in self.seats if self.won.get(s) is not None},
            "beheaded": list(self.beheaded),
        }

    def problems(self) -> list[dict]:
        return list(self.form_errors)

    def play_log(self) -> dict | None:
        return self.hand_record()

    def hand_record(self) -> dict | None:
        text = self.hand_record_text.strip()
        if not text:
            return None
        try:
            document = parse_json_text(text)  # the API's limits: nesting depth, NUL
        except DocumentError as exc:
            raise ResultError("bad_document", f"the hand record is {exc}")
        if not isinstance(document, dict):
            raise ResultError("bad_document", "the hand record must be a JSON object (giog-hand/1)")
        return document


def describe(errors: list[dict]) -> list[dict]:
    return [
        {
            **e,
            "rule_name": RULE_NAMES.get(e.get("rule") or "", ""),
            "text": describe_error(CODE_TEXT, e),
        }
        for e in errors
    ]


def hand_rows(rows: list[dict], names: dict) -> list[dict]:
    """The match's deal rows with each final hand's places, pieces won, points and beheadings."""
    described = []
    for row in rows:
        final = row["final"]
        places = []
        if final is not None:
            verdict = final.verdict or {}
            points, won = verdict.get("points") or {}, verdict.get("won") or {}
            beheaded = set(verdict.get("beheaded") or [])
            for place, group in numbered(verdict.get("places") or []):
                for seat in group:
                    places.append(
                        {
                            "place": place,
                            "seat": seat,
                            "name": names.get(seat),
                            "won": won.get(str(seat)),
                            "points": points.get(str(seat)),
                            "beheaded": seat in beheaded,
                        }
                    )
        described.append({**row, "places": places})
    return described


class ResultForm:
    """The Giog hand form on the referee's phone and the organiser's correction page (the
    shared flow is `matches/views/referee/table.py`)."""

    templates = {
        "page": "giog/referee/table.html",
        "form": "giog/referee/hand_form.html",
        "correct": "giog/referee/correct.html",
        "summary": "giog/referee/_hand_summary.html",
    }

    @staticmethod
    def _seat_numbers(table) -> list[int]:
        return list(table.seats.order_by("seat").values_list("seat", flat=True))

    def blank(self, table) -> HandEntry:
        return HandEntry.blank(self._seat_numbers(table))

    def from_post(self, table, data, files) -> HandEntry:
        return HandEntry.from_post(self._seat_numbers(table), data, files)

    def from_report(self, table, report) -> HandEntry:
        """The entry a correction starts from: the result in force, to edit what differs."""
        seats = self._seat_numbers(table)
        entry = HandEntry.blank(seats)
        summary = (report.summary if report else None) or {}
        for seat in seats:
            value = (summary.get("won") or {}).get(str(seat))
            if value is not None:
                entry.won[seat], entry.raw[seat] = value, str(value)
        entry.beheaded = [s for s in seats if s in (summary.get("beheaded") or [])]
        return entry

    def from_sheet(self, table, row: dict) -> HandEntry:
        """The entry a photographed sheet's hand row fills (matches/games/giog/sheet.py): the
        counts and beheaded seats as read; a seat not read stays empty for a person."""
        seats = self._seat_numbers(table)
        entry = HandEntry.blank(seats)
        for seat in seats:
            count = (row.get("won") or {}).get(str(seat))
            if isinstance(count, int):
                entry.won[seat], entry.raw[seat] = count, str(count)
        entry.beheaded = [s for s in seats if s in (row.get("beheaded") or [])]
        return entry

    def describe(self, problems: list[dict]) -> list[dict]:
        return describe(problems)

    def summary_context(self, report, seat_names: dict) -> dict:
        return {"report": report, "verdict": report.verdict or {}}

    #: the ids of the form, its submit button and its deal's heading (the page's script and tests
    #: find them)
    form_ids = {"form": "hand-form", "submit": "submit-hand", "title": "hand-title"}

    def verdict_line(self, checked) -> str:
        """The verdict of a consistent hand in a line: each seat's points."""
        points = checked.verdict.points_by_seat if checked else {}
        return " · ".join(
            _("%(s)s号") % {"s": seat} + f" {value}" + _("分") for seat, value in points.items()
        )

    def context(self, context: dict) -> dict:
        entry, seats = context["entry"], context["seats"]
        names = {s["seat"]: s["player"].name for s in seats}
        return {
            "form_template": self.templates["form"],
            "form_ids": self.form_ids,
            "verdict_line": self.verdict_line(context.get("checked")),
            "deal_rows": hand_rows(context.get("deal_rows") or [], names),
            "entry_seats": [
                {**s, "won": entry.raw.get(s["seat"], ""), "beheaded": s["seat"] in entry.beheaded}
                for s in seats
            ],
        }
