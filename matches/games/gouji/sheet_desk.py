"""Gou Ji's sheet typed at the desk's stack (matches/kernel/games/sheet_desk.py): a deal's row
is its finishing order (a place's number over each box), four point boxes and two burns
(burner → burned, then the burn's outcome digit: blank or 1 烧成, 2 反烧, 3 被中断, 4 烧失败,
typed for any sheet, as the form asks it; a GJS3 sheet of six seats has its box); the event
strip's lines (闷, 革命, 宣点) go below the rows, each added to the deal its number names.
What the boxes alone say is wrong is refused before anything is sent: a digit that is no seat,
an outcome that is none, half a burn (R21), a line whose deal, seat or kind is none."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from matches.games.gouji.sheet_words import box_label, heading, line_label
from matches.kernel.games.sheet_desk import BoxGroup, Strip, StripColumn
from matches.paper import layout

#: boxes of a deal's row on the sheet, in the order the desk moves through them
POINT_BOXES, BURN_PAIRS = 4, 2
BURN_SIDES = ("burner", "burned", "outcome")
#: a burn's outcome as its box shows it again; a success stays blank, as it is written
OUTCOME_DIGIT = {name: str(d) for d, name in layout.BURN_OUTCOME_DIGITS.items() if d > 1}


def _event_names() -> list[tuple[str, int, list[str]]]:
    """The event strip's lines: (kind, line, its boxes' names "s_tens.0" …), as printed."""
    return [
        (kind, line, [f"{kind}_{part}.{line}" for part, _dx in parts])
        for kind, (_x, parts) in layout.EVENT_COLUMNS.items()
        for line in range(layout.EVENT_LINES)
    ]


def _box_names(seats: int) -> list[str]:
    return (
        [f"finish.{p}" for p in range(seats)]
        + [f"point.{k}" for k in range(POINT_BOXES)]
        + [f"{side}.{pair}" for pair in range(BURN_PAIRS) for side in BURN_SIDES]
    )


def _failed_special(summary: dict[str, Any]) -> dict[str, str]:
    """The declarations as the strip says them: a failed 特点 is kind 4, not 3."""
    failed = set(summary.get("special_failed") or [])
    return {
        seat: "special_failed" if kind == "special" and int(seat) in failed else kind
        for seat, kind in (summary.get("declarations") or {}).items()
    }


class GoujiDesk:
    def groups(self, seats: int) -> list[BoxGroup]:
        return [
            BoxGroup(_("名次"), tuple(f"finish.{p}" for p in range(seats)), numbered=True),
            BoxGroup(_("开点"), tuple(f"point.{k}" for k in range(POINT_BOXES))),
            BoxGroup(
                _("烧牌 · 结果"),
                tuple(f"{side}.{p}" for p in range(BURN_PAIRS) for side in BURN_SIDES),
                arrows=frozenset(len(BURN_SIDES) * p for p in range(BURN_PAIRS)),
            ),
        ]

    def strip(self) -> Strip:
        """The event strip's lines as printed; a suffocation's line has an arrow from the
        suffocator to the suffocated."""
        lines: dict[str, list[BoxGroup]] = {kind: [] for kind in layout.EVENT_COLUMNS}
        for kind, _line, names in _event_names():
            arrows = frozenset({2}) if kind == "s" else frozenset()
            lines[kind].append(BoxGroup("", tuple(names), arrows=arrows))
        return Strip(
            _("事件行（闷、革命、宣点）"),
            tuple(
                StripColumn(kind, str(heading(kind)), tuple(found)) for kind, found in lines.items()
            ),
        )

    def rows(
        self, values: dict[str, str], seats: int, deals: int, finals: set[int]
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The written rows as the reader gives them ({"number", "finish", "points", "burns"},
        the event lines' "suffocated", "revolution", "declarations"), and what the boxes alone
        say is wrong (a digit that is no seat, half a burn: R21, a line that names no deal)."""
        seat_numbers = range(1, seats + 1)
        rows, problems = [], []
        for number in range(1, deals + 1):
            if number in finals:
                continue
            boxes = {name: values.get(f"d{number}.{name}", "") for name in _box_names(seats)}
            if not any(boxes.values()):
                continue
            for name, value in boxes.items():
                outcome = name.startswith("outcome.")
                among = list(layout.BURN_OUTCOME_DIGITS) if outcome else list(seat_numbers)
                if value and not (value.isascii() and value.isdigit() and int(value) in among):
                    text = (
                        _("%(box)s：%(value)s 不是 1-4")
                        if outcome
                        else _("%(box)s：%(value)s 不是本桌的座位号")
                    )
                    problems.append(
                        {
                            "rule": None,
                            "code": "not_an_outcome" if outcome else "not_a_seat",
                            "deal": number,
                            "text": text % {"box": box_label(name), "value": value},
                        }
                    )

            def seat(name: str, boxes: dict = boxes) -> int | None:
                value = boxes[name]
                return int(value) if value.isascii() and value.isdigit() else None

            burns, outcomes = [], []
            for pair in range(BURN_PAIRS):
                burner, burned = seat(f"burner.{pair}"), seat(f"burned.{pair}")
                if (burner is None) != (burned is None):
                    problems.append(
                        {
                            "rule": "R21",
                            "code": "incomplete_row",
                            "deal": number,
                            "text": _("烧牌要写烧牌者和被烧者两个座位"),
                        }
                    )
                elif burner is not None:
                    burns.append([burner, burned])
                    outcomes.append(seat(f"outcome.{pair}"))
            rows.append(
                {
                    "number": number,
                    "finish": [seat(f"finish.{p}") for p in range(seats)],
                    "points": [p for k in range(POINT_BOXES) if (p := seat(f"point.{k}"))],
                    "burns": burns,
                    "burn_outcomes": outcomes,
                }
            )
        problems += self._events(values, seats, deals, finals, rows)
        return rows, problems

    def _events(
        self, values: dict[str, str], seats: int, deals: int, finals: set[int], rows: list[dict]
    ) -> list[dict]:
        """The event strip's lines typed or read ("d0.s_by.1"), each added to its deal's row
        (a row made for it when its deal has nothing else written: the engine then says what
        is missing); what the boxes alone say is wrong: a deal that is no row, a seat that is
        none, a declaration kind other than 1-4, a line half written."""
        seat_numbers = range(1, seats + 1)
        by_number = {row["number"]: row for row in rows}
        problems = []
        for kind, line, names in _event_names():
            typed = {
                name.split("_", 1)[1].split(".")[0]: values.get(f"d0.{name}", "") for name in names
            }
            if not any(typed.values()):
                continue
            digits = {
                part: int(v) if v.isascii() and v.isdigit() else None for part, v in typed.items()
            }
            units = digits.get("units")
            number = None if units is None else (digits.get("tens") or 0) * 10 + units
            wrong = number is None or not 1 <= number <= deals
            wrong |= any(
                digits[part] not in seat_numbers for part in ("seat", "by") if part in digits
            )
            wrong |= "kind" in digits and digits["kind"] not in layout.DECLARATION_KINDS
            if wrong:
                problems.append(
                    {
                        "rule": None,
                        "code": "bad_event_line",
                        "text": _("%(line)s：局号、座位或类别没有填对")
                        % {"line": line_label(kind, line)},
                    }
                )
                continue
            assert number is not None
            if number in finals:
                continue
            row = by_number.get(number)
            if row is None:
                row = {"number": number, "finish": [], "points": [], "burns": []}
                by_number[number] = row
                rows.append(row)
            if kind == "s":
                row.setdefault("suffocated", []).append([digits["seat"], digits["by"]])
            elif kind == "r":
                row.setdefault("revolution", []).append(digits["seat"])
            else:
                row.setdefault("declarations", []).append([digits["seat"], digits["kind"]])
        rows.sort(key=lambda row: row["number"])
        return problems

    def values(self, summaries: list[tuple[int, dict[str, Any]]]) -> dict[str, str]:
        """The deals' boxes as they went in, the events on the strip's lines in deal order."""
        values: dict[str, str] = {}
        used: dict[str, int] = {}
        for number, summary in summaries:
            for place, seat in enumerate(summary.get("finish") or []):
                values[f"d{number}.finish.{place}"] = str(seat)
            for k, seat in enumerate((summary.get("points") or [])[:POINT_BOXES]):
                values[f"d{number}.point.{k}"] = str(seat)
            for pair, burn in enumerate((summary.get("burns") or [])[:BURN_PAIRS]):
                values[f"d{number}.burner.{pair}"] = str(burn.get("burner", ""))
                values[f"d{number}.burned.{pair}"] = str(burn.get("burned", ""))
                values[f"d{number}.outcome.{pair}"] = OUTCOME_DIGIT.get(burn.get("outcome"), "")
            events: dict[str, list[tuple]] = {
                "s": [(s.get("by"), s.get("seat")) for s in summary.get("suffocated") or []],
                "r": [(seat,) for seat in summary.get("revolution") or []],
                "d": [
                    (int(seat), 1 + list(layout.DECLARATION_KINDS.values()).index(kind))
                    for seat, kind in _failed_special(summary).items()
                    if kind in layout.DECLARATION_KINDS.values()
                ],
            }
            for kind, entries in events.items():
                for entry in entries:
                    line = used.get(kind, 0)
                    if line == layout.EVENT_LINES:
                        break
                    used[kind] = line + 1
                    parts = [p for p, _dx in layout.EVENT_COLUMNS[kind][1]][2:]
                    values[f"d0.{kind}_tens.{line}"] = str(number // 10) if number >= 10 else ""
                    values[f"d0.{kind}_units.{line}"] = str(number % 10)
                    for part, value in zip(parts, entry):
                        values[f"d0.{kind}_{part}.{line}"] = str(value)
        return values

    def check(self, row: dict[str, Any], seats: int) -> list[dict[str, Any]]:
        """Nothing before it is sent: a deal's tributes and streaks need the deals before it
        (the engine judges it on submitting)."""
        return []
