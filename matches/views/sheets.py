"""What the organiser's printed sheets and table downloads share: the page number of a sheet
printed in batches, a CSV/XLSX download, and the headers of a response holding private links.
The badges (find.py), the private links (organiser/links.py) and the staff invitations
(organiser/staff.py) use it. docs/floor.md."""

from __future__ import annotations

from django.http import Http404, HttpResponse

from matches.events import exports

EXPORT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def keep_private(response):
    """A page or file holding private links: never kept by a cache, never indexed, and no
    address of it sent on to another site as a referrer."""
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = (
        "same-origin"  # "no-referrer" makes a form post Origin: null (CSRF refuses it)
    )
    return response


def page_number(request) -> int:
    """?page=N of a sheet printed in batches; anything but a plain small number is page 1."""
    value = request.GET.get("page", "1")
    number = int(value) if value.isascii() and value.isdigit() and 0 < len(value) <= 4 else 1
    return max(number, 1)  # ?page=0 is page 1, not a slice from -per_page


def batch(count: int, per_page: int, request) -> tuple[int, int, slice]:
    """(page, pages, the slice of rows on that page) for `count` rows printed `per_page` a page;
    a page past the end shows the last one."""
    pages = max(1, -(-count // per_page))
    page = min(page_number(request), pages)
    return page, pages, slice((page - 1) * per_page, page * per_page)


def private_table_download(header: list, rows: list, fmt: str, title: str, filename: str):
    """A table of private links as a download: CSV (UTF-8 with a BOM, for Excel) or XLSX; any
    other format is a 404. `filename` has no extension."""
    if fmt not in EXPORT_TYPES:
        raise Http404
    body = exports.to_csv(header, rows) if fmt == "csv" else exports.to_xlsx(header, rows, title)
    response = HttpResponse(body, content_type=EXPORT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return keep_private(response)
