"""Sending the private links (issue 37): every entry's private link as CSV/XLSX (to paste into
a WeChat group) and as an A4 sheet with a QR code per entry. The organiser's only: the links
open each entry's own page. docs/pages.md, docs/floor.md."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from matches.events import exports, links
from matches.views.addresses import public_url
from matches.views.organiser.access import organised_event
from matches.views.organiser.staff import EXPORT_TYPES, keep_private
from matches.views.qr import qr_svg

#: entries per printed sheet request (thousands of QR codes print in batches, like the badges)
SHEET_ENTRIES = 60


def _with_urls(request, rows: list[links.EntryLink], with_qr: bool) -> list[links.EntryLink]:
    base = public_url(request, "/")[:-1]
    for row in rows:
        if row.token:
            row.url = base + reverse("entry-page", args=[row.token])
            if with_qr:
                row.qr = qr_svg(row.url)
    return rows


@login_required
@require_GET
def entry_links_export(request, event_id: int, fmt: str):
    event = organised_event(request, event_id)
    if fmt not in EXPORT_TYPES:
        raise Http404
    rows = _with_urls(request, links.entry_links(event), with_qr=False)
    header, cells = links.entry_table(event, rows)
    body = (
        exports.to_csv(header, cells)
        if fmt == "csv"
        else exports.to_xlsx(header, cells, title=_("私人链接"))
    )
    response = HttpResponse(body, content_type=EXPORT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="private-links-{event.pk}.{fmt}"'
    return keep_private(response)


def _page_number(request) -> int:
    value = request.GET.get("page", "1")
    return int(value) if value.isascii() and value.isdigit() and 0 < len(value) <= 4 else 1


@login_required
@require_GET
def entry_links_sheet(request, event_id: int):
    event = organised_event(request, event_id)
    entries = links.entries_in_order(event)
    total = entries.count()
    pages = max(1, -(-total // SHEET_ENTRIES))
    page = min(_page_number(request), pages)
    chunk = entries[(page - 1) * SHEET_ENTRIES : page * SHEET_ENTRIES]
    rows = _with_urls(request, links.entry_links(event, chunk), with_qr=True)
    round_ = links.drawn_round(event)
    return keep_private(
        render(
            request,
            "manage/entries/links_sheet.html",
            {
                "event": event,
                "rows": rows,
                "round": round_,
                "page": page,
                "pages": pages,
                "page_range": range(1, pages + 1),
            },
        )
    )
