"""The operator's page of a feature table (docs/live-tables.md): a staff link like a referee's
(`/ref/<token>/live/`, the feature table's operator link), made for a phone at 390 px.

First the deal's hands, a count per rank for each seat; then each play in a few taps: the engine
(`matches.results.live`, through the adapter) says whose turn it is and offers the legal plays,
grouped by seat and rank, with pass and yield; a play typed by hand is checked the same way and a
wrong one answers its rule id; undo takes the last action back. Works without JavaScript: every
tap is a form post that comes back to the page.
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import ResultError
from matches.models import FeatureTable, LiveDeal
from matches.results import live
from matches.results.messages import localized
from matches.views.referee.access import Access, link_access


def _operator(request, token: str) -> tuple[Access, FeatureTable] | HttpResponse:
    access = link_access(request, token)
    if isinstance(access, HttpResponse):
        return access
    try:
        feature = live.feature_of(access.table)
    except ResultError:
        raise Http404("not a feature table") from None
    return access, feature


def _deal_number(request, feature) -> int:
    value = request.GET.get("deal", "")
    if value.isascii() and value.isdigit() and 1 <= int(value) <= 999:
        return int(value)
    latest = feature.deals.order_by("-number").first()
    if latest is None:
        return 1
    return latest.number + 1 if latest.report_id is not None else latest.number


def _page_url(token: str, number: int) -> str:
    return reverse("referee:link-live", args=[token]) + f"?deal={number}"


def _error_text(exc: ResultError, event) -> str:
    data = localized(exc, adapter_for(event))
    text = adapter_for(event).describe_error(
        {"code": exc.code, "params": exc.params, "rule": exc.rule}
    )
    text = text or data.get("message") or exc.message
    return f"{exc.rule}: {text}" if exc.rule else text


def _grouped(legal: list[dict], labels: dict) -> list[dict]:
    """The engine's legal actions by seat, then by the rank a play is built on (a few taps)."""
    seats: dict[int, dict] = {}
    for item in legal:
        seat = seats.setdefault(item["seat"], {"seat": item["seat"], "other": [], "ranks": {}})
        if "cards" not in item:
            seat["other"].append({"kind": "pass" if "pass" in item else "yield"})
            continue
        rank = item["rank"] or "2"
        group = seat["ranks"].setdefault(
            rank, {"rank": rank, "label": labels.get(rank, rank), "plays": []}
        )
        group["plays"].append(
            {"cards": item["cards"], "text": " ".join(labels.get(c, c) for c in item["cards"])}
        )
    return [{**s, "ranks": list(s["ranks"].values())} for _seat, s in sorted(seats.items())]


@never_cache
@require_GET
def operator_page(request, token: str):
    found = _operator(request, token)
    if isinstance(found, HttpResponse):
        return found
    access, feature = found
    return _render(request, access, feature, _deal_number(request, feature))


def _render(request, access, feature, number: int, error: str = "", status: int = 200):
    event = feature.table.round.event
    adapter = adapter_for(event)
    deal = LiveDeal.objects.filter(feature=feature, number=number).first()
    seats = adapter.table_shape(event).seats
    names = {seat.seat: seat for seat in access.table.seats.select_related("player", "union")}
    context: dict = {
        "event": event,
        "table": access.table,
        "feature": feature,
        "token": access.token,
        "number": number,
        "deal": deal,
        "error": error,
        "live_stream": reverse("live:link", args=[access.token]),
    }
    if deal is None:
        labels = (adapter.live_play(event, {}, []) or {}).get("labels", {})
        # a refused form comes back with what was typed (nothing is lost)
        context["seat_rows"] = [
            {
                "seat": s,
                "who": names.get(s),
                "rebel": bool(request.POST.get(f"rev{s}")),
                "inputs": [
                    {
                        "name": f"h{s}_{char}",
                        "label": label,
                        "value": request.POST.get(f"h{s}_{char}", ""),
                    }
                    for char, label in labels.items()
                ],
            }
            for s in seats
        ]
        return render(request, "referee/live_hands.html", context, status=status)
    play = live.standing(feature, deal, legal=True)
    labels = play.get("labels", {})
    context.update(
        {
            "play": play,
            "seq": play["accepted"] + 1,
            "choices": _grouped(play.get("legal", []), labels),
            "recent": [
                {**row.action, "seq": row.seq, "text": _text(row.action, labels)}
                for row in deal.actions.order_by("-seq")[:12]
            ],
            "seat_rows": [
                {
                    "seat": s,
                    "who": names.get(s),
                    "left": play["left"].get(str(s)),
                    "place": play["places"].get(str(s)),
                    "turn": play["turn"] == s,
                    "point": s in play["points"],
                }
                for s in seats
            ],
        }
    )
    return render(request, "referee/live_operator.html", context, status=status)


def _text(action: dict, labels: dict) -> str:
    if "cards" in action:
        return " ".join(labels.get(c, c) for c in action["cards"])
    return _("不要") if action.get("pass") else _("让牌")


@require_POST
def operator_hands(request, token: str, number: int):
    found = _operator(request, token)
    if isinstance(found, HttpResponse):
        return found
    access, feature = found
    event = feature.table.round.event
    adapter = adapter_for(event)
    labels = (adapter.live_play(event, {}, []) or {}).get("labels", {})
    hands = {}
    for seat in adapter.table_shape(event).seats:
        cards = ""
        for char in labels:
            value = request.POST.get(f"h{seat}_{char}", "").strip() or "0"
            count = int(value) if value.isascii() and value.isdigit() and len(value) <= 2 else -1
            if count < 0:
                return _render(request, access, feature, number, _("张数须为整数"), 400)
            cards += char * count
        hands[str(seat)] = cards
    leader = request.POST.get("leader", "")
    setup: dict = {
        "hands": hands,
        "leader": int(leader) if leader.isascii() and leader.isdigit() else 0,
    }
    rebels = [seat for seat in adapter.table_shape(event).seats if request.POST.get(f"rev{seat}")]
    if rebels:  # R29: declared revolution (holds cards, never acts)
        setup["revolution"] = rebels
    try:
        live.set_hands(feature, number, setup, access.actor)
    except ResultError as exc:
        return _render(request, access, feature, number, _error_text(exc, event), exc.status)
    return redirect(_page_url(token, number))


@require_POST
def operator_action(request, token: str, number: int):
    found = _operator(request, token)
    if isinstance(found, HttpResponse):
        return found
    access, feature = found
    event = feature.table.round.event
    seq, seat = request.POST.get("seq", ""), request.POST.get("seat", "")
    kind = request.POST.get("kind", "cards")
    if not (seq.isascii() and seq.isdigit() and seat.isascii() and seat.isdigit()):
        return _render(request, access, feature, number, _("请选择座位"), 400)
    body: dict = {"seq": int(seq), "seat": int(seat)}
    if kind in ("pass", "yield"):
        body[kind] = True
    else:
        body["cards"] = request.POST.get("cards", "").strip().upper()
    try:
        live.add_action(feature, number, body, access.actor)
    except ResultError as exc:
        return _render(request, access, feature, number, _error_text(exc, event), exc.status)
    return redirect(_page_url(token, number))


@require_POST
def operator_undo(request, token: str, number: int):
    found = _operator(request, token)
    if isinstance(found, HttpResponse):
        return found
    access, feature = found
    try:
        live.undo_last(feature, number, access.actor)
    except ResultError as exc:
        event = feature.table.round.event
        return _render(request, access, feature, number, _error_text(exc, event), exc.status)
    return redirect(_page_url(token, number))


@require_POST
def operator_note(request, token: str):
    """A commentary line from the operator's page (or a commentator holding the link)."""
    found = _operator(request, token)
    if isinstance(found, HttpResponse):
        return found
    access, feature = found
    number = _deal_number(request, feature)
    try:
        live.add_note(feature, request.POST.get("text", ""), access.actor)
    except ResultError as exc:
        event = feature.table.round.event
        return _render(request, access, feature, number, _error_text(exc, event), exc.status)
    return redirect(_page_url(token, number))
