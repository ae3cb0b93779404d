"""Issue 27, finding 3: who may do what on the organiser's side, as one table.

Every route of the `manage:` namespace (found through the URL resolver, so a new page fails here
until it is given its row) and the API's staff-only routes, for each role (the organiser, an
assistant, a referee of the event, a captain, a stranger signed in, nobody signed in) and each
method the route answers (GET, and POST where the view takes it): the expected status.

Each request runs in a transaction rolled back after it: one role's POST (closing a round,
revoking a staff member) does not change what the next request finds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from matches.events import staff as staff_service
from matches.models import (
    Announcement,
    EntryRequest,
    EventStaff,
    RefereeCall,
    RefereeLink,
    StackSheet,
    StaffRole,
    Union,
    UnionMember,
)
from tests.builder import EventBuilder
from tests.personas import make_user
from tests.results.conftest import STRING_THREE_A, SUMMARY

pytestmark = pytest.mark.django_db

ROLES = ("organiser", "assistant", "referee", "captain", "stranger", "signed_out")
STAFF = ("organiser", "assistant")  # who runs the event's day
ORGANISER = ("organiser",)  # settings, rules, staff, publishing, release, ending the event

# A route's row: (who may, GET answer for them, POST answer for them; None for a page that only
# shows: not posted to). Everyone else signed in gets 403 (405 when the view takes POST only),
# nobody signed in is sent to the sign-in page (302). "everyone": no sign-in needed (an
# invitation is accepted by signing in or making an account on the spot). The POSTs carry no
# fields: a refusal must come before the form is read, and an allowed POST ends in the form's
# own answer (302 done, 200/400 the form again with its errors, 422 a result the rules refuse).
RIGHTS = {
    # Any signed-in account: its own list of events, a new event, accepting an invitation.
    "events": ("anyone", 200, None),
    "new-event": ("anyone", 200, 400),
    "join-code": ("everyone", 200, 200),
    "join": ("everyone", 200, 200),
    # The organiser's only.
    "settings": (ORGANISER, 200, 400),
    "staff": (ORGANISER, 200, 200),
    "staff-revoke": (ORGANISER, 405, 302),
    "invitation-revoke": (ORGANISER, 405, 302),
    # Issue 37: invitations edited, printed and exported; every entry's private link.
    "invitation-edit": (ORGANISER, 200, 200),  # an empty POST: the form again
    "invitation-sheet": (ORGANISER, 200, None),
    "invitation-export": (ORGANISER, 200, None),
    "entry-links-export": (ORGANISER, 200, None),
    "entry-links-sheet": (ORGANISER, 200, None),
    "round-settings": (ORGANISER, 200, 200),
    "toggle-published": (ORGANISER, 405, 302),
    # Undoing at event level (issue 25): archive, delete, copy, reopen a closed round.
    "archive": (ORGANISER, 200, 302),
    "delete": (ORGANISER, 200, 400),
    "copy": (ORGANISER, 200, 200),  # an empty form is shown again with its errors
    # Round 1 here is published: deleting it as a draft or reopening it is refused (400).
    "round-reopen": (ORGANISER, 200, 400),
    # The day's work: organisers and assistants.
    "dashboard": (STAFF, 200, None),
    "progress": (STAFF, 200, None),
    "recompute": (STAFF, 405, 302),
    "draw": (STAFF, 405, 302),
    "round": (STAFF, 200, None),
    **{
        name: (STAFF, 405, 302)
        for name in (
            "edit-swap",
            "edit-move",
            "edit-sides",
            "edit-pair",
            "edit-bye",
            "edit-player-move",
            "edit-seats",
            "late-unpublish",
            "late-arrive",
            "late-withdraw",
        )
    },
    "round-close": (STAFF, 200, 302),
    # The hall's clock: an empty POST is refused with a message (302).
    **{f"clock-{step}": (STAFF, 405, 302) for step in ("start", "pause", "resume", "extend")},
    "poster": (STAFF, 200, None),
    **{f"table-{step}": (STAFF, 405, 302) for step in ("forfeit", "unforfeit", "stop", "chase")},
    "withdraw": (STAFF, 405, 302),
    "break": (STAFF, 200, 400),
    "bracket": (STAFF, 200, None),
    "round-redraw": (STAFF, 405, 302),
    "round-publish": (STAFF, 405, 302),
    "round-end": (STAFF, 405, 302),
    "round-delete": (STAFF, 200, 400),
    "table-cards": (STAFF, 200, None),
    "score-sheets": (STAFF, 200, None),
    # Feature tables: the staff mark and unmark them; an empty POST names no table (404), and
    # the fixture's round has no feature table to remove (404).
    "features": (STAFF, 200, 404),
    "feature-remove": (STAFF, 405, 404),
    "pairings-pdf": (STAFF, 200, None),
    "checkin": (STAFF, 200, None),
    "checkin-toggle": (STAFF, 405, 302),
    "checkin-many": (STAFF, 405, 302),
    "checkin-undo": (STAFF, 405, 302),
    "checkin-carry-over": (STAFF, 405, 302),
    # The check-in desk: an empty scan is refused at the box (400); an undo without an entry
    # finds none (404).
    "checkin-scan": (STAFF, 200, 400),
    "checkin-scan-undo": (STAFF, 405, 404),
    "entries": (STAFF, 200, 200),
    "register": (STAFF, 200, 200),
    "entry": (STAFF, 200, 200),
    "entry-withdraw": (STAFF, 405, 400),
    "entry-reinstate": (STAFF, 405, 302),
    "entry-link": (STAFF, 200, None),
    "import": (STAFF, 200, 400),
    "paste": (STAFF, 405, 400),  # bulk paste (issue 37): an empty paste is a 400
    "export": (STAFF, 200, None),
    "results": (STAFF, 200, None),
    "results-queue": (STAFF, 200, None),
    # Score sheets' photos (issue 49): the desk's page, a photo (none with that id: 404), the
    # desk's stack (an empty POST sends no photo: back to the queue), one sheet of it (an empty
    # POST names no table for the unread sheet: 422) and its photo (no file kept here: 404).
    "results-sheets": (STAFF, 200, None),
    "sheet-photo": (STAFF, 404, None),
    "results-stack": (STAFF, 200, 302),
    "results-stack-sheet": (STAFF, 200, 422),
    "results-stack-photo": (STAFF, 404, None),
    # A row's rules said again as the desk types (POST only): the refused sheet names no
    # table yet, so its line is empty (200).
    "results-stack-check": (STAFF, 405, 200),
    "results-decide": (STAFF, 405, 302),
    "results-table": (STAFF, 200, None),
    "results-correct": (STAFF, 200, 422),
    "results-recheck": (STAFF, 405, 302),
    "results-viewer": (STAFF, 404, None),
    "link-create": (STAFF, 405, 302),
    "link-revoke": (STAFF, 405, 302),
    "link-qr": (STAFF, 200, None),
    "union-pin-reset": (STAFF, 405, 302),
    "results-pin-unlock": (STAFF, 405, 302),
    "results-accept-table": (STAFF, 405, 302),
    "import-template": (STAFF, 200, None),
    # The hall's floor (issue 26): the staff read the zones, the organiser changes them; a
    # table's call is answered by the staff (and by its referees, on their own pages).
    "zones": ("rules", 200, 302),
    "call-acknowledge": (STAFF, 405, 302),
    # Announcements (issue 37): the event's organisers only; an empty message is refused (400).
    "announcements": (ORGANISER, 200, 400),
    "announcement-withdraw": (ORGANISER, 405, 302),
    # The badge sheet (issue 26): the staff print it; it makes the passes it lacks.
    "badges": (STAFF, 200, None),
    # The result chain's state (issue 38): the staff read it; nothing to change there.
    "chain": (STAFF, 200, None),
    # Its derived rows' check (a task, issue 47): the organisers' only, not the assistants'.
    "chain-derived": (ORGANISER, 200, 302),
    # The rules: everyone of the staff reads them, only the organiser changes them.
    "rules": ("rules", 200, 302),
    # Registration from the players themselves: the organiser opens it and erases contacts;
    # the staff review the requests (an empty POST is refused with a message, 302).
    "signup-settings": (ORGANISER, 200, 200),  # an empty POST: the form again
    "signup-erase": (ORGANISER, 405, 302),
    "signup-queue": (STAFF, 200, None),
    "signup-export": (STAFF, 200, None),
    **{
        f"signup-{step}": (STAFF, 405, 302)
        for step in ("accept", "accept-many", "decline", "waitlist", "withdraw-for", "promote")
    },
    # Entry fees: the staff take payments at the desk; an empty payment is the form again (400).
    "fees": (STAFF, 200, None),
    "fees-export": (STAFF, 200, None),
    "fee-entry": (STAFF, 200, None),
    "fee-pay": (STAFF, 405, 400),
    "fee-owed": (STAFF, 405, 400),
}

# The API's routes for the table's staff (JSON; a refusal is 403, nobody signed in 401).
API_RIGHTS = {
    # A correction replaces a final result: the organiser's (`results.correct_result`).
    "api:deal-correct": (ORGANISER, 201),
    # A report: the table's referees, organisers and assistants.
    "api:deal-report-submit": (STAFF + ("referee",), 201),
}


def _routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            space = f"{pattern.namespace}:" if pattern.namespace else prefix
            yield from _routes(pattern.url_patterns, space)
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield prefix + pattern.name


MANAGE_ROUTES = sorted(
    name.removeprefix("manage:")
    for name in set(_routes(get_resolver().url_patterns))
    if name.startswith("manage:")
)


@pytest.fixture
def world(eager_tasks):
    b = EventBuilder(unions=4, deals=2, confirmation="none").register()
    b.draw_round()
    match = b.first_match()
    report = b.report(match, 1, SUMMARY)  # final at once (no confirmation asked)
    people = {"organiser": b.organiser, "captain": b.people.captain}
    people.update({name: make_user(name) for name in ("assistant", "referee", "stranger")})
    for role in ("assistant", "referee"):
        staff_service.accept(staff_service.invite(b.event, role, by=b.organiser), people[role])
    match.table.referees.add(people["referee"])
    open_invitation = staff_service.invite(b.event, StaffRole.REFEREE, by=b.organiser)
    link = RefereeLink.objects.create(table=match.table, created_by=b.organiser)
    stack_sheet = StackSheet.objects.create(
        round=match.round, image="sheet-stacks/none.jpg", digest="0" * 64, state="refused"
    )
    e = b.event.pk
    entry = b.event.registrations.first()
    request = EntryRequest.objects.create(
        event=b.event, form_key="rights", union_name="候选", players=[{"name": "甲"}]
    )
    args = {
        "events": [],
        "new-event": [],
        "join-code": [],
        "join": [open_invitation.token],
        "round": [e, 1],
        **{
            name: [e, 1]
            for name in RIGHTS
            if name.startswith(("edit-", "late-", "clock-"))
            or name in ("round-redraw", "round-publish", "round-end")
        },
        **{
            name: [e, 1, 1]
            for name in RIGHTS
            if name.startswith("table-") and name != "table-cards"
        },
        "round-close": [e, 1],
        "poster": [e],
        "round-delete": [e, 1],
        "round-reopen": [e, 1],
        "table-cards": [e, 1],
        "score-sheets": [e, 1],
        "features": [e, 1],
        "feature-remove": [e, 1, 1],
        "pairings-pdf": [e, 1],
        "checkin-toggle": [e, b.event.registrations.first().pk],
        "entry": [e, b.event.registrations.first().pk],
        "entry-withdraw": [e, b.event.registrations.first().pk],
        "entry-reinstate": [e, b.event.registrations.first().pk],
        "entry-link": [e, b.event.registrations.first().pk],
        "staff-revoke": [e, EventStaff.objects.get(event=b.event, user=people["assistant"]).pk],
        "invitation-revoke": [e, open_invitation.pk],
        "invitation-edit": [e, open_invitation.pk],
        "invitation-export": [e, "csv"],
        "entry-links-export": [e, "xlsx"],
        "export": [e, "results", "csv"],
        "results-decide": [e, report.pk],
        "sheet-photo": [e, 999_999],
        "results-stack-sheet": [e, stack_sheet.pk],
        "results-stack-photo": [e, stack_sheet.pk],
        "results-stack-check": [e, stack_sheet.pk, 1],
        "results-table": [e, match.table_id],
        "results-correct": [e, match.table_id, 1],
        "results-recheck": [e, match.table_id, 1],
        "results-viewer": [e, match.table_id, report.pk],
        "link-create": [e, match.table_id],
        "link-revoke": [e, link.pk],
        "link-qr": [e, link.pk, "svg"],
        "union-pin-reset": [e, match.union_a_id],
        "results-pin-unlock": [e, match.table_id, match.union_a_id],
        "results-accept-table": [e, match.table_id],
        "import-template": [e, "csv"],
        "call-acknowledge": [e, RefereeCall.objects.create(table=match.table).pk],
        "announcements": [e],
        **{
            name: [e, request.pk]
            for name in RIGHTS
            if name.startswith("signup-")
            and name not in ("signup-settings", "signup-erase", "signup-queue", "signup-export")
            and name not in ("signup-accept-many", "signup-promote")
        },
        "signup-export": [e, "csv"],
        **{name: [e, entry.pk] for name in ("fee-entry", "fee-pay", "fee-owed")},
        "fees-export": [e, "payments", "csv"],
        "announcement-withdraw": [
            e,
            Announcement.objects.create(event=b.event, text="通知", author=b.organiser).pk,
        ],
    }
    clients = {}
    for role in ROLES:
        clients[role] = Client()
        if role in people:
            clients[role].force_login(people[role])
    return {"b": b, "e": e, "args": args, "clients": clients, "match": match, "report": report}


def expected(route: str, role: str, method: str) -> int:
    who, get_status, post_status = RIGHTS[route]
    if role == "signed_out" and who != "everyone":
        return 302  # to the sign-in page, whatever the method
    groups: dict[str, Sequence[str]] = {"anyone": ROLES, "everyone": ROLES, "rules": STAFF}
    allowed = groups[who] if isinstance(who, str) else who
    if method == "POST" and who == "rules":
        allowed = ORGANISER
    if role not in allowed:
        return 405 if method == "GET" and get_status == 405 else 403
    status = get_status if method == "GET" else post_status
    assert status is not None, (route, method)
    return status


def _answer(client, method: str, url: str, **extra) -> int:
    with transaction.atomic():
        response = getattr(client, method.lower())(url, **extra)
        transaction.set_rollback(True)  # the next request finds the world unchanged
    return response.status_code


def test_every_organiser_route_has_a_row():
    assert sorted(RIGHTS) == MANAGE_ROUTES


def test_the_rights_table(world):
    wrong = []
    for route in MANAGE_ROUTES:
        url = reverse(f"manage:{route}", args=world["args"].get(route, [world["e"]]))
        for role in ROLES:
            for method in ("GET", "POST") if RIGHTS[route][2] is not None else ("GET",):
                got = _answer(world["clients"][role], method, url)
                want = expected(route, role, method)
                if got != want:
                    wrong.append(f"{method} {route} as {role}: {got}, expected {want}")
    assert not wrong, "\n".join(wrong)


def test_the_staff_api_rights(world):
    match, report = world["match"], world["report"]
    urls = {
        "api:deal-correct": (
            reverse("api:deal-correct", args=[report.deal_id]),
            # Another result than the report's: an unchanged correction is refused (issue 25).
            {"summary": STRING_THREE_A, "reason": "rights table"},
        ),
        "api:deal-report-submit": (
            reverse("api:deal-report-submit", args=[match.table_id, 2]),
            {"summary": SUMMARY},
        ),
    }
    wrong = []
    for route, (allowed, status) in API_RIGHTS.items():
        url, body = urls[route]
        for role in ROLES:
            client = world["clients"][role]
            got = _answer(
                client, "POST", url, data=json.dumps(body), content_type="application/json"
            )
            want = status if role in allowed else 401 if role == "signed_out" else 403
            if got != want:
                wrong.append(f"POST {route} as {role}: {got}, expected {want}")
            if _answer(client, "GET", url) != 405:
                wrong.append(f"GET {route} as {role}: not 405")
    assert not wrong, "\n".join(wrong)


def test_a_refused_page_is_the_site_s_own_in_the_user_s_language(world):
    """A signed-in user refused a page gets the styled 403 page, in their language."""
    client = world["clients"]["assistant"]
    url = reverse("manage:round-settings", args=[world["e"]])
    page = client.get(url)
    assert page.status_code == 403
    assert "没有权限" in page.content.decode() and "site-header" in page.content.decode()
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 403
    assert "Only organisers manage" in english.content.decode()


def test_an_assistant_cannot_change_round_settings_or_end_the_event(world):
    """Finding 3, as the issue tried it: the assistant's POSTs change nothing."""
    b = world["b"]
    client = world["clients"]["assistant"]
    url = reverse("manage:round-settings", args=[world["e"]])
    before = (b.event.forfeit_score, b.event.release_results, b.event.concluded_at)
    form = {
        "club_policy": "ignore",
        "points_bye": 0,
        "bye_score": 99,
        "forfeit_score": 99,
        "release_draw": "at_once",
        "release_results": "at_once",
        "release_standings": "at_once",
    }
    assert client.post(url, form).status_code == 403
    assert client.post(url, {"conclude": "1"}).status_code == 403
    b.event.refresh_from_db()
    assert (b.event.forfeit_score, b.event.release_results, b.event.concluded_at) == before
    # The organiser may.
    assert world["clients"]["organiser"].post(url, {"conclude": "1"}).status_code == 302
    b.event.refresh_from_db()
    assert b.event.concluded_at is not None


def test_an_assistant_is_shown_no_link_to_the_organiser_s_pages(world):
    """The dashboard offers what its reader may do: no way in that ends in a refusal."""
    e = world["e"]
    links = [
        reverse(name, args=[e])
        for name in ("manage:settings", "manage:staff", "manage:round-settings")
    ] + [reverse("manage:toggle-published", args=[e])]
    dashboard = reverse("manage:dashboard", args=[e])
    page = world["clients"]["assistant"].get(dashboard).content.decode()
    assert not [url for url in links if f'"{url}"' in page]
    page = world["clients"]["organiser"].get(dashboard).content.decode()
    assert all(f'"{url}"' in page for url in links)


# --- seasons (issue 29): series and their points tables, merging player records ---------------

#: The `seasons-manage:` routes: a series is its organisers' (who made it); merging records is
#: for organisers of events (an assistant or a referee is not one); a split is its merger's.
SEASON_RIGHTS = {
    "series-list": ("anyone", 200, 302),  # a POST without a name: told so, back to the list
    "series": (ORGANISER, 200, 400),
    "series-delete": (ORGANISER, 200, 400),  # without the name typed again: refused
    # Co-organisers: an empty username is refused (400); the only organiser cannot be removed.
    "series-organisers": (ORGANISER, 405, 400),
    "series-organiser-remove": (ORGANISER, 405, 400),
    # A deleted series made again from its log: by who deleted or organised it (302: to it).
    "series-restore": (ORGANISER, 405, 302),
    # The merge form leads to its confirmation page: a POST here merges nothing, it is sent
    # on there (302); the confirmation without two records goes back to the players page.
    "players": (ORGANISER, 200, 302),
    "merge": (ORGANISER, 302, 302),
    "split": (ORGANISER, 405, 302),
    # A merge request answered by an organiser of an event it touches (issue 38); anyone else,
    # the requester included, is refused.
    "merge-answer": (ORGANISER, 405, 302),
}


def routes_of(namespace: str) -> list[str]:
    return sorted(
        name.removeprefix(f"{namespace}:")
        for name in set(_routes(get_resolver().url_patterns))
        if name.startswith(f"{namespace}:")
    )


SEASON_ROUTES = routes_of("seasons-manage")


def app_expected(rights: dict, route: str, role: str, method: str) -> int:
    """The answer of a seasons or ladder route (everything there asks for a sign-in)."""
    who, get_status, post_status = rights[route]
    if role == "signed_out":
        return 302
    allowed = ROLES if who == "anyone" else who
    if role not in allowed:
        return 405 if method == "GET" and get_status == 405 else 403
    return get_status if method == "GET" else post_status


def app_table_errors(namespace: str, rights: dict, args: dict, world) -> list[str]:
    """Every route of the namespace, as each role and as a superuser (the one rule,
    `matches.permissions.is_admin`: the organiser's answer on what is not theirs)."""
    admin = Client()
    admin.force_login(make_user("root", is_superuser=True))
    clients = {**world["clients"], "admin": admin}
    wrong = []
    for route in sorted(rights):
        url = reverse(f"{namespace}:{route}", args=args.get(route, []))
        for role in (*ROLES, "admin"):
            for method in ("GET", "POST"):
                got = _answer(clients[role], method, url)
                as_role = "organiser" if role == "admin" else role
                want = app_expected(rights, route, as_role, method)
                if got != want:
                    wrong.append(f"{method} {route} as {role}: {got}, expected {want}")
    return wrong


def test_every_season_route_has_a_row():
    assert sorted(SEASON_RIGHTS) == SEASON_ROUTES


def test_the_season_rights_table(world):
    from players.models import Player
    from seasons import identity
    from seasons.models import Series, SeriesLog
    from seasons.views import series_snapshot

    organiser = world["b"].organiser
    series = Series.objects.create(name="青岛联赛")
    series.organisers.add(organiser)
    merge = identity.merge(
        Player.objects.create(name="甲"), Player.objects.create(name="甲"), organiser
    )
    # Another organiser's records, one in this event: a merge waiting for this organiser.
    other = make_user("other-organiser")
    theirs = EventBuilder(unions=0, name="别人的杯").register()
    theirs.event.organisers.set([other])
    mine_player = world["b"].event.unions.first().players_in_order()[0]
    their_player = Player.objects.create(name=mine_player.name)
    UnionMember.objects.create(
        event=theirs.event,
        union=Union.objects.create(event=theirs.event, name="乙"),
        player=their_player,
        order=1,
    )
    asked = identity.request_merge(their_player, mine_player, other)
    assert asked.waiting == [world["e"]]
    gone = Series.objects.create(name="删错的联赛")
    gone.organisers.add(organiser)
    deleted = SeriesLog.objects.create(
        series_name=gone.name, action="delete", by=organiser, snapshot=series_snapshot(gone)
    )
    gone.delete()
    args = {
        "series": [series.pk],
        "series-delete": [series.pk],
        "series-organisers": [series.pk],
        "series-organiser-remove": [series.pk, organiser.pk],
        "series-restore": [deleted.pk],
        "split": [merge.pk],
        "merge-answer": [asked.pk, "accept"],
    }
    wrong = app_table_errors("seasons-manage", SEASON_RIGHTS, args, world)
    assert not wrong, "\n".join(wrong)


# --- the 擂台赛 ladder: its seasons ---------------------------------------------------------------

#: The `ladders-manage:` routes: any account keeps its own ladder seasons; a season is its
#: organisers' (who made it).
LADDER_RIGHTS = {
    "seasons": ("anyone", 200, 200),  # a POST without a name: told so on the list again
    "season": (ORGANISER, 200, 400),  # a POST without an action: refused as unknown
}
LADDER_ROUTES = routes_of("ladders-manage")


def test_every_ladder_route_has_a_row():
    assert sorted(LADDER_RIGHTS) == LADDER_ROUTES


def test_the_ladder_rights_table(world):
    from ladders.service.season import create_season

    season = create_season(world["b"].organiser, "擂台赛")
    args = {"season": [season.pk]}
    wrong = app_table_errors("ladders-manage", LADDER_RIGHTS, args, world)
    assert not wrong, "\n".join(wrong)
