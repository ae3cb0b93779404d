"""Entries: the list (search, status filter, paging), add (a late entry after round 1), edit,
withdraw from round N on, reinstate; import from CSV or Excel."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from matches.events import entries as service
from matches.events import importing, pasting, signup
from matches.events.forms import EntryForm, WithdrawForm
from matches.events.registration import next_round_number
from matches.models import Registration
from matches.views.organiser.access import running_event


def _entry_form(event, data=None, **kwargs) -> EntryForm:
    """The entry form of the event: a union holds as many players as a side of its table."""
    return EntryForm(data, team=event.is_team, members=service.union_size(event), **kwargs)


def _list_context(request, event) -> dict:
    query = request.GET.get("q", "").strip()
    status = request.GET.get("status", "")
    found = service.search(event, query, status)
    page = Paginator(found, service.PAGE_SIZE).get_page(request.GET.get("page"))
    return {
        "event": event,
        "page": page,
        "query": query,
        "status": status,
        "statuses": Registration.Status.choices,
        "total": event.registrations.count(),
        "next_round": next_round_number(event),
        "paste_example": paste_example(event),
        "paste_size": service.union_size(event),
    }


@login_required
def entries(request, event_id: int):
    event = running_event(request, event_id)
    form = _entry_form(event, request.POST or None)
    matches: list[dict] = []
    if request.method == "POST" and form.is_valid():
        kwargs = form.entry_kwargs()
        # One person across events: each known record the names match is the organiser's to
        # confirm (a box per record, ticked by default) before it is linked.
        matches = service.known_matches(
            event, kwargs["players"], kwargs.get("club", ""), request.user
        )
        if matches and not request.POST.get("answered"):
            return _ask_known(request, event, form, matches)
        known = {int(v) for v in request.POST.getlist("known") if v.isascii() and v.isdigit()}
        try:
            entry = service.add(
                event, **kwargs, user=request.user, known=known & {m["id"] for m in matches}
            )
        except service.EntryRefused as error:
            form.add_error(None, str(error))
        else:
            late = entry.joins_round > 1
            added = (
                _("已添加（迟到报名，从第 %(n)s 轮起参赛）：%(name)s")
                if late
                else _("已添加：%(name)s")
            ) % {"name": entry.entrant, "n": entry.joins_round}
            draft = event.rounds.filter(state="draft").first()
            note = (
                _("第 %(n)s 轮是草稿：签到后可在草稿页重新编排，把%(name)s排入本轮")
                % {"n": draft.number, "name": entry.entrant}
                if draft is not None
                else ""
            )
            # One person across events: say which names were taken as known players.
            taken_as_known = " ".join(
                _("%(name)s：已有选手 #%(id)s，沿用其记录") % {"name": p.name, "id": p.pk}
                for p in service.known_players(entry)
            )
            added = f"{added} {taken_as_known}" if taken_as_known else added
            if request.htmx:  # the form stays open, empty, for the next entry
                blank = _entry_form(event)
                first = "union" if event.is_team else "player1"
                blank.fields[first].widget.attrs["autofocus"] = True  # type the next one
                return _add_block(request, event, blank, added, note)
            messages.success(request, added)
            if note:
                messages.info(request, note)
            return redirect(reverse("manage:entries", args=[event.pk]) + "?adding=1")
    if request.htmx and request.method == "POST":
        return _add_block(request, event, form)  # htmx swaps no 4xx: the errors are in the form
    context = _list_context(request, event)
    context["form"] = form
    context["add_open"] = bool(form.errors or not context["total"] or request.GET.get("adding"))
    template = (
        "manage/entries/_list.html"
        if request.htmx and request.method == "GET"
        else "manage/entries/list.html"
    )
    return render(request, template, context, status=400 if form.errors else 200)


def _add_block(request, event, form, added: str = "", note: str = "", matches=None):
    """The add form, open, and (out of band) the list with the new entry."""
    context = _list_context(request, event)
    context.update({"form": form, "added": added, "note": note, "open": True, "oob": True})
    context["matches"] = matches or []
    return render(request, "manage/entries/_add_block.html", context)


def _ask_known(request, event, form, matches: list[dict]):
    """The form again, as typed, with the known records found: the organiser ticks the ones
    that are the same person and adds again."""
    if request.htmx:
        return _add_block(request, event, form, matches=matches)
    context = _list_context(request, event)
    context.update({"form": form, "add_open": True, "open": True, "matches": matches})
    return render(request, "manage/entries/list.html", context)


def _entry(event, entry_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("union__club", "player__club").prefetch_related(
            "union__members__player"
        ),
        pk=entry_id,
        event=event,
    )


@login_required
def edit_entry(request, event_id: int, entry_id: int):
    event = running_event(request, event_id)
    entry = _entry(event, entry_id)
    form = _entry_form(event, request.POST or None, initial=EntryForm.initial_for(entry))
    withdraw_form = WithdrawForm(first=service.first_open_round(event))
    if request.method == "POST" and form.is_valid():
        try:
            service.edit(entry, **form.entry_kwargs(), user=request.user)
        except service.EntryRefused as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("已保存：%(name)s") % {"name": entry.entrant})
            return redirect("manage:entries", event.pk)
    return render(
        request,
        "manage/entries/edit.html",
        {"event": event, "entry": entry, "form": form, "withdraw_form": withdraw_form},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def withdraw_entry(request, event_id: int, entry_id: int):
    event = running_event(request, event_id)
    entry = _entry(event, entry_id)
    form = WithdrawForm(request.POST, first=service.first_open_round(event))
    if form.is_valid():
        try:
            service.withdraw(entry, form.cleaned_data["from_round"])
        except service.EntryRefused as error:
            form.add_error("from_round", str(error))
        else:
            signup.entry_withdrawn(entry, request.user)
            messages.success(
                request,
                _("%(name)s 从第 %(n)s 轮起退赛；之前的成绩保留。")
                % {"name": entry.entrant, "n": form.cleaned_data["from_round"]},
            )
            return redirect("manage:entries", event.pk)
    return render(
        request,
        "manage/entries/edit.html",
        {
            "event": event,
            "entry": entry,
            "withdraw_form": form,
            "form": _entry_form(event, initial=EntryForm.initial_for(entry)),
        },
        status=400,
    )


@login_required
@require_POST
def reinstate_entry(request, event_id: int, entry_id: int):
    event = running_event(request, event_id)
    entry = _entry(event, entry_id)
    try:
        service.reinstate(entry)
    except service.EntryRefused as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("%(name)s 已恢复，从第 %(n)s 轮起参赛")
            % {"name": entry.entrant, "n": entry.joins_round},
        )
    return redirect("manage:entries", event.pk)


def _previewed(event, checked: list[dict]) -> list[dict]:
    """Each row's players with the captain marked, as the entries list shows them."""
    size = service.union_size(event)
    for row in checked:
        captain = importing.captain_order(row["values"], size)
        row["members"] = [
            (row["values"].get(f"player{k}", ""), k == captain)
            for k in range(1, importing.MAX_UNION + 1)
            if row["values"].get(f"player{k}")
        ]
    return checked


TEMPLATE_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


@login_required
def import_template(request, event_id: int, fmt: str):
    """The empty import sheet for this event's entry mode, headers in the page's language."""
    event = running_event(request, event_id)
    if fmt not in TEMPLATE_TYPES:
        raise Http404
    language = "en" if (get_language() or "").startswith("en") else "zh-hans"
    mode = "unions" if event.is_team else "players"
    response = HttpResponse(
        importing.template(event, fmt, language), content_type=TEMPLATE_TYPES[fmt]
    )
    response["Content-Disposition"] = f'attachment; filename="entries-{mode}.{fmt}"'
    return response


@login_required
def import_entries(request, event_id: int):
    """Upload a CSV or Excel sheet, see every row with its errors, then import all or nothing."""
    event = running_event(request, event_id)
    context: dict[str, Any] = {
        "event": event,
        "rows": None,
        "headers": importing.accepted_headers(),
        "sheet_headers": {
            "zh": "、".join(importing.template_headers(event, "zh-hans")),
            "en": ", ".join(importing.template_headers(event, "en")),
            "size": service.union_size(event),
        },
    }
    if request.method == "POST" and request.POST.get("confirm"):
        kept = request.session.get(f"import-{event.pk}")
        if not isinstance(kept, dict) or not kept.get("rows"):
            messages.error(request, _("请重新上传文件"))
            return redirect("manage:import", event.pk)
        return _confirmed(request, event, context, f"import-{event.pk}", kept["rows"])
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if getattr(request, "upload_too_large", False):  # gouji_tournament/uploads.py
                raise importing.ImportRefused(_("文件太大"))
            rows = importing.read_upload(upload)
        except importing.ImportRefused as error:
            context["file_error"] = str(error)
            return render(request, "manage/import.html", context, status=400)
        checked = _previewed(event, importing.validate_rows(event, rows, request.user))
        return _preview(request, context, checked, f"import-{event.pk}", {"rows": rows})
    return render(request, "manage/import.html", context)


def _preview(request, context: dict, checked: list[dict], key: str, kept: dict):
    """The preview page of an import or a paste; `kept` (its rows) waits in the session for
    the confirm when no row has an error."""
    context["rows"] = checked
    context["ok"] = not any(r["errors"] for r in checked)
    context["warned"] = any(r["warnings"] for r in checked)
    if context["ok"]:
        request.session[key] = kept
    return render(request, "manage/import.html", context, status=200 if context["ok"] else 400)


def _confirmed(
    request, event, context: dict, key: str, rows: list[dict], lines: list[int] | None = None
):
    """Import the previewed `rows` (kept under `key`), checked again (another entry may have
    taken a name since): all, or none and the preview with its errors."""
    checked = _previewed(event, importing.validate_rows(event, rows, request.user, lines))
    if any(r["errors"] for r in checked):
        context["rows"] = checked
        return render(request, "manage/import.html", context, status=400)
    # Only the known records the organiser ticked in the preview are linked.
    offered = {k["id"] for r in checked for k in r["known"]}
    known = {int(v) for v in request.POST.getlist("known") if v.isascii() and v.isdigit()}
    importing.import_rows(event, rows, user=request.user, known=known & offered)
    del request.session[key]
    messages.success(request, _("已导入 %(n)s 行") % {"n": len(rows)})
    return redirect("manage:entries", event.pk)


def paste_example(event) -> str:
    """The example line the entries page shows above the paste box, with as many players as a
    union of the event holds."""
    players = ["张三", "李四", "王五", "赵六"][: service.union_size(event)]
    if not event.is_team:
        return " ".join(["张三", "李沧俱乐部"])
    return " ".join(["青岛一队", "李沧俱乐部", *players])


@login_required
@require_POST
def paste_entries(request, event_id: int):
    """Entries pasted one per line on the entries page (matches/events/pasting.py), previewed
    like an import with each line's errors, then imported all or nothing on confirm."""
    event = running_event(request, event_id)
    key = f"paste-{event.pk}"
    text = request.POST.get("text", "")
    context: dict[str, Any] = {
        "event": event,
        "rows": None,
        "pasting": True,
        "paste_text": text,
        "paste_size": service.union_size(event),
        "paste_example": paste_example(event),
    }
    if request.POST.get("confirm"):
        kept = request.session.get(key)
        if not isinstance(kept, dict) or not kept.get("rows"):
            messages.error(request, _("请重新粘贴名单"))
            return redirect("manage:entries", event.pk)
        context["paste_text"] = kept.get("text", "")
        return _confirmed(request, event, context, key, kept["rows"], kept.get("lines"))
    try:
        paste = pasting.check_paste(event, text, request.user)
    except importing.ImportRefused as error:
        context["file_error"] = str(error)
        return render(request, "manage/import.html", context, status=400)
    kept = {"rows": paste.rows, "lines": paste.lines, "text": text}
    return _preview(request, context, _previewed(event, paste.checked), key, kept)
