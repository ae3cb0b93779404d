"""Sending the private links: every entry's private link as CSV/XLSX (to paste into
a WeChat group) and as an A4 sheet with a QR code per entry. The organiser's only: the links
open each entry's own page. docs/pages.md, docs/floor.md."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from matches.events import links
from matches.views.addresses import public_url
from matches.views.organiser.access import organised_event
from matches.views.qr import qr_svg
from matches.views.sheets import batch, keep_private, private_table_download

#: entries per printed sheet request (thousands of QR codes print in batches, like the badges)
SHEET_ENTRIES = 60


def _with_urls(request, rows: list[links.EntryLink], with_qr: bool) -> list[links.EntryLink]:
    base = public_url(request, "/")[:-1]
    for row in rows:
        if row.token:
            row.url = base + reverse("entry-page", args=[row.token])
            if with_qr:
                row.qr = qr_svg(row.url)
        row.me_urls = [base + reverse("my-page", args=[t]) if t else "" for t in row.me_tokens]
    return rows


@login_required
@require_GET
def entry_links_export(request, event_id: int, fmt: str):
    event = organised_event(request, event_id)
    rows = _with_urls(request, links.entry_links(event), with_qr=False)
    header, cells = links.entry_table(event, rows)
    return private_table_download(
        header, cells, fmt, title=_("私人链接"), filename=f"private-links-{event.pk}"
    )


@login_required
@require_GET
def entry_links_sheet(request, event_id: int):
    event = organised_event(request, event_id)
    entries = links.entries_in_order(event)
    page, pages, on_page = batch(entries.count(), SHEET_ENTRIES, request)
    rows = _with_urls(request, links.entry_links(event, entries[on_page]), with_qr=True)
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
