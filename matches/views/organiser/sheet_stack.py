"""The desk's stack of score sheets (docs/scoresheets.md, "The desk's stack"): many photos of a
round's sheets sent at once (or a scanner's PDF), read by the worker into a queue, then worked
through one sheet at a time with its photo beside the read boxes, from the keyboard
(static/js/sheet-stack.js). A sheet goes in down the table phone's result path; one the reader
refused stays in the queue with its reason and is typed by hand."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import ResultError
from matches.models import DealReport, Match, Round, StackSheet
from matches.paper import layout
from matches.permissions import Actor
from matches.results.submit import submit_deal_report
from matches.sheets import service as sheets
from matches.sheets import stack
from matches.views.organiser.access import running_event
from matches.views.organiser.results import _round
from matches.views.referee.sheet import box_label, refusal_words
from matches.views.sheets import keep_private

#: boxes of a deal's row on the sheet, in the order the desk moves through them
POINT_BOXES, BURN_PAIRS = 4, 2
STATE_WORDS = {
    "queued": gettext_lazy("正在识别"),
    "read": gettext_lazy("已识别"),
    "refused": gettext_lazy("无法识别"),
    "done": gettext_lazy("已录入"),
}


def _queue_url(event, round_) -> str:
    return f"{reverse('manage:results-stack', args=[event.pk])}?round={round_.number}"


@login_required
def queue(request, event_id: int):
    """The round's queue, and the form that sends a stack of photos (or PDFs) to it."""
    event = running_event(request, event_id)
    round_ = _round(event, request)
    if request.method == "POST" and round_ is not None:
        request.upload_max_size = settings.SHEET_PHOTO_MAX_BYTES  # a phone's photo each
        _accept_files(request, round_)
        return redirect(_queue_url(event, round_))
    rows = []
    for sheet in stack.queue(round_) if round_ is not None else []:
        rows.append(
            {
                "sheet": sheet,
                "state": str(STATE_WORDS[sheet.state]),
                "refusal": refusal_words(sheet.refusal) if sheet.refusal else "",
                "url": reverse("manage:results-stack-sheet", args=[event.pk, sheet.pk]),
            }
        )
    waiting = next((r for r in rows if r["sheet"].state in ("read", "refused")), None)
    return render(
        request,
        "manage/results/stack.html",
        {
            "event": event,
            "round": round_,
            "rounds": event.rounds.exclude(state=Round.State.DRAFT).order_by("-number"),
            "rows": rows,
            "start": waiting,
            "reading": any(r["sheet"].state == "queued" for r in rows),
            "max_files": settings.SHEET_STACK_MAX_FILES,
        },
    )


def _accept_files(request, round_: Round) -> None:
    """Keep each photo (each page of a PDF); a file refused is named with its reason."""
    uploads = request.FILES.getlist("photos")
    if getattr(request, "upload_too_large", False):
        messages.error(request, refusal_words("too_large"))
    if not uploads:
        if not getattr(request, "upload_too_large", False):
            messages.error(request, _("请选择记分表的照片。"))
        return
    if len(uploads) > settings.SHEET_STACK_MAX_FILES:
        messages.error(
            request, _("一次最多 %(n)s 个文件。") % {"n": settings.SHEET_STACK_MAX_FILES}
        )
        return
    kept = 0
    for upload in uploads:
        data = upload.read()
        try:
            if data[:5] == b"%PDF-":
                pages = stack.pdf_pages(data)
                for number, page in enumerate(pages, 1):
                    stack.accept(round_, page, f"{upload.name} p. {number}", request.user)
                kept += len(pages)
            else:
                stack.accept(round_, data, upload.name, request.user)
                kept += 1
        except sheets.PhotoRefused as exc:
            messages.error(request, f"{upload.name}: {refusal_words(exc.code)}")
    if kept:
        messages.success(request, _("已收到 %(n)s 张记分表，正在识别。") % {"n": kept})


@login_required
def image(request, event_id: int, sheet_id: int):
    """A stack's photo, to the event's staff only (never cached)."""
    event = running_event(request, event_id)
    sheet = get_object_or_404(StackSheet, pk=sheet_id, round__event=event)
    try:
        with sheet.image.open("rb") as stored:
            body = stored.read()
    except FileNotFoundError:
        raise Http404
    return keep_private(HttpResponse(body, content_type="image/jpeg"))


@login_required
def sheet_page(request, event_id: int, sheet_id: int):
    """One sheet of the queue: its photo beside the boxes as read, the boxes the reader was
    unsure of marked for a person; submitting sends its deals in and opens the next sheet."""
    event = running_event(request, event_id)
    sheet = get_object_or_404(
        StackSheet.objects.select_related("round__event", "match__table", "photo"),
        pk=sheet_id,
        round__event=event,
    )
    if request.method != "POST":
        entered = sheet.state == StackSheet.State.DONE and sheet.match is not None
        values = _report_values(sheet.match) if entered else _read_values(sheet)
        return _render(request, sheet, sheet.match, values, [], [])
    if not getattr(adapter_for(event).score_sheet, "desk", False):  # the desk types no sheet
        problems = [{"rule": None, "code": "no_sheet", "text": refusal_words("no_sheet")}]
        return _render(request, sheet, sheet.match, {}, [], problems, status=422)
    match, problems = _chosen_match(sheet, request.POST.get("table", ""))
    values = {k: v.strip()[:1] for k, v in request.POST.items() if k.startswith("d")}
    checked = request.POST.getlist("checked")
    if match is None:
        return _render(request, sheet, None, values, checked, problems, status=422)
    finals = _final_deals(match)
    rows, problems = _posted_rows(match, values, finals)
    problems += _unchecked(sheet, match, checked, finals)
    if not rows and not problems:
        problems = [{"rule": None, "code": "nothing", "text": _("这张记分表上没有填写任何一局。")}]
    if problems:
        return _render(request, sheet, match, values, checked, problems, status=422)
    done = submit_rows(match, rows, Actor(user=request.user), sheet)
    if done.refused is not None:
        described = adapter_for(event).result_form.describe(done.problems)
        for problem in described:
            problem["deal"] = done.refused
        return _render(request, sheet, match, values, checked, described, status=422)
    _say_done(request, match, done.reports)
    following = stack.next_sheet(sheet)
    if following is None:
        return redirect(_queue_url(event, sheet.round))
    return redirect("manage:results-stack-sheet", event.pk, following.pk)


@dataclass
class Submitted:
    """What `submit_rows` did: the deals that went in (number, report) and the refusal that
    stopped it (the deal's number and the engine's problems), if any."""

    reports: list = field(default_factory=list)
    refused: int | None = None
    problems: list[dict] = field(default_factory=list)


def submit_rows(match: Match, rows: list[dict], actor, sheet: StackSheet) -> Submitted:
    """Send a sheet's written rows ({"number", "finish", "points", "burns"}, as the reader gives
    them) down the table phone's path, deal by deal in order: the game's form builds each
    summary as from a read row, `submit_deal_report` judges it (the rules engine, then final or
    waiting for the captains as the event says). The first refusal stops: the deals before it
    went in (a later deal's tributes need the earlier ones). All in: the sheet is done."""
    assert match.table is not None
    form = adapter_for(match.round.event).result_form
    done = Submitted()
    for row in rows:
        entry = form.from_sheet(match.table, row)
        problems = entry.problems()
        if not problems:
            summary = entry.summary()
            # The same row sent again (a retry, or the sheet's later deal fixed) is the same
            # report; a row changed since is a new one, replacing it while it waits.
            text = json.dumps(summary, sort_keys=True).encode()
            key = f"stack-{sheet.pk}-{row['number']}-{hashlib.sha256(text).hexdigest()[:16]}"
            try:
                report, _created = submit_deal_report(
                    match, row["number"], summary, None, actor, key
                )
            except ResultError as exc:
                problems = exc.problems()
            else:
                done.reports.append((row["number"], report))
                continue
        done.refused, done.problems = row["number"], problems
        return done
    sheet.state, sheet.match = StackSheet.State.DONE, match
    sheet.save(update_fields=["state", "match"])
    return done


def _say_done(request, match, reports) -> None:
    waiting = any(report.state == DealReport.State.PENDING for _n, report in reports)
    words = {"table": match.table.number, "n": len(reports)}
    if waiting:
        text = _("第%(table)s桌：%(n)s局已提交，等待双方队长确认") % words
    else:
        text = _("第%(table)s桌：%(n)s局成绩已生效") % words
    messages.success(request, text)


def _chosen_match(sheet: StackSheet, table: str):
    """The sheet's match: read from its codes, or the table the desk typed for a refused one."""
    if sheet.match is not None and sheet.state != StackSheet.State.REFUSED:
        return sheet.match, []
    number = table.strip()
    match = None
    if number.isascii() and number.isdigit() and len(number) < 6:
        match = (
            sheet.round.matches.played()
            .select_related("table", "round__event")
            .filter(table__number=int(number))
            .first()
        )
    if match is None:
        text = _("请填写本轮的桌号。") if not number else _("本轮没有第%(n)s桌。") % {"n": number}
        return None, [{"rule": None, "code": "no_table", "text": text}]
    return match, []


def _final_deals(match) -> set[int]:
    return set(
        DealReport.objects.filter(deal__match=match, state=DealReport.State.FINAL).values_list(
            "deal__number", flat=True
        )
    )


def _rows_of(event) -> int:
    return event.deals_per_match + (event.tie_break_deals or 0)


def _posted_rows(match, values: dict, finals: set[int]) -> tuple[list[dict], list[dict]]:
    """The written rows as the reader gives them ({"number", "finish", "points", "burns"}),
    and what the boxes alone say is wrong (a digit that is no seat, half a burn: R21)."""
    event = match.round.event
    seats = adapter_for(event).table_shape(event).seats
    rows, problems = [], []
    for number in range(1, _rows_of(event) + 1):
        if number in finals:
            continue
        boxes = {name: values.get(f"d{number}.{name}", "") for name in _box_names(len(seats))}
        if not any(boxes.values()):
            continue
        for name, value in boxes.items():
            if value and not (value.isascii() and value.isdigit() and int(value) in seats):
                problems.append(
                    {
                        "rule": None,
                        "code": "not_a_seat",
                        "deal": number,
                        "text": _("%(box)s：%(value)s 不是本桌的座位号")
                        % {"box": box_label(event, name), "value": value},
                    }
                )

        def seat(name: str, boxes: dict = boxes) -> int | None:
            value = boxes[name]
            return int(value) if value.isascii() and value.isdigit() else None

        burns = []
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
        rows.append(
            {
                "number": number,
                "finish": [seat(f"finish.{p}") for p in range(len(seats))],
                "points": [p for k in range(POINT_BOXES) if (p := seat(f"point.{k}"))],
                "burns": burns,
            }
        )
    problems += _posted_events(match, values, finals, rows)
    return rows, problems


def _event_names() -> list[tuple[str, int, list[str]]]:
    """The event strip's lines: (kind, line, its boxes' names "s_tens.0" …), as printed."""
    return [
        (kind, line, [f"{kind}_{part}.{line}" for part, _dx in parts])
        for kind, (_x, parts) in layout.EVENT_COLUMNS.items()
        for line in range(layout.EVENT_LINES)
    ]


def _posted_events(match, values: dict, finals: set[int], rows: list[dict]) -> list[dict]:
    """The event strip's lines typed or read ("d0.s_by.1"), each added to its deal's row (a
    row made for it when its deal has nothing else written: the engine then says what is
    missing); what the boxes alone say is wrong: a deal that is no row, a seat that is none, a
    declaration kind other than 1-3, a line half written."""
    event = match.round.event
    seats = adapter_for(event).table_shape(event).seats
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
        label = adapter_for(event).score_sheet.line_label(kind, line)
        units = digits.get("units")
        number = None if units is None else (digits.get("tens") or 0) * 10 + units
        wrong = number is None or not 1 <= number <= _rows_of(event)
        wrong |= any(digits[part] not in seats for part in ("seat", "by") if part in digits)
        wrong |= "kind" in digits and digits["kind"] not in layout.DECLARATION_KINDS
        if wrong:
            problems.append(
                {
                    "rule": None,
                    "code": "bad_event_line",
                    "text": _("%(line)s：局号、座位或类别没有填对") % {"line": label},
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


def _box_names(seats: int) -> list[str]:
    return (
        [f"finish.{p}" for p in range(seats)]
        + [f"point.{k}" for k in range(POINT_BOXES)]
        + [f"{side}.{pair}" for pair in range(BURN_PAIRS) for side in ("burner", "burned")]
    )


def _unsure(sheet: StackSheet, match) -> dict[int, list[str]]:
    """The boxes the reader was unsure of, by deal (none when the desk types it by hand)."""
    photo = sheet.photo
    if photo is None or photo.match_id != match.pk or not photo.reading:
        return {}
    return {row["number"]: row.get("unsure", []) for row in photo.reading.get("rows", [])}


def _unchecked(sheet: StackSheet, match, checked: list[str], finals: set[int]) -> list[dict]:
    event = match.round.event
    missing = [
        (number, name)
        for number, names in _unsure(sheet, match).items()
        for name in names
        if number not in finals and f"{number}.{name}" not in checked
    ]
    if not missing:
        return []
    labels = "、".join(
        _("第%(n)s局%(box)s") % {"n": n, "box": box_label(event, name)} for n, name in missing
    )
    return [
        {
            "rule": None,
            "code": "sheet_unchecked",
            "text": _("请对照照片核对：%(boxes)s") % {"boxes": labels},
        }
    ]


def _report_values(match) -> dict[str, str]:
    """A done sheet's boxes as its deals went in (the reports in force or waiting), the events
    on the strip's lines in deal order."""
    values: dict[str, str] = {}
    used: dict[str, int] = {}
    reports = DealReport.objects.filter(
        deal__match=match, state__in=[DealReport.State.FINAL, DealReport.State.PENDING]
    ).select_related("deal")
    for report in sorted(reports, key=lambda r: r.deal.number):
        summary, number = report.summary or {}, report.deal.number
        for place, seat in enumerate(summary.get("finish") or []):
            values[f"d{number}.finish.{place}"] = str(seat)
        for k, seat in enumerate((summary.get("points") or [])[:POINT_BOXES]):
            values[f"d{number}.point.{k}"] = str(seat)
        for pair, burn in enumerate((summary.get("burns") or [])[:BURN_PAIRS]):
            values[f"d{number}.burner.{pair}"] = str(burn.get("burner", ""))
            values[f"d{number}.burned.{pair}"] = str(burn.get("burned", ""))
        events: dict[str, list[tuple]] = {
            "s": [(s.get("by"), s.get("seat")) for s in summary.get("suffocated") or []],
            "r": [(seat,) for seat in summary.get("revolution") or []],
            "d": [
                (int(seat), 1 + list(layout.DECLARATION_KINDS.values()).index(kind))
                for seat, kind in (summary.get("declarations") or {}).items()
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


def _read_values(sheet: StackSheet) -> dict[str, str]:
    """The boxes' fields as the reader read them ("d2.finish.0" -> "3")."""
    if sheet.photo is None or not sheet.photo.reading:
        return {}
    values = {}
    for row in sheet.photo.reading.get("rows", []):
        for name, value in (row.get("boxes") or {}).items():
            if value is not None:
                values[f"d{row['number']}.{name}"] = str(value)
    for name, value in (sheet.photo.reading.get("events") or {}).items():
        if value is not None:
            values[f"d0.{name}"] = str(value)
    return values


def _render(request, sheet, match, values, checked, problems, status=200):
    event = sheet.round.event
    seats = adapter_for(event).table_shape(event).seats
    unsure = _unsure(sheet, match) if match is not None else {}
    finals = _final_deals(match) if match is not None else set()
    rows = []
    for number in range(1, _rows_of(event) + 1):
        marked = set(unsure.get(number, []))

        def box(name: str, number=number, marked=marked) -> dict:
            field = f"d{number}.{name}"
            return {
                "name": field,
                "box": f"{number}.{name}",
                "value": values.get(field, ""),
                "marked": name in marked,
                "checked": f"{number}.{name}" in checked,
                "label": box_label(event, name),
            }

        rows.append(
            {
                "number": number,
                "name": adapter_for(event).deal_name(number),
                "final": number in finals,
                "finish": [box(f"finish.{p}") for p in range(len(seats))],
                "points": [box(f"point.{k}") for k in range(POINT_BOXES)],
                "burns": [
                    (box(f"burner.{pair}"), box(f"burned.{pair}")) for pair in range(BURN_PAIRS)
                ],
                "problems": [p for p in problems if p.get("deal") == number],
            }
        )
    # The event strip's lines: a box marked where the reader was unsure of it, ticked under the
    # number of the deal its line was read for.
    attached = {name: number for number, names in unsure.items() for name in names}

    def event_box(name: str) -> dict:
        field, number = f"d0.{name}", attached.get(name)
        return {
            "name": field,
            "box": f"{number}.{name}",
            "value": values.get(field, ""),
            "marked": number is not None,
            "checked": f"{number}.{name}" in checked,
            "label": box_label(event, name),
        }

    headings = adapter_for(event).score_sheet.event_headings()
    events = [
        {"kind": kind, "heading": headings[kind], "lines": []} for kind in layout.EVENT_COLUMNS
    ]
    for kind, _line, names in _event_names():
        column = next(c for c in events if c["kind"] == kind)
        column["lines"].append([event_box(name) for name in names])
    position = list(stack.queue(sheet.round).values_list("pk", flat=True)).index(sheet.pk) + 1
    return render(
        request,
        "manage/results/stack_sheet.html",
        {
            "event": event,
            "round": sheet.round,
            "sheet": sheet,
            "match": match,
            "position": position,
            "total": stack.queue(sheet.round).count(),
            "state": str(STATE_WORDS[sheet.state]),
            "refusal": refusal_words(sheet.refusal) if sheet.refusal else "",
            "image_url": reverse("manage:results-stack-photo", args=[event.pk, sheet.pk]),
            "queue_url": _queue_url(event, sheet.round),
            "rows": rows,
            "events": events,
            "problems": [p for p in problems if not p.get("deal")],
            "row_problems": [p for p in problems if p.get("deal")],
            "table_typed": request.POST.get("table", "") if request.method == "POST" else "",
        },
        status=status,
    )
