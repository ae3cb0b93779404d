"""Public pages: no login, published events only, silent rounds' results hidden.

Pages that change while a round is live poll themselves with htmx (`hx-trigger="every 5s"`):
each answer carries an ETag built from `event_version`, so an unchanged page costs a 304.
Anonymous answers carry no cookie and may be kept a second by a front cache (`front_cacheable`,
deploy/nginx.conf).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import condition

from matches import selectors
from matches.draw import bracket
from matches.models import FeatureTable, Match, Stage, Union
from matches.public import ranks, stamps, standings, visibility
from matches.public.caching import (
    cacheable,
    etag_from,
    event_etag,
    public_event,
    shared_cache,
)
from matches.public.caching import (
    page as render_public,
)
from matches.public.front_cache import front_cacheable
from matches.standings import breaks
from matches.standings.charts import rank_chart_svg
from matches.views.deal_viewer import render_viewer
from players.models import Player

STANDINGS_PAGE_ROWS = standings.STANDINGS_PAGE_ROWS


def standings_params(request) -> str:
    return standings.Params.read(request.GET).key()


# The standings page changes with the snapshots only, not with every report.
_standings_etag = etag_from(stamps.standings_version, prefix="standings-", params=standings_params)


# --- pages --------------------------------------------------------------------------------------


@front_cacheable
@condition(etag_func=event_etag)
@shared_cache
def event_page(request, event_id: int):
    event = public_event(request, event_id)
    rounds = list(visibility.visible_rounds(event))
    snapshot = visibility.public_snapshot(event, "unions" if event.is_team else "players")
    context = {
        "event": event,
        "rounds": rounds,
        "snapshot": snapshot,
        # The first rows, each rank as shown (none before a result, "=" when shared).
        "rows": ranks.labelled(snapshot.rows[:12], ranks.shared(snapshot.rows)) if snapshot else [],
        "ties": bool(snapshot and ranks.shared(snapshot.rows)),
        "live": standings.is_live(event),
        "poll": standings.POLL_SECONDS,
        "kind": "unions" if event.is_team else "players",
        "has_bracket": any(r.stage.format == Stage.Format.SINGLE_ELIMINATION for r in rounds),
    }
    if not request.headers.get("HX-Request"):  # the full page only, not the polled fragment
        # A link to the feature tables (docs/live-tables.md): that a table is shown live is
        # the organiser's setting, not play.
        context["has_features"] = FeatureTable.objects.filter(
            table__round__in=[r.pk for r in rounds if visibility.results_visible(r)]
        ).exists()
        from matches.store import chain  # (here: a merge-friendly import)

        context["chain_head"] = chain.public_head(event)
    return render_public(request, "public/event.html", "public/_event_live.html", context)


@front_cacheable
@condition(etag_func=event_etag)
@shared_cache
def round_page(request, event_id: int, number: int):
    event = public_event(request, event_id)
    round_ = visibility.visible_round_or_404(event, number)
    visible = visibility.results_visible(round_)
    context = {
        "event": event,
        "round": round_,
        "rounds": list(visibility.visible_rounds(event)),
        "tables": selectors.round_tables(round_, visible),
        "results_visible": visible,
        "live": round_.state == "published",
        "poll": standings.POLL_SECONDS,
    }
    return render_public(request, "public/round.html", "public/_round_tables.html", context)


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
@condition(etag_func=event_etag)
@shared_cache
def bracket_page(request, event_id: int):
    event = public_event(request, event_id)
    stage, columns = _public_bracket(event)
    if not columns:
        raise Http404("no knockout round is public")
    context = {
        "event": event,
        "stage": stage,
        "columns": columns,
        # Poll until the final has a winner.
        "live": columns[-1].slots[0].winner is None,
        "poll": standings.POLL_SECONDS,
    }
    return render_public(request, "public/bracket.html", "public/_bracket_live.html", context)


@front_cacheable
@condition(etag_func=event_etag)
@shared_cache
def table_page(request, event_id: int, number: int, table: int):
    event = public_event(request, event_id)
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
            "poll": standings.POLL_SECONDS,
        }
    )
    return render_public(request, page, fragment, context)


def _step_param(request) -> str:
    value = request.GET.get("step", "")
    return value if value.isascii() and value.isdigit() and len(value) <= 5 else ""


_deal_etag = etag_from(stamps.event_version, prefix="deal-", params=_step_param)


@front_cacheable
@condition(etag_func=_deal_etag)
def deal_page(request, event_id: int, number: int, table: int, deal: int):
    """A deal's play log step by step, once the round's results are public (never before)."""
    event = public_event(request, event_id)
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
    return cacheable(response)


@front_cacheable
@condition(etag_func=_standings_etag)
@shared_cache(etag_func=_standings_etag)
def standings_page(request, event_id: int):
    event = public_event(request, event_id)
    params = standings.Params.read(request.GET)
    if params.entry is not None:
        return _standings_entry(request, event, params)
    context, fragment_context = standings.context(event, params, request.get_full_path())
    return render_public(request, standings.PAGE, standings.FRAGMENT, context, fragment_context)


def _standings_entry(request, event, params: standings.Params):
    """`?entry=<union or player id>` (a search's "jump to my row"): to the page holding the
    entry's row, at its anchor. 404 when the public standings have no such row."""
    kinds = standings.kinds_of(event)
    kind = params.kind if params.kind in kinds else kinds[0]
    scope = params.scope or "event"
    snapshot = visibility.public_snapshot(event, kind, scope, params.round_number)
    key = "union" if kind == "unions" else "player"
    entry = params.entry
    index = next(
        (k for k, row in enumerate(snapshot.rows if snapshot else []) if row.get(key) == entry),
        None,
    )
    if index is None:
        raise Http404("not in these standings")
    number = index // STANDINGS_PAGE_ROWS + 1
    return redirect(
        reverse("public:standings", args=[event.pk])
        + f"?{standings.query_string(kind, scope, params.round_number)}&page={number}#entry-{entry}"
    )


@front_cacheable
@condition(etag_func=event_etag)
@shared_cache
def player_page(request, event_id: int, player_id: int):
    event = public_event(request, event_id)
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
    return cacheable(render(request, template, context))


@front_cacheable
@condition(etag_func=event_etag)
@shared_cache
def union_page(request, event_id: int, union_id: int):
    event = public_event(request, event_id)
    union = get_object_or_404(Union, pk=union_id, event=event, round__isnull=True)
    history = []
    for snapshot in visibility.visible_snapshots(event, "unions").order_by("round__number"):
        row = next((r for r in snapshot.rows if r["union"] == union.pk), None)
        if row and ranks.has_result(row):  # no rank before the union's first result
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
    return cacheable(render(request, "public/union.html", context))
