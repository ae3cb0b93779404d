"""The referee's page for a Giog table: pieces won per seat, beheaded seats, an optional hand
record, checked live by htmx against the Giog engine (errors carry their G rule id).

Reached through the same URLs as a Gou Ji table (`referee_views` hands over by `event.game`);
a hand is a `Deal` of the table's match, reported through `matches.results.service`.
"""
from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_htmx.http import HttpResponseClientRedirect

from matches.models import DealReport, Round
from matches.games.giog.engine.outcome import OUTCOME_FORMAT
from matches.results import service as results
from matches.games.giog.standings import numbered
from matches.results.service import ResultError

MAX_HAND_RECORD = 512 * 1024
MAX_WON = 32

#: The referee's words for the engine's codes (the engine's messages are English).
CODE_TEXT = {
    "won_total": gettext_lazy("各家赢子之和须等于在场棋子数"),
    "not_whole_tricks": gettext_lazy("赢子数须是人数的整数倍（每墩每家出子相同）"),
    "missing_seat": gettext_lazy("每个座位都须填赢子数（没有赢子填 0）"),
    "negative_won": gettext_lazy("赢子数不能为负"),
    "too_many_beheaded": gettext_lazy("只有两只将帅，最多两人被斩首"),
    "duplicate_beheaded": gettext_lazy("同一座位重复斩首"),
    "players_mismatch": gettext_lazy("人数与本桌座位数不符"),
    "play_log_mismatch": gettext_lazy("成绩与手谱回放不符"),
    "hand_incomplete": gettext_lazy("手谱未打完"),
    "bad_won": gettext_lazy("赢子数须为整数"),
}


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
                entry.form_errors.append({"rule": "G10", "code": "bad_won",
                                          "message": f"seat {seat}: {text!r} is not a count"})
        entry.beheaded = [s for s in seats if data.get(f"beheaded_{s}")]
        entry.hand_record_text = (data.get("hand_record") or "")[:MAX_HAND_RECORD]
        upload = (files or {}).get("hand_record_file")
        if upload is not None and upload.size:
            if upload.size > MAX_HAND_RECORD:
                entry.form_errors.append({"rule": None, "code": "bad_document",
                                          "message": "the hand record file is too large"})
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
        return {"format": OUTCOME_FORMAT, "players": len(self.seats),
                "won": {str(s): self.won[s] for s in self.seats if self.won.get(s) is not None},
                "beheaded": list(self.beheaded)}

    def hand_record(self) -> dict | None:
        text = self.hand_record_text.strip()
        if not text:
            return None
        try:
            document = json.loads(text)
        except ValueError as exc:
            raise ResultError("bad_document", f"the hand record is not JSON: {exc}")
        if not isinstance(document, dict):
            raise ResultError("bad_document", "the hand record must be a JSON object (giog-hand/1)")
        return document


def describe(errors: list[dict]) -> list[dict]:
    return [{**e, "text": CODE_TEXT.get(e.get("code") or "", "")} for e in errors]


def _seats(table) -> list[dict]:
    return [{"seat": s.seat, "player": s.player} for s in table.seats.select_related("player")]


def hand_rows(match, names: dict) -> list[dict]:
    rows = []
    for row in results.match_deals(match):
        final = row["final"]
        places = []
        if final is not None:
            points = (final.verdict or {}).get("points") or {}
            won = (final.verdict or {}).get("won") or {}
            beheaded = set((final.verdict or {}).get("beheaded") or [])
            for place, group in numbered((final.verdict or {}).get("places") or []):
                for seat in group:
                    places.append({"place": place, "seat": seat, "name": names.get(seat),
                                   "won": won.get(str(seat)), "points": points.get(str(seat)),
                                   "beheaded": seat in beheaded})
        rows.append({**row, "places": places})
    return rows


def context(access, entry: HandEntry | None = None, checked=None, problems=None) -> dict:
    table = access.table
    round_ = table.round
    event = round_.event
    match = getattr(table, "match", None)
    seats = _seats(table)
    seat_numbers = [s["seat"] for s in seats]
    entry = entry or HandEntry.blank(seat_numbers)
    names = {s["seat"]: s["player"].name for s in seats}
    ctx = {"access": access, "table": table, "round": round_, "event": event, "match": match,
           "seats": seats, "round_open": round_.state == Round.State.PUBLISHED,
           "hand_number": None, "hand_rows": [], "open_report": None, "can_report": False,
           "entry": entry, "checked": checked, "problems": describe(problems or []),
           "confirmable": [], "hands": event.deals_per_match}
    if match is None:
        return ctx
    number = results.current_deal_number(match)
    playable = results.deal_allowed(match, number)
    rows = hand_rows(match, names)
    current = next((r for r in rows if r["number"] == number), None)
    open_report = current["open"] if current else None
    ctx.update({
        "hand_number": number if playable else None, "hand_rows": rows,
        "open_report": open_report,
        "can_report": playable and ctx["round_open"]
        and not (open_report and open_report.state == DealReport.State.DISPUTED),
        "confirmable": [r for r in results.confirmable_reports(access.actor)
                        if r.deal.match_id == match.pk],
        "entry_seats": [{**s, "won": entry.raw.get(s["seat"], ""),
                         "beheaded": s["seat"] in entry.beheaded} for s in seats],
    })
    if playable:
        ctx["check_url"] = access.url("check", number=number)
        ctx["submit_url"] = access.url("submit", number=number)
    return ctx


def _render(request, access, status=200, **extra):
    ctx = context(access, **extra)
    if request.htmx and request.GET.get("part") == "verdict":
        return render(request, "referee/giog/hand_form.html#verdict", ctx, status=status)
    if request.htmx:
        return render(request, "referee/giog/hand_form.html", ctx, status=status)
    return render(request, "referee/giog/table.html", ctx, status=status)


def table_page(request, access):
    return render(request, "referee/giog/table.html", context(access))


def run_check(match, number: int, entry: HandEntry):
    problems = list(entry.form_errors)
    try:
        checked = results.check_report(match, number, entry.summary(), entry.hand_record())
    except ResultError as exc:
        return None, problems + [{"rule": exc.rule, "code": exc.code, "message": exc.message}]
    return checked, problems + checked.errors


def check(request, access, number: int):
    match = access.table.match
    entry = HandEntry.from_post([s["seat"] for s in _seats(access.table)], request.POST,
                                request.FILES)
    checked, problems = run_check(match, number, entry)
    return _render(request, access, entry=entry, checked=checked, problems=problems)


def submit(request, access, number: int):
    match = access.table.match
    entry = HandEntry.from_post([s["seat"] for s in _seats(access.table)], request.POST,
                                request.FILES)
    if entry.form_errors:
        return _render(request, access, status=422, entry=entry, problems=entry.form_errors)
    try:
        deal = results.deal_for(match, number)
        report, _created = results.submit_report(deal, entry.summary(), entry.hand_record(),
                                                 access.actor, entry.idempotency_key)
    except ResultError as exc:
        problems = exc.errors or [{"rule": exc.rule, "code": exc.code, "message": exc.message}]
        return _render(request, access, status=exc.status, entry=entry, problems=problems)
    if report.state == DealReport.State.FINAL:
        messages.success(request, _("第 %(n)s 手成绩已生效") % {"n": number})
    else:
        messages.success(request, _("第 %(n)s 手成绩已提交，等待确认") % {"n": number})
    target = access.url("table") if access.token else reverse(
        "referee:table-table", kwargs={"table_id": access.table.pk})
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


# --- organiser's correction of a hand ---------------------------------------------------------

def _entry_from_report(report, seats: list[int]) -> HandEntry:
    entry = HandEntry.blank(seats)
    summary = (report.summary if report else None) or {}
    for seat in seats:
        value = (summary.get("won") or {}).get(str(seat))
        if value is not None:
            entry.won[seat], entry.raw[seat] = value, str(value)
    entry.beheaded = [s for s in seats if s in (summary.get("beheaded") or [])]
    return entry


def correct(request, event, table, match, number: int):
    """The organiser replaces a hand's result (also how a disputed hand is decided)."""
    from matches.results.service import Actor

    seats = [s["seat"] for s in _seats(table)]
    base = reverse("referee:manage-correct", args=[event.pk, table.pk, number])
    current = DealReport.objects.final().filter(deal__match=match, deal__number=number).first()

    def page(entry, checked=None, problems=None, status=200):
        ctx = {"event": event, "table": table, "match": match, "number": number,
               "current": current, "entry": entry, "checked": checked,
               "problems": describe(problems or []), "reason_field": True,
               "check_url": base + "?check=1", "submit_url": base,
               "entry_seats": [{**s, "won": entry.raw.get(s["seat"], ""),
                                "beheaded": s["seat"] in entry.beheaded} for s in _seats(table)]}
        if request.htmx and request.GET.get("part") == "verdict":
            return render(request, "referee/giog/hand_form.html#verdict", ctx, status=status)
        if request.htmx:
            return render(request, "referee/giog/hand_form.html", ctx, status=status)
        return render(request, "referee/giog/correct.html", ctx, status=status)

    if request.method == "GET":
        return page(_entry_from_report(current, seats))
    entry = HandEntry.from_post(seats, request.POST, request.FILES)
    reason = (request.POST.get("reason") or "")[:2000]
    entry.reason = reason
    if request.GET.get("check"):
        checked, problems = run_check(match, number, entry)
        return page(entry, checked, problems)
    problems = list(entry.form_errors)
    if not problems:
        try:
            deal = results.deal_for(match, number)
            results.correct_result(deal, entry.summary(), entry.hand_record(),
                                   Actor(user=request.user), reason, entry.idempotency_key)
        except ResultError as exc:
            problems = exc.errors or [{"rule": exc.rule, "code": exc.code, "message": exc.message}]
    if problems:
        return page(entry, None, problems, status=200 if request.htmx else 422)
    messages.success(request, _("第 %(n)s 手成绩已更正") % {"n": number})
    target = reverse("referee:manage-table", args=[event.pk, table.pk])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)
