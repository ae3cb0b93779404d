"""Find my table, the entry card, a player's or a union's own page and the badge sheet.
The search and the cards read only what the public may (`matches.public.visibility`); my
page is reached by an unguessable token (`FloorPass`) and shows its owner's seat the moment the
round is published. docs/floor.md."""

from __future__ import annotations

import hashlib

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from matches.events import badge_sheet, checkin
from matches.events.scan import desk_code
from matches.models import FloorPass, Union, UnionMember
from matches.public import entry_card, find, floor_passes, limits, seats, stamps, visibility
from matches.public.front_cache import front_cacheable
from matches.views.addresses import public_url
from matches.views.live import player_stream_url
from matches.views.organiser.access import running_event
from matches.views.qr import qr_svg
from matches.views.sheets import batch
from players.models import Player


def card_url(event, hit_kind: str, pk: int) -> str:
    name = "public:card-union" if hit_kind == "union" else "public:card-player"
    return reverse(name, args=[event.pk, pk])


def _hits_html(event, found) -> str:
    """The hits' list items, each rendered once per find version and language (kept with the
    event's index: a new round or a rename renders them anew)."""
    language = get_language()
    parts = []
    for hit in found.hits:
        key = ("find-hit", language, hit.kind, hit.id)
        html = found.memo.get(key)
        if html is None:
            hit.card = card_url(event, hit.kind, hit.id)
            html = found.memo[key] = render_to_string("public/_find_hit.html", {"hit": hit})
        parts.append(html.strip())
    return mark_safe("".join(parts))  # noqa: S308 (our own templates' output, escaped there)


#: seconds a rendered answer is kept in the shared cache (its key holds the find version, so a
#: change is never served stale; this only bounds what idle answers cost the cache)
ANSWER_SECONDS = 300


def _answer_html(request, event, query: str) -> str:
    """The results fragment for `query`, shared by every reader through the cache under the
    event's find version, the release and the language: a hall that searches the same names as
    a round is published reads the index once per name and process, renders once per name."""
    version = find.find_version(event)
    key = (
        "find-answer:"
        + hashlib.sha1(
            f"{event.pk}|{version}|{stamps.release()}|{get_language()}|{query}".encode()
        ).hexdigest()
    )
    html = cache.get(key)
    if html is None:
        found = find.lookup(event, query)
        context = {"round": found.round, "hits": found.hits, "hits_html": _hits_html(event, found)}
        html = render_to_string("public/_find_results.html", context, request)
        cache.set(key, html, ANSWER_SECONDS)
    return html


@front_cacheable
@require_GET
def find_page(request, event_id: int):
    """The search page; htmx asks for its results fragment as the query is typed (the same
    address: the answers vary on HX-Request, so a browser never shows the fragment as the page
    when Enter submits the form)."""
    refused = limits.find_refused(request)
    if refused is not None:
        return refused
    event = visibility.public_event_or_404(event_id)
    raw = request.GET.get("q")
    context: dict = {"event": event, "q": raw or "", "hits": None, "error": ""}
    status = 200
    if raw is not None and raw.strip():
        try:
            query = find.parse_query(raw)
        except find.FindRefused as error:
            context["error"], status = str(error), 400
        else:
            context["results_html"] = mark_safe(_answer_html(request, event, query))  # noqa: S308
    if request.htmx:
        if "results_html" in context:
            response = HttpResponse(context["results_html"], status=status)
        else:
            response = render(request, "public/_find_results.html", context, status=status)
    else:
        response = render(request, "public/find.html", context, status=status)
    patch_cache_control(response, public=True, max_age=5)
    patch_vary_headers(response, ["HX-Request", "Cookie", "Accept-Language"])
    return response


def _card(request, event, union=None, player=None):
    rows = entry_card.card(event, union=union, player=player)
    context = {"event": event, "union": union, "player": player, "rows": rows}
    if player is not None:
        membership = (
            UnionMember.objects.filter(event=event, round__isnull=True, player=player)
            .select_related("union")
            .first()
        )
        context["player_union"] = membership.union if membership else None
    else:
        context["members"] = union.players_in_order()
    response = render(request, "public/card.html", context)
    patch_cache_control(response, public=True, max_age=5)
    return response


@front_cacheable
@require_GET
def union_card(request, event_id: int, union_id: int):
    event = visibility.public_event_or_404(event_id)
    union = get_object_or_404(
        Union.objects.select_related("club"), pk=union_id, event=event, round__isnull=True
    )
    return _card(request, event, union=union)


@front_cacheable
@require_GET
def player_card(request, event_id: int, player_id: int):
    event = visibility.public_event_or_404(event_id)
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    listed = (
        event.registrations.filter(player=player).exists()
        or UnionMember.objects.filter(event=event, round__isnull=True, player=player).exists()
    )
    if not listed:
        raise Http404("not in this event")
    return _card(request, event, player=player)


# --- my page ----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def my_page(request, token: str):
    floor_pass = floor_passes.pass_owner(token)
    if floor_pass is None or floor_pass.event.archived_at is not None:
        raise Http404("no such page")
    event = floor_pass.event
    entry = floor_passes.entry_of(floor_pass)
    if request.method == "POST":
        if entry is None:
            messages.error(request, _("本页不能签到"))
        else:
            try:
                checkin.self_check_in(entry)
            except checkin.CheckInRefused as error:
                messages.error(request, str(error))
            else:
                messages.success(
                    request, _("签到成功：第 %(n)s 轮") % {"n": checkin.next_round(event)}
                )
        return redirect("my-page", token)
    union, player = floor_pass.union, floor_pass.player
    round_ = seats.current_round(event, private=True)
    place = None
    if round_ is not None:
        by_union, by_player = seats.places(
            round_, {union.pk} if union else set(), {player.pk} if player else set()
        )
        place = by_union.get(union.pk) if union else by_player.get(player.pk)  # type: ignore[union-attr]
    number = checkin.next_round(event)
    present = (
        entry is not None
        and event.registrations.filter(checkin.present_q(event, number), pk=entry.pk).exists()
    )
    membership = None
    if player is not None:
        membership = (
            UnionMember.objects.filter(event=event, round__isnull=True, player=player)
            .select_related("union")
            .first()
        )
    context = {
        "event": event,
        "union": union,
        "player": player,
        "player_union": membership.union if membership else None,
        "round": round_,
        "place": place,
        "rows": entry_card.card(event, union=union, player=player) if event.published else [],
        "entry": entry,
        "check_in_round": number,
        "present": present,
        "can_check_in": bool(entry and event.self_check_in and event.check_in_required),
        "player_pin": entry.pin
        if entry is not None and entry.player_id and event.confirmation == "player"
        else "",
        "card": (
            card_url(event, "union" if union else "player", (union or player).pk)  # type: ignore[union-attr]
            if event.published
            else ""
        ),
    }
    # The seat arrives by push the moment the round is published (docs/live.md): a player's
    # own channel, or for a union's page a member's (every seated player is told).
    listener = player or (
        UnionMember.objects.filter(event=event, union=union).order_by("pk").first()
        if union
        else None
    )
    if listener is not None:
        player_id = listener.pk if player else listener.player_id  # type: ignore[union-attr]
        context["player_stream"] = player_stream_url(player_id)
    response = render(request, "public/me.html", context)
    # Private: never kept by a shared cache, never indexed.
    patch_cache_control(response, private=True, no_store=True)
    response["X-Robots-Tag"] = "noindex"
    response["Referrer-Policy"] = "no-referrer"
    return response


# --- the badge sheet (organisers) ---------------------------------------------------------------

#: entries per sheet request (a festival's ten thousand badges print in batches)
BADGE_ENTRIES = 60


@login_required
@require_GET
def badges(request, event_id: int):
    """A4 sheet of badges, cut per person: name, union, club and the QR code of my page; in a
    team event each union's captain card (the union's page) comes first."""
    event = running_event(request, event_id)
    floor_passes.ensure_passes(event)
    order = request.GET.get("order", "")
    order = order if order in badge_sheet.BADGE_ORDERS else "seed"
    entries, seating = badge_sheet.badge_entries(event, order)
    page, pages, on_page = batch(entries.count(), BADGE_ENTRIES, request)
    chunk = list(entries[on_page])
    passes = {
        (p.union_id, p.player_id): p.token
        for p in FloorPass.objects.filter(event=event).only("union_id", "player_id", "token")
    }
    base = public_url(request, "/")[:-1]

    def badge(kind: str, name: str, union: str, club, token: str, captain=False) -> dict:
        url = base + reverse("my-page", args=[token])
        return {
            "kind": kind,
            "name": name,
            "union": union,
            "club": str(club or ""),
            "captain": captain,
            "url": url,
            "qr": qr_svg(url),
            "desk_code": desk_code(token),  # typed at the check-in desk when a scan fails
        }

    cards: list[dict] = []
    members: dict[int, list] = {}
    for m in (
        UnionMember.objects.filter(union__in=[e.union_id for e in chunk if e.union_id])
        .select_related("player__club")
        .order_by("order")
    ):
        members.setdefault(m.union_id, []).append(m)
    for entry in chunk:
        first = len(cards)
        if entry.union is not None:
            u = entry.union
            cards.append(badge("union", u.name, "", u.club, passes[(u.pk, None)]))
            for m in members.get(u.pk, []):
                club = m.player.club or u.club
                cards.append(
                    badge(
                        "player",
                        str(m.player),
                        u.name,
                        club,
                        passes[(None, m.player_id)],
                        m.is_captain,
                    )
                )
        elif entry.player is not None:
            p = entry.player
            card = badge("player", str(p), "", p.club, passes[(None, p.pk)])
            if event.confirmation == event.Confirmation.PLAYER:
                card["pin"] = entry.pin  # to confirm another player's result at the table
            cards.append(card)
        table = getattr(entry, "table_no", None)  # annotated when ordered by table
        for card in cards[first:]:
            card.update(group=_badge_group(entry, order, table), table=table)
    return render(
        request,
        "manage/badges.html",
        {
            "event": event,
            "cards": cards,
            "page": page,
            "pages": pages,
            "page_range": range(1, pages + 1),
            "order": order,
            "orders": [(key, label) for key, label in _badge_order_labels()],
            "seating": seating,
        },
    )


def _badge_group(entry, order: str, table: int | None) -> str:
    """The heading an entry's badges print under: its club, or its table, or none."""
    if order == "club":
        return str(entry.club_name or "") or _("无俱乐部")
    if order == "table":
        return _("第 %(n)s 桌") % {"n": table} if table else _("本轮轮空或未排桌")
    return ""


def _badge_order_labels() -> list[tuple[str, str]]:
    return [("seed", _("按报名顺序")), ("club", _("按俱乐部")), ("table", _("按桌号"))]
