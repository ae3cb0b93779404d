"""What spectators see of the feature tables (docs/live-tables.md): the delay is a promise.

Every row of a deal played live keeps the moment it arrived. A spectator, a signed-out reader,
the public API and the mirror read through `spectator_view` alone, which keeps only what
arrived at least the table's delay ago: the deal's hands (when the organiser shows them) and
its actions. The page's HTML, its ETag (a digest of that view) and the stream's notices (held
until their moment, matches/views/live_features.py) are made from nothing else, and the deal's
report, hence its scores and the standings, is submitted only once the delay has passed
(matches/results/live.py). A feature table is public at all only where its round's results are
(`matches.public.visibility`).
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime

from django.http import Http404
from django.utils import timezone

from matches.kernel.games.registry import adapter_for
from matches.models import DealReport, Event, FeatureTable, LiveAction, LiveDeal, LiveNote
from matches.public import visibility


def public_features(event: Event) -> list[FeatureTable]:
    """The event's feature tables whose rounds' results the public may see, newest round first."""
    rows = (
        FeatureTable.objects.filter(table__round__event=event)
        .select_related("table__round__event", "table__match")
        .order_by("-table__round__number", "table__number")
    )
    return [row for row in rows if visibility.results_visible(row.table.round)]


def public_feature_or_404(event: Event, feature_id: int) -> FeatureTable:
    feature = (
        FeatureTable.objects.filter(pk=feature_id, table__round__event=event)
        .select_related("table__round__event", "table__match")
        .first()
    )
    if feature is None or not visibility.results_visible(feature.table.round):
        raise Http404("no such feature table")
    return feature


def cutoff(feature: FeatureTable, now: datetime | None = None) -> datetime:
    """Rows that arrived at or before this moment may be shown."""
    return (now or timezone.now()) - feature.delay


def seat_names(feature: FeatureTable) -> dict[int, dict]:
    seats = feature.table.seats.select_related("player", "union")
    return {
        seat.seat: {
            "name": str(seat.player),
            "union": seat.union.name if seat.union else "",
            "side": seat.side,
        }
        for seat in seats
    }


def spectator_view(feature: FeatureTable, now: datetime | None = None) -> dict:
    """The feature table as spectators may see it now: its deals that started at least the
    delay ago, each with the actions that arrived at least the delay ago."""
    since = cutoff(feature, now)
    event = feature.table.round.event
    adapter = adapter_for(event)
    deals = list(LiveDeal.objects.filter(feature=feature, started_at__lte=since).order_by("number"))
    actions: dict[int, list[dict]] = {deal.pk: [] for deal in deals}
    for deal_id, action in (
        LiveAction.objects.filter(deal__in=deals, at__lte=since)
        .order_by("deal_id", "seq")
        .values_list("deal_id", "action")
    ):
        actions[deal_id].append(action)
    final = set(
        DealReport.objects.final()
        .filter(deal__match__table=feature.table_id, deal__number__in=[d.number for d in deals])
        .values_list("deal__number", flat=True)
    )
    shown = []
    totals = {"A": 0, "B": 0}
    for deal in deals:
        play = adapter.live_play(event, deal.setup, actions[deal.pk]) or {}
        labels = play.get("labels", {})
        scores = play.get("union_scores") or {}
        for side in totals:
            totals[side] += scores.get(side, 0)
        item = {
            "number": deal.number,
            "plays": [_play_text(action, labels) for action in actions[deal.pk]],
            "complete": play.get("complete", False),
            "turn": play.get("turn"),
            "top": play.get("top"),
            "finish": play.get("finish", []),
            "places": play.get("places", {}),
            "points": play.get("points", []),
            "burns": play.get("burns", []),
            "left": play.get("left", {}),
            "union_scores": scores or None,
            # afterwards the deal opens in the deal viewer, once its result is final
            "viewer": deal.number in final,
        }
        if deal.summary is not None and deal.completed_at and deal.completed_at <= since:
            # plays without hands, ended by the operator's finishing order (after the delay)
            item.update(complete=True, turn=None, top=None, finish=deal.summary["finish"])
        if feature.shows == FeatureTable.Shows.HANDS:
            item["hands"] = {
                seat: _cards_text(cards, labels) for seat, cards in play.get("hands", {}).items()
            }
        shown.append(item)
    notes = LiveNote.objects.filter(feature=feature, at__lte=since).order_by("-at", "-id")
    return {
        "notes": [note.text for note in notes[:5]],
        "table": feature.table.number,
        "round": feature.table.round.number,
        "delay_minutes": feature.delay_minutes,
        "shows": feature.shows,
        "deals": shown,
        "union_totals": totals,
    }


def _cards_text(cards: str, labels: dict) -> str:
    return " ".join(labels.get(char, char) for char in cards)


def _play_text(action: dict, labels: dict) -> dict:
    kind = "cards" if "cards" in action else ("pass" if action.get("pass") else "yield")
    return {
        "seat": action.get("seat"),
        "kind": kind,
        "cards": _cards_text(action["cards"], labels) if kind == "cards" else "",
    }


def view_etag(view: dict) -> str:
    """A digest of exactly what the view shows: it moves only when spectators may see more."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def pending_moments(feature: FeatureTable, now: datetime | None = None) -> list[float]:
    """When (epoch seconds) rows already stored become visible: a stream opened now holds its
    notices until then (the rows themselves stay unread)."""
    since = cutoff(feature, now)
    delay = feature.delay
    started = LiveDeal.objects.filter(feature=feature, started_at__gt=since).values_list(
        "started_at", flat=True
    )
    arrived = LiveAction.objects.filter(deal__feature=feature, at__gt=since).values_list(
        "at", flat=True
    )
    written = LiveNote.objects.filter(feature=feature, at__gt=since).values_list("at", flat=True)
    return sorted((moment + delay).timestamp() for moment in [*started, *arrived, *written])


def conditional(request, etag: str, answer):
    """`answer()` or 304, with the view's ETag, for a short shared cache: a cache can only make
    spectators see a view later, never earlier."""
    from django.http import HttpResponseNotModified

    quoted = f'"{etag}"'
    if request.headers.get("If-None-Match") == quoted:
        response = HttpResponseNotModified()
    else:
        response = answer()
    response["ETag"] = quoted
    response["Cache-Control"] = "public, max-age=2"
    return response


def board(feature: FeatureTable) -> dict:
    """The spectator view with the seats' names and unions."""
    view = spectator_view(feature)
    seats = seat_names(feature)
    view["seats"] = seats
    current = view["deals"][-1] if view["deals"] else None
    view["current"] = current
    rows = []
    for seat, who in sorted(seats.items()):
        key = str(seat)
        rows.append(
            {
                "seat": seat,
                **who,
                "left": current["left"].get(key) if current else None,
                "place": current["places"].get(key) if current else None,
                "hand": (current.get("hands") or {}).get(key) if current else None,
                "point": bool(current and seat in current["points"]),
                "turn": bool(current and current["turn"] == seat),
            }
        )
    view["seat_rows"] = rows
    return view
