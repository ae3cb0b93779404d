"""Public pages: no login, published events only, silent rounds' results hidden.

Pages that change while a round is live poll themselves with htmx (`hx-trigger="every 5s"`):
each answer carries an ETag built from `event_version`, so an unchanged page costs a 304.
Anonymous answers carry no cookie and may be kept a second by a front cache (`front_cacheable`,
deploy/nginx.conf).
"""

from __future__ import annotations

import functools
import hashlib
import time

from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import condition

from matches import selectors
from matches.draw import bracket, breaks
from matches.models import LadderSeason, Match, Stage, Union
from matches.public import stamps, visibility
from matches.public.front_cache import front_cacheable
from matches.standings.charts import rank_chart_svg
from matches.views.deal_viewer import render_viewer
from players.models import Player

POLL_SECONDS = 5
PAGE_CACHE_SECONDS = 300


def _round_number(request) -> int | None:
    """`?round=N` of the standings page: ASCII digits of a round number (at most 4), else none."""
    value = request.GET.get("round", "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= 4 else None


#: Rows of the standings a page shows: a festival's 1,700 unions come in pages (issue 26), the
#: first screen stays under 30 KiB (tests/public/test_standings_phone.py measures it).
STANDINGS_PAGE_ROWS = 50


def _digits(request, name: str, most: int = 6) -> int | None:
    value = request.GET.get(name, "")
    return int(value) if value.isascii() and value.isdigit() and len(value) <= most else None


def _standings_page_number(request) -> int:
    """`?page=N` of the standings (1 when missing or not a plain number)."""
    return max(1, _digits(request, "page", 5) or 1)


def standings_params(request) -> str:
    """The query parameters the standings page reads, as it reads them (an unknown `kind` is
    the default one): the ETag and the shared cache key are built from these, never from the raw
    query string, so `?z=<random>` neither renders the standings again nor stores a copy."""
    kind = request.GET.get("kind")
    scope = request.GET.get("scope")
    return "|".join(
        (
            kind if kind in ("unions", "players") else "",
            scope if scope in ("event", "stage") else "",
            str(_round_number(request) or ""),
            str(_standings_page_number(request)),
            str(_digits(request, "entry", 12) or ""),
        )
    )


def _etag_from(version, prefix: str = "", params=lambda request: ""):
    """An ETag function for `condition`: the event's public stamp `version(event)`, the language,
    page or htmx fragment, and the query parameters the view reads (`params(request)`)."""

    def etag_func(request, event_id, *args, **kwargs):
        event = visibility.public_events().filter(pk=event_id).first()
        if event is None:
            return None
        event._rounds_once = True  # one request: its rounds are read once (visibility._rounds)
        fragment = "hx" if request.headers.get("HX-Request") else "page"
        etag = f"{prefix}{version(event)}-{get_language()}-{fragment}-{params(request)}"
        request.public_etag = etag  # for `_page`, which caches a full page's fragment under it
        request.public_event = event  # for the view: the same row, no second query
        return etag

    return etag_func


_etag = _etag_from(stamps.event_version)
# The standings page changes with the snapshots only, not with every report.
_standings_etag = _etag_from(stamps.standings_version, prefix="standings-", params=standings_params)


def shared_cache(view=None, *, etag_func=None):
    """Keep a live fragment's rendering in the cache under its ETag: every spectator polling a
    live event gets the same bytes, and a new result changes the ETag (nothing goes stale).

    Only htmx fragments: a full page carries a signed-in visitor's name and CSRF token."""
    if view is None:
        return functools.partial(shared_cache, etag_func=etag_func)
    etag_func = etag_func or _etag

    @functools.wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method != "GET" or not request.headers.get("HX-Request"):
            return view(request, *args, **kwargs)
        etag = getattr(request, "public_etag", None) or etag_func(request, *args, **kwargs)
        if etag is None:
            return view(request, *args, **kwargs)
        key = "public-page:" + hashlib.sha1(f"{request.path}|{etag}".encode()).hexdigest()
        content = cache.get(key)
        if content is not None:
            return _cacheable(HttpResponse(content))
        response = view(request, *args, **kwargs)
        if response.status_code == 200:
            cache.set(key, response.content, PAGE_CACHE_SECONDS)
        return response

    return wrapper


def _cacheable(response):
    # Revalidate every time: the ETag makes that a 304 when nothing changed.
    patch_cache_control(response, public=True, max_age=0, must_revalidate=True)
    patch_vary_headers(response, ["HX-Request", "Cookie", "Accept-Language"])
    return response


def _shared_fragment(key: str | None, render_fragment) -> str:
    """The fragment under `key`, rendered by one request only when it is missing.

    When the standings change, every reader misses the cache at the same moment; without the
    lock each of them rendered the whole table (thousands of rows at a festival) at once. The
    others wait a little for the one rendering, then render themselves if it is slow."""
    if key is None:
        return render_fragment()
    html = cache.get(key)
    if html is not None:
        return html
    if not cache.add(key + ":lock", 1, 10):
        for _ in range(40):  # up to about 2 s
            time.sleep(0.05)
            html = cache.get(key)
            if html is not None:
                return html
    html = render_fragment()
    cache.set(key, html, PAGE_CACHE_SECONDS)
    cache.delete(key + ":lock")
    return html


def _page(request, full: str, fragment: str, context: dict, fragment_context=None):
    """Render the full page or, for htmx, its live fragment.

    With `fragment_context` (a function giving what only the fragment needs), a full page
    takes its fragment from the shared cache as well: the fragment is the same for every
    visitor and the costly part (a festival's standings are thousands of rows), while the page
    around it carries a signed-in visitor's name and CSRF token and is rendered each time.
    """
    if request.headers.get("HX-Request"):
        if fragment_context is not None:
            context = {**context, **fragment_context()}
        return _cacheable(render(request, fragment, context))
    if fragment_context is not None:
        etag = getattr(request, "public_etag", None)
        key = (
            "public-fragment:" + hashlib.sha1(f"{request.path}|{etag}".encode()).hexdigest()
            if etag
            else None
        )
        html = _shared_fragment(
            key, lambda: render_to_string(fragment, {**context, **fragment_context()}, request)
        )
        context = {**context, "fragment_html": mark_safe(html)}
    return _cacheable(render(request, full, context))


def _public_event(request, event_id: int):
    """The published event of the page, as its ETag function read it (or read now)."""
    event = getattr(request, "public_event", None)
    if event is not None and event.pk == event_id:
        return event
    return visibility.public_event_or_404(event_id)


def _is_live(event) -> bool:
    """Whether the standings may still change: until every planned round is closed.

    Between rounds nothing is published, yet the next round is coming: keep polling (an
    unchanged page costs a 304)."""
    if event.rounds.exclude(state="closed").exists() or not event.rounds.exists():
        return True
    planned = sum(stage.planned_rounds or 0 for stage in event.stages.all())
    return not planned or event.rounds.count() < planned


# --- pages --------------------------------------------------------------------------------------


@front_cacheable
def home(request):
    events = visibility.public_events().order_by("-start_date", "name")
    ladders = LadderSeason.objects.filter(published=True)
    return render(request, "home.html", {"events": events, "ladders": ladders})


@front_cacheable
@condition(etag_func=_etag)
@shared_cache
def event_page(request, event_id: int):
    event = _public_event(request, event_id)
    rounds = list(visibility.visible_rounds(event))
    snapshot = visibility.public_snapshot(event, "unions" if event.is_team else "players")
    context = {
        "event": event,
        "rounds": rounds,
        "snapshot": snapshot,
        "live": _is_live(event),
        "poll": POLL_SECONDS,
        "kind": "unions" if event.is_team else "players",
        "has_bracket": any(r.stage.format == Stage.Format.SINGLE_ELIMINATION for r in rounds),
    }
    if not request.headers.get("HX-Request"):  # the full page only, not the polled fragment
        from matches.results import chain  # (here: a merge-friendly import, issue 27)

        context["chain_head"] = chain.public_head(event)
    return _page(request, "public/event.html", "public/_event_live.html", context)


@front_cacheable
@condition(etag_func=_etag)
@shared_cache
def round_page(request, event_id: int, number: int):
    event = _public_event(request, event_id)
    round_ = visibility.visible_round_or_404(event, number)
    visible = visibility.results_visible(round_)
    context = {
        "event": event,
        "round": round_,
        "rounds": list(visibility.visible_rounds(event)),
        "tables": selectors.round_tables(round_, visible),
        "results_visible": visible,
        "live": round_.state == "published",
        "poll": POLL_SECONDS,
    }
    return _page(request, "public/round.html", "public/_round_tables.html", context)


def _public_bracket(event):
    """The knockout bracket as the public may see it: the knockout rounds whose draw is
    released, results only where the round's results are (the round pages' own checks)."""
    stage = breaks.knockout_stage(event)
    if stage is None:
        return None, []
    rounds = [r for r in visibility.visible_rounds(event) if r.stage_id == stage.pk]
    if not rounds:
        return stage, []
    return stage, bracket.build(stage, rounds, visibility.results_visible)


@front_cacheable
@condition(etag_func=_etag)
@shared_cache
def bracket_page(request, event_id: int):
    event = _public_event(request, event_id)
    stage, columns = _public_bracket(event)
    if not columns:
        raise Http404("no knockout round is public")
    context = {
        "event": event,
        "stage": stage,
        "columns": columns,
        # Poll until the final has a winner.
        "live": columns[-1].slots[0].winner is None,
        "poll": POLL_SECONDS,
    }
    return _page(request, "public/bracket.html", "public/_bracket_live.html", context)


@front_cacheable
@condition(etag_func=_etag)
@shared_cache
def table_page(request, event_id: int, number: int, table: int):
    event = _public_event(request, event_id)
    round_ = visibility.visible_round_or_404(event, number)
    match = get_object_or_404(
        Match.objects.with_sides().select_related("table"),
        round=round_,
        table__number=table,
    )
    visible = visibility.results_visible(round_)
    read = selectors.public_table(match, visible)
    page, fragment, context = event.adapter.public_table(event, round_, match, read)
    context.update(
        {
            "event": event,
            "round": round_,
            "match": match,
            "results_visible": visible,
            "live": round_.state == "published",
            "poll": POLL_SECONDS,
        }
    )
    return _page(request, page, fragment, context)


def _step_param(request) -> str:
    value = request.GET.get("step", "")
    return value if value.isascii() and value.isdigit() and len(value) <= 5 else ""


_deal_etag = _etag_from(stamps.event_version, prefix="deal-", params=_step_param)


@front_cacheable
@condition(etag_func=_deal_etag)
def deal_page(request, event_id: int, number: int, table: int, deal: int):
    """A deal's play log step by step, once the round's results are public (never before)."""
    event = visibility.public_event_or_404(event_id)
    round_ = visibility.visible_round_or_404(event, number)
    if not visibility.results_visible(round_) or not event.adapter.has_deal_viewer:
        raise Http404("results not public")
    match = get_object_or_404(
        Match.objects.select_related("table"), round=round_, table__number=table
    )
    report = selectors.final_report(match, deal)
    if report is None or report.play_log is None:
        raise Http404("no play log")
    names = {k: v.player.name for k, v in selectors.table_seats(match).items()}
    title = _("第%(n)s桌") % {"n": table}
    back = reverse("public:table", args=[event.pk, number, table])
    response = render_viewer(
        request, report, names, base="public/base_public.html", back=back, title=title
    )
    return _cacheable(response)


@front_cacheable
@condition(etag_func=_standings_etag)
@shared_cache(etag_func=_standings_etag)
def standings_page(request, event_id: int):
    event = _public_event(request, event_id)
    kinds = ["unions", "players"] if event.is_team else ["players"]
    kind = request.GET.get("kind") if request.GET.get("kind") in kinds else kinds[0]
    scope = request.GET.get("scope") if request.GET.get("scope") in ("event", "stage") else "event"
    round_number = _round_number(request)
    entry = _digits(request, "entry", 12)
    if entry is not None:
        return _standings_entry(request, event, kind, scope, round_number, entry)
    page = _standings_page_number(request)
    # The rounds whose standings are public: a held round's would give its results away.
    shown = set(visibility.standings_visible_round_ids(event))
    rounds = [r for r in visibility.visible_round_list(event) if r.pk in shown]
    context = {
        "event": event,
        "kind": kind,
        "kinds": kinds,
        "scope": scope,
        "rounds": rounds,
        "round_number": round_number,
    }

    def fragment_context() -> dict:
        # Only when the fragment is not cached: the snapshot's rows are the heavy read.
        snapshot = visibility.public_snapshot(event, kind, scope, round_number)
        rows = snapshot.rows if snapshot else []
        pages = max(1, -(-len(rows) // STANDINGS_PAGE_ROWS))
        shown = min(page, pages)
        start = (shown - 1) * STANDINGS_PAGE_ROWS
        return {
            "snapshot": snapshot,
            "rows": rows[start : start + STANDINGS_PAGE_ROWS],
            "page": shown,
            "pages": pages,
            "page_links": _page_links(shown, pages),
            "page_query": _standings_query(kind, scope, round_number),
            "live": _is_live(event),
            "poll": POLL_SECONDS,
        }

    return _page(
        request, "public/standings.html", "public/_standings_table.html", context, fragment_context
    )


def _standings_query(kind: str, scope: str, round_number: int | None) -> str:
    query = f"kind={kind}&scope={scope}"
    return query + (f"&round={round_number}" if round_number else "")


def _page_links(page: int, pages: int) -> list[int | None]:
    """The page numbers a pager shows: the first, the last and two either side (None: a gap)."""
    wanted = sorted({1, pages, *range(max(1, page - 2), min(pages, page + 2) + 1)})
    links: list[int | None] = []
    for number in wanted:
        if links and number - (links[-1] or 0) > 1:
            links.append(None)
        links.append(number)
    return links


def _standings_entry(request, event, kind, scope, round_number, entry: int):
    """`?entry=<union or player id>` (a search's "jump to my row"): to the page holding the
    entry's row, at its anchor. 404 when the public standings have no such row."""
    snapshot = visibility.public_snapshot(event, kind, scope, round_number)
    key = "union" if kind == "unions" else "player"
    index = next(
        (k for k, row in enumerate(snapshot.rows if snapshot else []) if row.get(key) == entry),
        None,
    )
    if index is None:
        raise Http404("not in these standings")
    page = index // STANDINGS_PAGE_ROWS + 1
    return redirect(
        reverse("public:standings", args=[event.pk])
        + f"?{_standings_query(kind, scope, round_number)}&page={page}#entry-{entry}"
    )


@front_cacheable
@condition(etag_func=_etag)
@shared_cache
def player_page(request, event_id: int, player_id: int):
    event = _public_event(request, event_id)
    player = get_object_or_404(Player, pk=player_id)
    seats = selectors.player_seats(event, player)
    if (
        not seats
        and not event.registrations.filter(player=player).exists()
        and not event.unions.filter(members__player=player).exists()
    ):
        raise Http404("not in this event")
    played = selectors.played_seats(seats)
    template, context = event.adapter.public_player(event, player, played)
    context.update({"event": event, "player": player})
    return _cacheable(render(request, template, context))


@front_cacheable
@condition(etag_func=_etag)
@shared_cache
def union_page(request, event_id: int, union_id: int):
    event = _public_event(request, event_id)
    union = get_object_or_404(Union, pk=union_id, event=event, round__isnull=True)
    history = []
    for snapshot in visibility.visible_snapshots(event, "unions").order_by("round__number"):
        row = next((r for r in snapshot.rows if r["union"] == union.pk), None)
        if row:
            history.append(
                {
                    "round": snapshot.round.number,
                    "rank": row["rank"],
                    "points": row["match_points"],
                    "of": len(snapshot.rows),
                }
            )
    matches = list(
        Match.objects.involving(union)
        .filter(round__event=event, round__in=visibility.visible_rounds(event))
        .with_sides()
        .select_related("round__event", "table")
        .order_by("round__number")
    )
    for match in matches:
        match.results_visible = visibility.results_visible(match.round)
    context = {
        "event": event,
        "union": union,
        "members": union.players_in_order(),
        "history": history,
        "chart": rank_chart_svg(history),
        "matches": matches,
    }
    return _cacheable(render(request, "public/union.html", context))
