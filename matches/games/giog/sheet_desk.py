"""Giog's sheet typed at the desk's stack (matches/kernel/games/sheet_desk.py): a hand's row is
each seat's pieces won in two boxes (tens, units: under 10 the units alone, as on the paper)
and two beheaded seats (G12). Before a hand is sent, the engine's own check of a summary says
what the hand alone breaks: counts that do not add up to the pieces in play or are no multiple
of the players (G10), a seat beheaded twice (G12); those hands are refused as a whole sheet,
before any of its hands goes in (a hand needs no other: nothing is gained by sending some)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from matches.games.giog.engine.outcome import OUTCOME_FORMAT, summary_verdict
from matches.kernel.engine_errors import BadDocument
from matches.kernel.games.sheet_desk import BoxGroup

#: beheaded boxes a hand: only a General beheads, and there are two (G12)
BEHEADED = 2


def box_label(name: str) -> str:
    """A box of a hand's row in words: "won_units.1" -> 2号赢子数个位."""
    field_name, index_text = name.split(".")
    index = int(index_text)
    if field_name == "won_tens":
        return _("%(s)s号赢子数十位") % {"s": index + 1}
    if field_name == "won_units":
        return _("%(s)s号赢子数个位") % {"s": index + 1}
    return _("第%(n)s个斩首座位") % {"n": index + 1}


def _digit(value: str) -> int | None:
    return int(value) if value.isascii() and value.isdigit() else None


class GiogDesk:
    def groups(self, seats: int) -> list[BoxGroup]:
        return [
            BoxGroup(_("%(s)s号") % {"s": seat}, (f"won_tens.{seat - 1}", f"won_units.{seat - 1}"))
            for seat in range(1, seats + 1)
        ] + [BoxGroup(_("斩首"), tuple(f"beheaded.{k}" for k in range(BEHEADED)))]

    def strip(self) -> None:
        return None

    def rows(
        self, values: dict[str, str], seats: int, deals: int, finals: set[int]
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The written hands as the reader gives them ({"number", "won": {"1": 12 …} (None: a
        seat not written), "beheaded"}), and what the boxes alone say is wrong: a box that is
        no digit, a tens without its units, a beheaded seat that is none of the table."""
        rows, problems = [], []
        for number in range(1, deals + 1):
            if number in finals:
                continue
            typed = {
                name: values.get(f"d{number}.{name}", "")
                for group in self.groups(seats)
                for name in group.names
            }
            if not any(typed.values()):
                continue

            def wrong(
                name: str, code: str, text: str, number: int = number, typed: dict = typed
            ) -> None:
                said = {"box": box_label(name), "value": typed[name]}
                problems.append({"rule": None, "code": code, "deal": number, "text": text % said})

            won: dict[str, int | None] = {}
            for seat in range(1, seats + 1):
                tens_name, units_name = f"won_tens.{seat - 1}", f"won_units.{seat - 1}"
                tens, units = typed[tens_name], typed[units_name]
                for name, value in ((tens_name, tens), (units_name, units)):
                    if value and _digit(value) is None:
                        wrong(name, "not_a_digit", _("%(box)s：%(value)s 不是数字"))
                if tens and not units:
                    wrong(units_name, "incomplete_count", _("%(box)s：没有填（不足10只填个位）"))
                count = (_digit(tens) or 0) * 10 + (_digit(units) or 0)
                won[str(seat)] = count if _digit(units) is not None else None
            beheaded = []
            for k in range(BEHEADED):
                name = f"beheaded.{k}"
                head = _digit(typed[name])
                if typed[name] and (head is None or not 1 <= head <= seats):
                    wrong(name, "not_a_seat", _("%(box)s：%(value)s 不是本桌的座位号"))
                elif head is not None:
                    beheaded.append(head)
            rows.append({"number": number, "won": won, "beheaded": beheaded})
        return rows, problems

    def values(self, summaries: list[tuple[int, dict[str, Any]]]) -> dict[str, str]:
        values: dict[str, str] = {}
        for number, summary in summaries:
            for seat, count in (summary.get("won") or {}).items():
                index = int(seat) - 1
                values[f"d{number}.won_tens.{index}"] = str(count // 10) if count >= 10 else ""
                values[f"d{number}.won_units.{index}"] = str(count % 10)
            for k, seat in enumerate((summary.get("beheaded") or [])[:BEHEADED]):
                values[f"d{number}.beheaded.{k}"] = str(seat)
        return values

    def check(self, row: dict[str, Any], seats: int) -> list[dict[str, Any]]:
        """The engine's check of the hand's summary (G10, G12) once every seat is written (a
        seat left blank is the reader's mark, or the engine's G11 on submitting)."""
        won = row.get("won") or {}
        if len(won) != seats or any(count is None for count in won.values()):
            return []
        summary = {
            "format": OUTCOME_FORMAT,
            "players": seats,
            "won": won,
            "beheaded": list(row.get("beheaded") or []),
        }
        try:
            verdict = summary_verdict(summary)
        except BadDocument:
            return []  # the engine says why on submitting
        return [error.to_json() for error in verdict.errors]
