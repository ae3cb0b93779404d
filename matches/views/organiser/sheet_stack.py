"""The desk's stack of score sheets (docs/scoresheets.md, "The desk's stack"): many photos of a
round's sheets sent at once (or a scanner's PDF), read by the worker into a queue, then worked
through one sheet at a time with its photo beside the read boxes, from the keyboard
(static/js/sheet_stack.js). A sheet goes in down the table phone's result path; one the reader
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
from django.views.decorators.http import require_POST

from matches.kernel.games.registry import adapter_for
from matches.kernel.games.sheet_desk import BoxGroup
from matches.kernel.reports import ResultError
from matches.models import DealReport, Match, Round, StackSheet
from matches.permissions import Actor
from matches.results.submit import submit_deal_report
from matches.sheets import service as sheets
from matches.sheets import stack
from matches.views.organiser.access import running_event
from matches.views.organiser.results import _round
from matches.views.referee.sheet import box_label, refusal_words
from matches.views.sheets import keep_private

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
    desk = stack.desk_of(event)
    if desk is None:  # the game's sheet is not typed at the desk
        problems = [{"rule": None, "code": "no_sheet", "text": refusal_words("no_sheet")}]
        return _render(request, sheet, sheet.match, {}, [], problems, status=422)
    match, problems = _chosen_match(sheet, request.POST.get("table", ""))
    values = stack.typed_boxes(request.POST)
    checked = request.POST.getlist("checked")
    if match is None:
        return _render(request, sheet, None, values, checked, problems, status=422)
    if not any(name.startswith("d") for name in request.POST):
        # The page had no boxes: a refused sheet of a game whose boxes depend on the table
        # (its seats). The table is named now: its boxes, to type.
        return _render(request, sheet, match, {}, [], [])
    finals = stack.final_deals(match)
    seats = stack.seats_of(event, match)
    rows, problems = desk.rows(values, seats, stack.deals_of(event), finals)
    # The rules' own sentences are shown in each row's live line (`_render`), not here.
    refused = stack.rules_alone(match, rows, seats)
    problems += _unchecked(sheet, match, checked, finals)
    if not rows and not problems:
        problems = [{"rule": None, "code": "nothing", "text": _("这张记分表上没有填写任何一局。")}]
    if problems or refused:
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


@login_required
@require_POST
def row_check(request, event_id: int, sheet_id: int, deal: int):
    """The rules' line under one deal's row, said again as the desk types (htmx posts the form
    after a pause in a row's boxes): only the line comes back, so the focus and the boxes stay.
    A row not yet whole, junk, or a sheet with no table yet: an empty line."""
    event = running_event(request, event_id)
    sheet = get_object_or_404(
        StackSheet.objects.select_related("round__event", "match__table"),
        pk=sheet_id,
        round__event=event,
    )
    match, _problems = _chosen_match(sheet, request.POST.get("table", ""))
    said = stack.typed_rules(match, stack.typed_boxes(request.POST), deal) if match else []
    return render(
        request,
        "manage/results/_stack_rules.html",
        {"row": {"number": deal, "rules": said}, "refused": False},
    )


@dataclass
class Submitted:
    """What `submit_rows` did: the deals that went in (number, report) and the refusal that
    stopped it (the deal's number and the engine's problems), if any."""

    reports: list = field(default_factory=list)
    refused: int | None = None
    problems: list[dict] = field(default_factory=list)


def submit_rows(match: Match, rows: list[dict], actor, sheet: StackSheet) -> Submitted:
    """Send a sheet's written rows (each with its "number" and what the game's
    `ResultForm.from_sheet` takes, as the reader gives it) down the table phone's path, deal
    by deal in order: the game's form builds each summary as from a read row,
    `submit_deal_report` judges it (the rules engine, then final or waiting for the captains
    as the event says). The first refusal stops: the deals before it went in (a later deal's
    tributes need the earlier ones). All in: the sheet is done."""
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
    # "条成绩", not "局": a Giog sheet's rows are hands
    words = {"table": match.table.number, "n": len(reports)}
    if waiting:
        text = _("第%(table)s桌：%(n)s条成绩已提交，等待双方队长确认") % words
    else:
        text = _("第%(table)s桌：%(n)s条成绩已生效") % words
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
    """A done sheet's boxes as its deals went in (the reports in force or waiting)."""
    reports = DealReport.objects.filter(
        deal__match=match, state__in=[DealReport.State.FINAL, DealReport.State.PENDING]
    ).select_related("deal")
    summaries = [(r.deal.number, r.summary or {}) for r in reports]
    desk = stack.desk_of(match.round.event)
    return desk.values(sorted(summaries, key=lambda pair: pair[0])) if desk is not None else {}


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
    desk = stack.desk_of(event)
    seats = stack.seats_of(event, match) if desk is not None else 0
    unsure = _unsure(sheet, match) if match is not None else {}
    finals = stack.final_deals(match) if match is not None else set()
    # What the rules say of each row as its boxes stand: a read row's faults at once (a
    # "doubt"), a submitted row's refusal; the line under the row, said again as the desk types.
    said: list[dict] = []
    posted = request.method == "POST"
    if match is not None and (posted or sheet.state != StackSheet.State.DONE):
        said = stack.typed_rules(match, values)
    rows = []
    groups = desk.groups(seats) if desk is not None and seats else []
    for number in range(1, stack.deals_of(event) + 1 if groups else 1):
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
                "groups": [_group(group, box) for group in groups],
                "problems": [p for p in problems if p.get("deal") == number],
                "rules": [p for p in said if p["deal"] == number],
                "check_url": reverse(
                    "manage:results-stack-check", args=[event.pk, sheet.pk, number]
                ),
            }
        )
    # The lines beside the rows (Gou Ji's event strip): a box marked where the reader was
    # unsure of it, ticked under the number of the deal its line was read for.
    attached = {name: number for number, names in unsure.items() for name in names}

    def line_box(name: str) -> dict:
        field, number = f"d0.{name}", attached.get(name)
        return {
            "name": field,
            "box": f"{number}.{name}",
            "value": values.get(field, ""),
            "marked": number is not None,
            "checked": f"{number}.{name}" in checked,
            "label": box_label(event, name),
        }

    strip = desk.strip() if desk is not None and groups else None
    columns = [
        {
            "kind": column.kind,
            "heading": column.heading,
            "lines": [_group(line, line_box)["boxes"] for line in column.lines],
        }
        for column in (strip.columns if strip is not None else ())
    ]
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
            "strip": {"legend": strip.legend, "columns": columns} if strip is not None else None,
            "problems": [p for p in problems if not p.get("deal")],
            "refused": posted,
            "table_typed": request.POST.get("table", "") if request.method == "POST" else "",
        },
        status=status,
    )


def _group(group: BoxGroup, box) -> dict:
    """A group of boxes for the template: each box's field, with its place number where the
    group numbers them and an arrow after it where the paper has one."""
    boxes = []
    for index, name in enumerate(group.names):
        boxes.append(
            {
                **box(name),
                "place": index + 1 if group.numbered else "",
                "arrow": index in group.arrows,
            }
        )
    return {"label": group.label, "boxes": boxes}
