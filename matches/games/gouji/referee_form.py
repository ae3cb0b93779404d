"""The referee's deal form: what was tapped and ticked, turned into a gouji-outcome/1 summary.

The form keeps no state on the server: every re-render carries the whole entry in its fields
(the finishing order as "3,1,5", a row count for burns and suffocations), so a live check, a
full-page post without JavaScript and the final submit all read the same fields.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.utils.translation import gettext, ngettext, pgettext
from django.utils.translation import gettext_lazy as _

from matches.games.gouji.engine import seating
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.settle import (
    BURN_OUTCOMES,
    DECLARATIONS,
    OUTCOME_FORMAT,
    point_offsets,
)
from matches.games.gouji.engine.verdict import GoujiDealVerdict, ledger_to_json
from matches.games.gouji.messages import RULE_NAMES
from matches.games.gouji.messages import describe as describe_message
from matches.kernel.engine_errors import BadDocument
from matches.kernel.json_text import DocumentError, parse_json_text
from matches.kernel.reports import ResultError
from matches.paper import layout

#: the standard rule set's table, when none is given (R1); an eight-seat event's form has the
#: eight seats of its own rule set (R44, `table_seats`)
DEFAULT_PLAYERS = RuleSet().players
SEATS = seating.seats(DEFAULT_PLAYERS)
MAX_ROWS = 12
MAX_PLAY_LOG = 2 * 1024 * 1024

DECLARATION_LABELS = {"clear": _("明点"), "unclear": _("暗点"), "special": _("特殊")}
BURN_OUTCOME_LABELS = {
    "success": _("烧成"),
    "counter": _("反烧"),
    "stopped": _("被中断"),
    "false": _("烧失败"),
}


#: a 宣点 line's kind digit for a 特点 that failed (after DECLARATIONS' three)
FAILED_SPECIAL = len(DECLARATIONS) + 1


def _burn_outcome(digit) -> str:
    """A sheet's outcome digit as the deal record says it: blank (or no outcome) a success."""
    return layout.BURN_OUTCOME_DIGITS.get(digit, "success") if isinstance(digit, int) else "success"


def _seat(value, seats: tuple[int, ...] = SEATS) -> int | None:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        return None
    return seat if seat in seats else None


def table_seats(table) -> tuple[int, ...]:
    """The seats of the table's event (six, or eight under `players = 8`)."""
    event = table.round.event
    return event.adapter.table_shape(event).seats


def _rows(data, name: str) -> int:
    try:
        count = int(data.get(name, 1))
    except (TypeError, ValueError):
        count = 1
    return max(1, min(MAX_ROWS, count))


@dataclass
class DealEntry:
    finish: list[int] = field(default_factory=list)
    points: set[int] = field(default_factory=set)
    declarations: dict[int, str] = field(default_factory=dict)
    revolution: list[int] = field(default_factory=list)
    special_failed: set[int] = field(default_factory=set)  # R34: 特点 failed (rival got the lead)
    burns: list[dict] = field(default_factory=list)  # rows: burner, burned, outcome (may be blank)
    suffocated: list[dict] = field(default_factory=list)  # rows: seat, by
    play_log_text: str = ""
    idempotency_key: str = ""
    reason: str = ""
    form_errors: list[dict] = field(default_factory=list)
    #: the table's seats: every seat number the form reads is one of them
    seats: tuple[int, ...] = SEATS

    @classmethod
    def blank(cls, seats: tuple[int, ...] = SEATS) -> DealEntry:
        return cls(burns=[{}], suffocated=[{}], idempotency_key=uuid.uuid4().hex, seats=seats)

    @classmethod
    def from_sheet_row(cls, row: dict, seats: tuple[int, ...] = SEATS) -> DealEntry:
        """The entry a photographed sheet's row fills (`ResultForm.from_sheet`; the bench
        bench/scoresheets.py checks its reads the same way): the seats as read, in order, a
        duplicate kept so that the engine refuses it rather than the form hiding it."""
        entry = cls.blank(seats)
        entry.finish = [s for s in row.get("finish", []) if s in seats]
        entry.points = {s for s in row.get("points", []) if s in seats}
        # A burn's outcome digit (GJS3 sheets: blank or 1 烧成, 2 反烧, 3 被中断, 4 烧失败:
        # layout.BURN_OUTCOME_DIGITS); a digit that is none is a success, its box marked by the
        # reader.
        digits = list(row.get("burn_outcomes") or [])
        burns = row.get("burns", [])
        digits += [None] * (len(burns) - len(digits))
        entry.burns = [
            {"burner": b, "burned": d, "outcome": _burn_outcome(digit)}
            for (b, d), digit in zip(burns, digits)
            if b in seats and d in seats
        ] + [{"burner": None, "burned": None, "outcome": "success"}]
        # The event lines written for this deal: a suffocation's (seat, by), a revolution's
        # seat, a declaration's (seat, kind digit 1 明点 2 暗点 3 特点: DECLARATIONS' order;
        # 4 a 特点 that failed: declared 特点, listed in special_failed as the form's tick).
        entry.suffocated = [
            {"seat": s, "by": b} for s, b in row.get("suffocated", []) if s in seats and b in seats
        ] + [{"seat": None, "by": None}]
        entry.revolution = [s for s in row.get("revolution", []) if s in seats]
        entry.declarations = {
            s: DECLARATIONS[k - 1]
            for s, k in row.get("declarations", [])
            if s in seats and isinstance(k, int) and 1 <= k <= len(DECLARATIONS)
        }
        failed = {s for s, k in row.get("declarations", []) if s in seats and k == FAILED_SPECIAL}
        entry.declarations.update(dict.fromkeys(failed, "special"))
        entry.special_failed = failed
        return entry

    @classmethod
    def from_post(cls, data, files=None, seats: tuple[int, ...] = SEATS) -> DealEntry:
        entry = cls(seats=seats)

        def seat_of(value) -> int | None:
            return _seat(value, seats)

        entry.finish = [s for s in (seat_of(v) for v in data.get("finish", "").split(",")) if s]
        tap = data.get("tap", "")
        if tap == "undo":
            entry.finish = entry.finish[:-1]
        elif tap == "reset":
            entry.finish = []
        elif (seat := seat_of(tap)) and seat not in entry.finish and len(entry.finish) < len(seats):
            entry.finish.append(seat)
        entry.points = {s for s in seats if data.get(f"point_{s}")}
        entry.declarations = {
            s: data[f"decl_{s}"] for s in seats if data.get(f"decl_{s}") in DECLARATIONS
        }
        entry.revolution = [s for s in seats if data.get(f"revolution_{s}")]
        entry.special_failed = {s for s in seats if data.get(f"special_failed_{s}")}
        burn_rows = _rows(data, "burn_rows") + (1 if data.get("add") == "burn" else 0)
        suff_rows = _rows(data, "suff_rows") + (1 if data.get("add") == "suffocation" else 0)
        for i in range(min(burn_rows, MAX_ROWS)):
            outcome = data.get(f"burn_{i}_outcome", "")
            entry.burns.append(
                {
                    "burner": seat_of(data.get(f"burn_{i}_burner")),
                    "burned": seat_of(data.get(f"burn_{i}_burned")),
                    "outcome": outcome if outcome in BURN_OUTCOMES else "success",
                }
            )
        for i in range(min(suff_rows, MAX_ROWS)):
            entry.suffocated.append(
                {
                    "seat": seat_of(data.get(f"suff_{i}_seat")),
                    "by": seat_of(data.get(f"suff_{i}_by")),
                }
            )
        entry.play_log_text = data.get("play_log", "")[:MAX_PLAY_LOG]
        upload = (files or {}).get("play_log_file")
        if upload is not None and upload.size:
            if upload.size > MAX_PLAY_LOG:
                entry.form_errors.append(
                    {
                        "rule": None,
                        "code": "bad_document",
                        "message": "the play log file is too large",
                    }
                )
            else:
                entry.play_log_text = upload.read().decode("utf-8", errors="replace")
        entry.idempotency_key = (data.get("idempotency_key") or uuid.uuid4().hex)[:100]
        entry.reason = data.get("reason", "")[:2000]
        return entry

    @property
    def has_outcome(self) -> bool:
        return bool(
            self.finish
            or self.points
            or self.declarations
            or self.revolution
            or self.special_failed
            or self.filled_burns
            or self.filled_suffocations
        )

    @property
    def filled_burns(self) -> list[dict]:
        return [b for b in self.burns if b["burner"] or b["burned"]]

    @property
    def filled_suffocations(self) -> list[dict]:
        return [s for s in self.suffocated if s["seat"] or s["by"]]

    def problems(self) -> list[dict]:
        """What the form itself can tell before the engine looks (half-filled rows)."""
        return self.row_errors()

    def row_errors(self) -> list[dict]:
        errors = list(self.form_errors)
        for number, burn in enumerate(self.filled_burns, 1):
            if not (burn["burner"] and burn["burned"]):
                errors.append(
                    {
                        "rule": "R21",
                        "code": "incomplete_row",
                        "message": f"burn row {number}: give both the burner and the burned seat",
                    }
                )
        for number, row in enumerate(self.filled_suffocations, 1):
            if not (row["seat"] and row["by"]):
                errors.append(
                    {
                        "rule": "R27",
                        "code": "incomplete_row",
                        "message": f"suffocation row {number}: give both seats",
                    }
                )
        return errors

    def summary(self) -> dict | None:
        """The gouji-outcome/1 summary, or None when only a play log was given."""
        if not self.has_outcome and self.play_log_text.strip():
            return None
        return {
            "format": OUTCOME_FORMAT,
            "finish": list(self.finish),
            "points": sorted(self.points),
            "declarations": {str(s): kind for s, kind in sorted(self.declarations.items())},
            "burns": [b for b in self.filled_burns if b["burner"] and b["burned"]],
            "suffocated": [s for s in self.filled_suffocations if s["seat"] and s["by"]],
            "revolution": list(self.revolution),
            "special_failed": sorted(self.special_failed),
        }

    def play_log(self) -> dict | None:
        text = self.play_log_text.strip()
        if not text:
            return None
        try:
            document = parse_json_text(text)  # the API's limits: nesting depth, NUL
        except DocumentError as exc:
            raise ResultError("bad_document", f"the play log is {exc}")
        if not isinstance(document, dict):
            raise ResultError("bad_document", "the play log must be a JSON object (gouji-deal/1)")
        return document

    @property
    def finish_text(self) -> str:
        return ",".join(map(str, self.finish))

    def place_of(self, seat: int) -> int | None:
        return self.finish.index(seat) + 1 if seat in self.finish else None


def describe(errors: list[dict]) -> list[dict]:
    """Errors with the referee's words next to the engine's message."""
    described = []
    for error in errors:
        described.append(
            {
                **error,
                "rule_name": RULE_NAMES.get(error.get("rule") or "", ""),
                # A problem that brings its own words (a photo's unchecked boxes) keeps them.
                "text": error.get("text") or describe_message(error),
            }
        )
    return described


def _tributes_owed(deal, number: int):
    """The ledger owed before this deal; None while unknown. A match's first deal owes nothing
    (tributes carry only from deal to deal within one match), even before anything ran."""
    owed = deal.tributes_owed if deal else None
    return [] if owed is None and number == 1 else owed


TRIBUTE_KINDS = {
    "suffocation": _("闷贡"),
    "burn": _("烧贡"),
    "point": _("点贡"),
    "place": _("落贡"),
    "string_three": _("串三户贡"),
}


def tribute_kind(kind, players: int = DEFAULT_PLAYERS) -> str:
    """A ledger kind in words; R47/D22: at eight seats (unions of four) the string tribute is
    串四户's (the kind keeps its name `string_three`, D26)."""
    if kind == "string_three" and seating.union_size(players) == 4:
        return gettext("串四户贡")
    return str(TRIBUTE_KINDS.get(kind, kind))


def seat_name(seat_names: dict, seat) -> str:
    if seat is None:
        return gettext("贡牌池")  # R38 place_tribute = "pool": cards put into, or picked from, it
    player = seat_names.get(seat) or seat_names.get(str(seat))
    label = gettext("%(seat)s号") % {"seat": seat}
    return f"{label} {player}" if player else label


def tribute_rows(tributes, seat_names: dict, players: int = DEFAULT_PLAYERS) -> list[dict]:
    return [
        {
            "from": seat_name(seat_names, t.get("from")),
            "to": seat_name(seat_names, t.get("to")),
            "kind": tribute_kind(t.get("kind"), players),
            "cards": t.get("cards"),
        }
        for t in tributes or []
    ]


def summary_context(report, names: dict) -> dict:
    """A Gou Ji result in words: finishing order with names, points, burns, tributes."""
    summary = report.summary or {}
    verdict = GoujiDealVerdict.from_json(report.verdict or {})
    # An accepted summary's finish is an order of every seat (R44: eight under `players = 8`).
    players = len(summary.get("finish") or ()) or DEFAULT_PLAYERS
    return {
        "report": report,
        "finish": [
            (place, seat_name(names, seat))
            for place, seat in enumerate(summary.get("finish") or [], 1)
        ],
        "points": [seat_name(names, seat) for seat in summary.get("points") or []],
        "declarations": [
            (seat_name(names, int(seat)), DECLARATION_LABELS.get(kind, kind))
            for seat, kind in (summary.get("declarations") or {}).items()
        ],
        "burns": [
            (
                seat_name(names, b.get("burner")),
                seat_name(names, b.get("burned")),
                BURN_OUTCOME_LABELS.get(b.get("outcome"), b.get("outcome")),
            )
            for b in summary.get("burns") or []
        ],
        "suffocated": [
            (seat_name(names, s.get("seat")), seat_name(names, s.get("by")))
            for s in summary.get("suffocated") or []
        ],
        "revolution": [seat_name(names, seat) for seat in summary.get("revolution") or []],
        "union_scores": verdict.settled.union_scores,
        "tributes": tribute_rows(ledger_to_json(verdict.settled.tributes), names, players),
        "point_offsets": [
            {"a": seat_name(names, a), "b": seat_name(names, b), "cards": cards}
            for a, b, cards in _point_offsets(summary)
        ],
    }


def _point_offsets(summary: dict) -> list[tuple[int, int, int]]:
    """R55's offset pairs of a stored summary; none when it cannot be read (an old document)."""
    try:
        return point_offsets(summary)
    except BadDocument:
        return []


def summary_line(report, names: dict) -> list[str]:
    """A Gou Ji result in one line, its parts: "1号 何娟 第1", …, "A +24", "B −24" (a real
    minus sign)."""
    summary = report.summary or {}
    parts = [
        pgettext("one line", "%(seat)s 第%(place)s")
        % {"seat": seat_name(names, seat), "place": place}
        for place, seat in enumerate(summary.get("finish") or [], 1)
    ]
    a, b = GoujiDealVerdict.from_json(report.verdict or {}).side_scores()
    if a is not None and b is not None:
        parts += [f"A\u00a0{a:+d}".replace("-", "\u2212"), f"B\u00a0{b:+d}".replace("-", "\u2212")]
    return parts


def _owed_rows(tributes, seat_names: dict, players: int = DEFAULT_PLAYERS) -> dict:
    """The tributes owed before a deal, for `_tributes.html`: rows, and whether they are known
    yet (None while the previous deal has no final result)."""
    return {
        "tributes": tribute_rows(tributes, seat_names, players),
        "known": tributes is not None,
    }


class ResultForm:
    """The Gou Ji result form on the referee's phone and the organiser's correction page (the
    shared flow is `matches/views/referee/table.py`)."""

    templates = {
        "page": "gouji/referee/table.html",
        "form": "gouji/referee/deal_form.html",
        "correct": "gouji/manage/correct.html",
        "summary": "gouji/referee/_summary.html",
    }

    def blank(self, table) -> DealEntry:
        return DealEntry.blank(table_seats(table))

    def from_post(self, table, data, files) -> DealEntry:
        return DealEntry.from_post(data, files, table_seats(table))

    def from_report(self, table, report) -> DealEntry:
        """The entry a correction starts from: the result in force, to edit what differs."""
        entry = DealEntry.blank(table_seats(table))
        summary = (report.summary if report else None) or {}
        entry.finish = list(summary.get("finish") or [])
        entry.points = set(summary.get("points") or [])
        entry.declarations = {int(s): k for s, k in (summary.get("declarations") or {}).items()}
        entry.revolution = list(summary.get("revolution") or [])
        entry.special_failed = set(summary.get("special_failed") or [])
        entry.burns = [dict(b) for b in summary.get("burns") or []] + [{}]
        entry.suffocated = [dict(s) for s in summary.get("suffocated") or []] + [{}]
        return entry

    def from_sheet(self, table, row: dict) -> DealEntry:
        """The entry a photographed sheet's row fills (matches/sheets/): the seats as read, in
        order, a duplicate kept so that the engine refuses it rather than the form hiding it."""
        return DealEntry.from_sheet_row(row, table_seats(table))

    def describe(self, problems: list[dict]) -> list[dict]:
        return describe(problems)

    def summary_context(self, report, seat_names: dict) -> dict:
        return summary_context(report, seat_names)

    def summary_line(self, report, seat_names: dict) -> list[str]:
        return summary_line(report, seat_names)

    #: the ids of the form, its submit button and its deal's heading (the page's script and tests
    #: find them)
    form_ids = {"form": "deal-form", "submit": "submit-deal", "title": "deal-title"}

    def progress(self, entry: DealEntry, problems: list[dict]) -> tuple[str, list[dict]]:
        """A finishing order still being tapped (a start of the order, no seat twice, no play
        log): how many seats are left, and the problems without its R30. The engine checks
        nothing that needs the whole order until it is whole, so what stays is a real refusal."""
        finish, seats = entry.finish, entry.seats
        if (
            entry.play_log_text.strip()
            or len(set(finish)) != len(finish)
            or len(finish) >= len(seats)
        ):
            return "", problems
        left = len(seats) - len(finish)
        text = ngettext("还需点 %(n)s 个座位", "还需点 %(n)s 个座位", left) % {"n": left}
        return text, [p for p in problems if p.get("code") != "finish_not_permutation"]

    def verdict_line(self, checked) -> str:
        """The verdict of a consistent report in a line: the two unions' scores."""
        if not checked:
            return ""
        a, b = checked.verdict.side_scores()
        if a is None or b is None:
            return ""
        return f"A {a:+d} · B {b:+d}"

    def context(self, context: dict) -> dict:
        """What the Gou Ji templates need beyond the shared table context."""
        entry, seats = context["entry"], context["seats"]
        seat_names = {s["seat"]: s["player"] for s in seats}
        row = next(
            (r for r in context.get("deal_rows", []) if r["number"] == context.get("deal_number")),
            None,
        )
        return {
            "form_template": self.templates["form"],
            "form_ids": self.form_ids,
            "verdict_line": self.verdict_line(context.get("checked")),
            "seat_numbers": entry.seats,
            "seat_names": seat_names,
            "declaration_labels": DECLARATION_LABELS,
            "burn_outcome_labels": BURN_OUTCOME_LABELS,
            # R34 特点 is off in every preset: only an explicit flag turns it on
            "special_declaration": context["event"].game_rules.rules_json.get("special_declaration")
            is True,
            "tributes_owed": _owed_rows(
                _tributes_owed(row["deal"] if row else None, context.get("deal_number") or 0),
                seat_names,
                len(entry.seats),
            ),
            "entry_seats": [
                {
                    **seat,
                    "place": entry.place_of(seat["seat"]),
                    "point": seat["seat"] in entry.points,
                    "declaration": entry.declarations.get(seat["seat"], ""),
                    "revolution": seat["seat"] in entry.revolution,
                    "special_failed": seat["seat"] in entry.special_failed,
                }
                for seat in seats
            ],
            "finish_names": [
                (place, seat, seat_names.get(seat)) for place, seat in enumerate(entry.finish, 1)
            ],
        }
