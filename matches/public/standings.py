"""The public standings page's context, built once for its two readers: the view
(`matches.views.public.standings_page`) and the files written for nginx
(`matches.public.standings_files`). Both render the same templates from this, so a file is what
the view would answer an anonymous reader, and a template change reaches both.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe

from matches.models import Event
from matches.public import ranks, visibility

PAGE = "public/standings.html"
FRAGMENT = "public/_standings_table.html"
POLL_SECONDS = 5

#: Rows of the standings a page shows: a festival's 1,700 unions come in pages, the first
#: screen stays under 30 KiB (tests/public/test_standings_phone.py measures it).
STANDINGS_PAGE_ROWS = 50


def _digits(query, name: str, most: int = 6) -> int | None:
    value = query.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= most else None


@dataclass(frozen=True)
class Params:
    """The query parameters the standings page reads, as it reads them: anything else in the
    query string changes neither the page nor its ETag nor its cache key."""

    kind: str = ""  # "unions", "players" or "" (the event's default)
    scope: str = ""  # "event", "stage" or "" (event)
    round_number: int | None = None
    page: int = 1
    entry: int | None = None

    @classmethod
    def read(cls, query) -> Params:
        kind = query.get("kind")
        scope = query.get("scope")
        return cls(
            kind=kind if kind in ("unions", "players") else "",
            scope=scope if scope in ("event", "stage") else "",
            round_number=_digits(query, "round", 4),
            page=max(1, _digits(query, "page", 5) or 1),
            entry=_digits(query, "entry", 12),
        )

    def key(self) -> str:
        return "|".join(
            (
                self.kind,
                self.scope,
                str(self.round_number or ""),
                str(self.page),
                str(self.entry or ""),
            )
        )


def kinds_of(event: Event) -> list[str]:
    return ["unions", "players"] if event.is_team else ["players"]


def is_live(event: Event) -> bool:
    """Whether the standings may still change: until every planned round is closed.

    Between rounds nothing is published, yet the next round is coming: keep polling (an
    unchanged page costs a 304)."""
    if event.rounds.exclude(state="closed").exists() or not event.rounds.exists():
        return True
    planned = sum(stage.planned_rounds or 0 for stage in event.stages.all())
    return not planned or event.rounds.count() < planned


def query_string(kind: str, scope: str, round_number: int | None) -> str:
    query = f"kind={kind}&scope={scope}"
    return query + (f"&round={round_number}" if round_number else "")


def page_links(page: int, pages: int) -> list[int | None]:
    """The page numbers a pager shows: the first, the last and two either side (None: a gap)."""
    wanted = sorted({1, pages, *range(max(1, page - 2), min(pages, page + 2) + 1)})
    links: list[int | None] = []
    for number in wanted:
        if links and number - (links[-1] or 0) > 1:
            links.append(None)
        links.append(number)
    return links


def context(event: Event, params: Params, path: str) -> tuple[dict, Callable[[], dict]]:
    """The page's context, and a function giving what only its fragment needs (the snapshot's
    rows: the heavy read, done only when the fragment is not cached). `path`: the address the
    fragment polls and the language switch comes back to."""
    kinds = kinds_of(event)
    kind = params.kind if params.kind in kinds else kinds[0]
    scope = params.scope or "event"
    round_number = params.round_number
    # The rounds whose standings are public: a held round's would give its results away.
    shown_rounds = set(visibility.standings_visible_round_ids(event))
    rounds = [r for r in visibility.visible_round_list(event) if r.pk in shown_rounds]
    page_context = {
        "event": event,
        "kind": kind,
        "kinds": kinds,
        "scope": scope,
        "rounds": rounds,
        "round_number": round_number,
        "page_path": path,
    }

    def fragment_context() -> dict:
        snapshot = visibility.public_snapshot(event, kind, scope, round_number)
        rows = snapshot.rows if snapshot else []
        pages = max(1, -(-len(rows) // STANDINGS_PAGE_ROWS))
        shown = min(params.page, pages)
        start = (shown - 1) * STANDINGS_PAGE_ROWS
        shared_ranks = ranks.shared(rows)
        return {
            "snapshot": snapshot,
            "rows": ranks.labelled(rows[start : start + STANDINGS_PAGE_ROWS], shared_ranks),
            "ties": bool(shared_ranks),
            "rows_total": len(rows),
            "page": shown,
            "pages": pages,
            "page_links": page_links(shown, pages),
            "page_query": query_string(kind, scope, round_number),
            "live": is_live(event),
            "poll": POLL_SECONDS,
        }

    return page_context, fragment_context


def render_anonymous(event: Event, hx: bool) -> str:
    """The page (or, `hx`, its live fragment) as the view answers an anonymous reader without a
    query string, in the active language. No request: what the templates read of one (the
    visitor, their messages, the address) is given here."""
    path = reverse("public:standings", args=[event.pk])
    page_context, fragment_context = context(event, Params(), path)
    visitor = {"user": AnonymousUser(), "messages": ()}
    fragment = render_to_string(FRAGMENT, {**visitor, **page_context, **fragment_context()})
    if hx:
        return fragment
    return render_to_string(PAGE, {**visitor, **page_context, "fragment_html": mark_safe(fragment)})
