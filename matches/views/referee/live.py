"""The operator's page of a feature table (docs/live-tables.md): a staff link like a referee's
(`/ref/<token>/live/`, the feature table's operator link), made for a phone at 390 px.

First the deal's hands, a count per rank for each seat; then each play in a few taps: the engine
(`matches.results.live`, through the adapter) says whose turn it is and offers the legal plays,
grouped by seat and rank, with pass and yield; a play typed by hand is checked the same way and a
wrong one answers its rule id; undo takes the last action back. Works without JavaScript: every
tap is a form post that comes back to the page. With htmx a play, pass, yield, undo, the end and
a commentary line answer in place: the same post answers the board alone (`_answer`), and the
page's stream skips the notice of the board it has (static/js/live.js).
"""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

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


MODES = ("dealt", "after", "plays")
DECLARATIONS = ("clear", "unclear", "special")


@never_cache
@require_GET
def operator_page(request, token: str):
    found = _operator(request, token)
    if isinstance(found, HttpResponse):
        return found
    access, feature = found
    return _render(request, access, feature, _deal_number(request, feature))


@never_cache
@require_GET
def operator_board(request, token: str, number: int):
    """The page's board alone, refetched when the stream says an action arrived (another phone,
    the API). While the page still shows the hands' form and the deal has started, the whole
    page reloads (htmx: HX-Refresh)."""
    found = _operator(request, token)
    if isinstance(found, HttpResponse):
        return found
    access, feature = found
    deal = LiveDeal.objects.filter(feature=feature, number=number).first()
    if request.GET.get("form") == "hands":
        if deal is None:
            return HttpResponse(status=204)  # nothing to swap: the typed hands stay
        response = HttpResponse("")
        response["HX-Refresh"] = "true"
        return response
    if deal is not None and request.GET.get("v") == live.board_version(deal):
        return HttpResponse(status=204)  # unchanged: an open group of plays stays open
    return _render(request, access, feature, number, board=True)


def _answer(request, access, feature, number: int, error: str = "", status: int = 200, **extra):
    """A tap's answer. Without JavaScript: the page again (a redirect; a refusal, the page with
    its error line and status). For htmx: the board alone, swapped in place, and the address of
    the deal (a reload shows the same board); a refusal too, as 200 (htmx swaps no 4xx answer),
    its error line in the board."""
    url = _page_url(access.token, number)
    if not request.htmx:
        if error:
            return _render(request, access, feature, number, error, status, **extra)
        return redirect(url)
    if not LiveDeal.objects.filter(feature=feature, number=number).exists():
        return HttpResponseClientRedirect(url)  # no board yet: the hands' page
    response = _render(request, access, feature, number, error, board=True, **extra)
    response["HX-Replace-Url"] = url
    return response


def _render(request, access, feature, number: int, error="", status=200, board=False, typed=None):
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
        "board_url": reverse("referee:link-live-board", args=[access.token, number]),
    }
    if deal is None:
        labels = (adapter.live_play(event, {}, []) or {}).get("labels", {})
        owed = live.tributes_owed(feature, number)
        mode = request.POST.get("mode") or request.GET.get("mode") or ""
        if mode not in MODES:
            mode = "dealt" if owed else "after"
        if mode == "dealt" and owed is None:
            mode = "after"
        typed = request.POST

        def grid(prefix: str) -> list[dict]:
            return [
                {
                    "name": f"{prefix}_{char}",
                    "label": label,
                    "value": typed.get(f"{prefix}_{char}", ""),
                }
                for char, label in labels.items()
            ]

        # a refused form comes back with what was typed (nothing is lost)
        context["seat_rows"] = [
            {
                "seat": s,
                "who": names.get(s),
                "rebel": bool(typed.get(f"rev{s}")),
                "declared": typed.get(f"dec{s}", ""),
                "inputs": grid(f"h{s}"),
            }
            for s in seats
        ]
        context.update(
            {
                "mode": mode,
                "owed": owed,
                "declarations": [
                    ("clear", _("明点")),
                    ("unclear", _("暗点")),
                    ("special", _("特点")),
                ],
                "tributes": _tribute_rows(owed or [], grid),
            }
        )
        return render(request, "referee/live_hands.html", context, status=status)
    play, version, rows = live.board(feature, deal)
    if deal.summary is not None:  # plays without hands, ended with the finishing order
        play.update(complete=True, finish=deal.summary["finish"], turn=None)
    labels = play.get("labels", {})
    finish = list(play["finish"])
    context["board_url"] += f"?v={version}"
    context.update(
        {
            "play": play,
            "board": board,
            "version": version,
            "typed": typed,  # a refused play typed by hand comes back to be corrected
            "seq": play["accepted"] + 1,
            "choices": _grouped(play.get("legal", []), labels),
            "plays_only": play.get("plays_only", False),
            "rank_options": [(c, labels.get(c, c)) for c in "3456789TJQKA2"],
            "finish_rows": [
                {"place": i + 1, "seat": seat}
                for i, seat in enumerate(
                    finish
                    + [
                        s
                        for s in seats
                        if s not in finish and s not in (deal.setup.get("revolution") or [])
                    ]
                    + list(deal.setup.get("revolution") or [])
                )
            ],
            "seats": list(seats),
            "bought": [  # R28: the engine's purchases of a 3, before play
                {**row, "paid": labels.get(row["paid"], row["paid"])}
                for row in play.get("bought") or []
            ],
            "ended": (deal.summary or {}).get("finish"),
            "recent": [
                {**row.action, "seq": row.seq, "text": _text(row.action, labels)}
                for row in reversed(rows[-12:])
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
    template = "referee/_live_board.html" if board else "referee/live_operator.html"
    return render(request, template, context, status=status)


def _tribute_rows(owed: list[dict], grid) -> list[dict]:
    """The exchange's rows for the form: a tribute's return (还贡); a pooled place tribute's
    payers put in (no input), its pickers pick (`p<i>`) and return to the k-th payer."""
    putters = [row.get("from") for row in owed if row.get("pool") == "put"]
    pickers = [i for i, row in enumerate(owed) if row.get("pool") == "pick"]
    rows = []
    for i, row in enumerate(owed):
        item = {**row, "index": i, "inputs": grid(f"r{i}")}
        if row.get("pool") == "pick":
            k = pickers.index(i)
            item.update(payer=putters[k] if k < len(putters) else None, picks=grid(f"p{i}"))
        rows.append(item)
    return rows


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
    seats = adapter.table_shape(event).seats
    mode = request.POST.get("mode", "after")
    if mode not in MODES:
        mode = "after"

    def cards_of(prefix: str) -> str | None:
        cards = ""
        for char in labels:
            value = request.POST.get(f"{prefix}_{char}", "").strip() or "0"
            count = int(value) if value.isascii() and value.isdigit() and len(value) <= 2 else -1
            if count < 0:
                return None
            cards += char * count
        return cards

    leader = request.POST.get("leader", "")
    setup: dict = {"leader": int(leader) if leader.isascii() and leader.isdigit() else 0}
    if mode == "plays":
        setup["plays_only"] = True
    else:
        hands = {str(seat): cards_of(f"h{seat}") for seat in seats}
        if any(cards is None for cards in hands.values()):
            return _render(request, access, feature, number, _("张数须为整数"), 400)
        setup["dealt" if mode == "dealt" else "hands"] = hands
        if mode == "after":
            setup["whole"] = True  # a deal at a table: the whole deck (R3), a share each (D10)
        if mode == "dealt":
            owed = live.tributes_owed(feature, number) or []
            returns = [
                "" if row.get("pool") == "put" else cards_of(f"r{i}") for i, row in enumerate(owed)
            ]
            picks = [cards_of(f"p{i}") for i, row in enumerate(owed) if row.get("pool") == "pick"]
            if any(cards is None for cards in [*returns, *picks]):
                return _render(request, access, feature, number, _("张数须为整数"), 400)
            setup["returns"] = returns
            if picks and not picks[-1]:
                picks.pop()  # the last picker takes what is left in the pool (R38)
            if picks:
                setup["picks"] = picks
    rebels = [seat for seat in seats if request.POST.get(f"rev{seat}")]
    if rebels:  # R29: declared revolution (holds cards, never acts)
        setup["revolution"] = rebels
    declared = {
        str(seat): request.POST[f"dec{seat}"]
        for seat in seats
        if request.POST.get(f"dec{seat}") in DECLARATIONS
    }
    if declared:  # R34
        setup["declarations"] = declared
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
        return _answer(request, access, feature, number, _("请选择座位"), 400)
    body: dict = {"seq": int(seq), "seat": int(seat)}
    if kind in ("pass", "yield"):
        body[kind] = True
    elif kind == "built":  # plays without hands: a rank and a count, 2s and jokers added
        rank = request.POST.get("rank", "")
        counts = []
        for name in ("count", "twos", "small", "big"):
            value = request.POST.get(name, "").strip() or "0"
            counts.append(
                int(value) if value.isascii() and value.isdigit() and len(value) <= 2 else -1
            )
        if rank not in "3456789TJQKA2" or len(rank) != 1 or min(counts) < 0:
            return _answer(request, access, feature, number, _("张数须为整数"), 400)
        count, twos, small, big = counts
        body["cards"] = rank * count + "2" * twos + "B" * small + "R" * big
    else:
        body["cards"] = request.POST.get("cards", "").strip().upper()
    if request.POST.get("last") and "cards" in body:
        body["last"] = True
    try:
        live.add_action(feature, number, body, access.actor)
    except ResultError as exc:
        typed = {"seat": body["seat"], "cards": body.get("cards", "")}
        extra = {"typed": typed} if request.POST.get("typed") else {}
        return _answer(
            request, access, feature, number, _error_text(exc, event), exc.status, **extra
        )
    return _answer(request, access, feature, number)


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
        return _answer(request, access, feature, number, _error_text(exc, event), exc.status)
    return _answer(request, access, feature, number)


@require_POST
def operator_end(request, token: str, number: int):
    """Plays without hands: the deal ends with its finishing order (place 1, 2, … a seat each)."""
    found = _operator(request, token)
    if isinstance(found, HttpResponse):
        return found
    access, feature = found
    values = request.POST.getlist("place")
    finish = [int(v) if v.isascii() and v.isdigit() else 0 for v in values]
    try:
        live.end_deal(feature, number, finish, access.actor)
    except ResultError as exc:
        event = feature.table.round.event
        return _answer(request, access, feature, number, _error_text(exc, event), exc.status)
    return _answer(request, access, feature, number)


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
        error = _error_text(exc, feature.table.round.event)
        if request.htmx:  # the form in place, the line kept to be corrected
            text = request.POST.get("text", "")
            return _note_form(request, access, number, note_error=error, note_text=text)
        return _render(request, access, feature, number, error, exc.status)
    if request.htmx:  # the form in place, empty for the next line
        return _note_form(request, access, number, note_posted=True)
    return redirect(_page_url(token, number))


def _note_form(request, access, number: int, **context) -> HttpResponse:
    context.update(token=access.token, number=number)
    return render(request, "referee/_live_note.html", context)
