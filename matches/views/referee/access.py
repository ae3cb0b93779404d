"""Who is at which table, and by which route: a referee link (`/ref/<token>/…`, no account) or a
signed-in referee of the table, or an organiser (`/referee/tables/<table_id>/…`). Every view of a
table gets its `Access` from `at_table`: one view function serves both routes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods
from django_htmx.http import HttpResponseClientRedirect

from matches import permissions, ratelimit
from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import ResultError
from matches.models import DealReport, RefereeLink, Table
from matches.permissions import Actor
from matches.results.messages import refusal


@dataclass
class Access:
    """Who is at which table, and by which route (link token or signed-in account)."""

    actor: Actor
    table: Table
    token: str | None = None
    # A refused PIN, shown at its own PIN box: {"report": id, "side": "A", "text": ...}.
    pin_error: dict | None = None

    def url(self, name: str, **kwargs) -> str:
        if self.token:
            return reverse(f"referee:link-{name}", kwargs={"token": self.token, **kwargs})
        return reverse(f"referee:table-{name}", kwargs={"table_id": self.table.pk, **kwargs})


def _table(table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__event", "round__stage", "match").prefetch_related(
            "match__sides__union", "match__sides__player"
        ),
        pk=table_id,
    )


def link_access(request, token: str) -> Access | HttpResponse:
    link = (
        RefereeLink.objects.filter(token=token).select_related("table").first()
        if permissions.LINK_TOKEN.fullmatch(token)
        else None
    )
    if link is None or link.revoked_at is not None:
        if link is None:
            # Only wrong links are locked out, never a valid one (the hall's phones share one
            # address with whoever is guessing; tokens have 192 bits).
            ip = ratelimit.client_ip(request)
            wait = ratelimit.REFEREE_TOKEN_FAILURES.locked_for(ip)
            if wait:
                return _too_many(request, wait)
            ratelimit.REFEREE_TOKEN_FAILURES.fail(ip)
        return render(request, "referee/link_gone.html", {"revoked": link is not None}, status=404)
    # Signed in as well: the report remembers the person too, so they cannot confirm it again
    # from their account as a "second referee".
    user = request.user if request.user.is_authenticated else None
    actor = Actor(user=user, link=link, via=DealReport.Via.REFEREE_LINK)
    return Access(actor=actor, table=_table(link.table_id), token=token)


def _too_many(request, wait: int) -> HttpResponse:
    response = render(
        request, "too_many_attempts.html", {"minutes": max(1, (wait + 59) // 60)}, status=429
    )
    response["Retry-After"] = str(wait)
    return response


def user_access(request, table_id: int) -> Access | HttpResponse:
    if not Table.objects.filter(pk=table_id).exists():
        # A page opened before the round was re-drawn: say so rather than a bare 404.
        return render(request, "referee/link_gone.html", {"table_gone": True}, status=404)
    table = _table(table_id)
    actor = Actor(user=request.user)
    if not permissions.can_enter_results(actor, table):
        return render(request, "referee/forbidden.html", status=403)
    return Access(actor=actor, table=table)


def at_table(methods: list[str] | None = None) -> Callable:
    """A view of one table, `view(request, access, **kwargs)`, served on both routes: by a
    referee link (`token`: no account; never stored by a browser or proxy, as a link is a
    password) and by a signed-in referee of the table or an organiser (`table_id`: the sign-in
    page first). `methods`: the HTTP methods the view answers (405 for the others), checked
    before the link is looked up, and after the sign-in (as the decorators stacked before)."""

    def decorate(view: Callable) -> Callable:
        def by_link(request, token: str, **kwargs):
            access = link_access(request, token)
            if isinstance(access, HttpResponse):
                return access
            return view(request, access, **kwargs)

        def by_account(request, table_id: int, **kwargs):
            access = user_access(request, table_id)
            if isinstance(access, HttpResponse):
                return access
            return view(request, access, **kwargs)

        if methods is not None:
            by_link = require_http_methods(methods)(by_link)
            by_account = require_http_methods(methods)(by_account)
        by_link = never_cache(by_link)
        by_account = login_required(by_account)

        @wraps(view)
        def route(request, **kwargs):
            if "token" in kwargs:  # ref/<token>/…
                return by_link(request, **kwargs)
            return by_account(request, **kwargs)  # referee/tables/<table_id>/…

        return route

    return decorate


def seats_of(table: Table) -> list[dict]:
    return [
        {"seat": s.seat, "side": s.side, "player": s.player, "union": s.union}
        for s in table.seats.select_related("player", "union")
    ]


def form_of(event):
    """The event's game's result form (matches/kernel/games/adapter.py)."""
    return adapter_for(event).result_form


PIN_ERROR = "pin_error"  # the session's key for a refused PIN, shown once at its box


def pin_anchor(report: DealReport, side: str) -> str:
    """The anchor of a report's PIN box for a side on the table page (its id in
    _pin_confirm.html): the page opens with that box in view."""
    return f"#pin-{report.pk}{side}"


def back_to(request, url: str):
    """Back to `url`: htmx follows it as a client redirect."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def result_message(exc: ResultError) -> str:
    """A refusal in the page's language (the service's messages are English)."""
    return refusal(exc)
