"""A mirror (SITE_ROLE=mirror) refuses every staff route and every write, and nothing is
written (docs/hall-box.md). Every route the URL resolver knows is walked, with real ids of a
built event, signed out, as the event's organiser and as a site administrator, by GET and POST;
every statement sent to the database is watched."""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from hall.guard import REFUSED_CODE
from hall.routes import PUBLIC_NAMES, PURE_POSTS, mirror_serves
from matches.events import checkin
from matches.models import DealReport, Registration
from matches.public import floor_passes

pytestmark = pytest.mark.django_db

WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|TRUNCATE)\b", re.I)


def _routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


def _example(route: str, ids: dict) -> str:
    """A concrete path of a route: path converters get real ids, regular expressions (the
    admin's) their first alternative."""

    def param(m):
        kind, name = m.group(1) or "str", m.group(2)
        if kind == "int":
            return str(ids.get(name, 1))
        return ids.get(name, "x1") if kind != "path" else "1/change"

    path = re.sub(r"<(?:(\w+):)?(\w+)>", param, route)
    if "^" in path or "$" in path or "(?P" in path:
        path = re.sub(r"\(\?P<\w+>([^)]*)\)", lambda m: m.group(1).split("|")[0], path)
        path = path.replace("^", "").replace("$", "").replace("\\Z", "").replace(".*", "x")
        path = path.replace("[^/]+", "x").replace("\\d+", "1").replace("\\", "")
    return "/" + path


class Watch:
    """Every write statement sent while it is on."""

    def __init__(self):
        self.writes: list[str] = []

    def __call__(self, execute, sql, params, many, context):
        if WRITE.match(sql):
            self.writes.append(sql[:120])
        return execute(sql, params, many, context)


@pytest.fixture
def mirror(settings, setup):
    settings.SITE_ROLE = "mirror"
    settings.STAFF_BASE_URL = "http://192.168.1.10"
    b = setup.builder
    b.event.published = True
    b.event.save()
    b.report_all(setup.round, confirm=False)
    report = DealReport.objects.filter(deal__match=setup.match).first()
    entry = Registration.objects.filter(event=setup.event).first()
    ids = {
        "event_id": setup.event.pk,
        "number": 1,
        "table": setup.table.number,
        "table_id": setup.table.pk,
        "match_id": setup.match.pk,
        "deal": 1,
        "deal_id": report.deal_id,
        "report_id": report.pk,
        "union_id": setup.union_a.pk,
        "entry_id": entry.pk,
        "token": setup.link.token,
        "game": "gouji",
    }
    return setup, ids


def _clients(setup):
    anonymous = Client()
    organiser = Client()
    organiser.force_login(setup.organiser)
    admin = Client()
    admin.force_login(setup.admin)
    return {"anonymous": anonymous, "organiser": organiser, "admin": admin}


def _classified():
    """Every route's path template."""
    return sorted(set(_routes(get_resolver().url_patterns)))


def test_every_staff_route_and_write_is_refused_and_writes_nothing(mirror):
    setup, ids = mirror
    clients = _clients(setup)
    watch = Watch()
    refused, served, unresolved = [], [], []
    counts = {
        "reports": DealReport.objects.count(),
        "registrations": Registration.objects.filter(checked_in_at__isnull=False).count(),
    }
    with connection.execute_wrapper(watch):
        for route in _classified():
            path = _example(route, ids)
            try:
                match = resolve(path)
            except Exception:
                unresolved.append((route, path))
                continue
            for method in ("get", "post"):
                allowed = mirror_serves(match.view_name, match.namespace, method.upper())
                if allowed:
                    served.append((match.view_name, method))
                    continue
                for who, client in clients.items():
                    body = {} if method == "get" else {"agrees": True, "summary": "x"}
                    response = getattr(client, method)(path, body)
                    where = f"{method.upper()} {path} ({match.view_name}, {who})"
                    assert response.status_code == 403, where
                    if path.startswith("/api/"):
                        assert response.json()["error"]["code"] == REFUSED_CODE, where
                    else:
                        text = response.content.decode()
                        assert 'id="run-from-hall"' in text, where
                        assert "http://192.168.1.10" in text, where
                refused.append((match.view_name, method))
    assert not unresolved, unresolved
    assert not watch.writes, watch.writes
    assert DealReport.objects.count() == counts["reports"]
    names = {name for name, _ in refused}
    # The staff side, each audience: the walk can fail when one of them slips through.
    for name in (
        "manage:dashboard",
        "manage:round-publish",
        "referee:link-table",
        "referee:link-submit",
        "referee:home",
        "api:deal-report-submit",
        "api:report-confirm",
        "api:deal-report-batch",
        "api:table-detail",
        "login",
        "logout",
        "admin:index",
        "admin:login",
        "live:staff",
        "live:referee",
        "seasons-manage:series-list",
    ):
        assert name in names, name
    # Writes on public routes are refused too: a player's self check-in.
    assert ("my-page", "post") in refused and ("entry-page", "post") in refused
    assert len(refused) > 150


def test_public_routes_are_served_on_a_mirror(mirror):
    setup, ids = mirror
    client = Client()
    watch = Watch()
    with connection.execute_wrapper(watch):
        for route in _classified():
            path = _example(route, ids)
            match = resolve(path)
            if not mirror_serves(match.view_name, match.namespace, "GET"):
                continue
            if match.view_name.startswith("live:"):
                continue  # endless streams: tests/live holds them
            response = client.get(path)
            assert response.status_code < 500, path
            assert response.status_code != 403, path
    assert not watch.writes, watch.writes
    # Every public room is served: the events', the seasons', the ladders'.
    for name, namespace in (
        ("public:event", "public"),
        ("seasons:ratings", "seasons"),
        ("ladders:season", "ladders"),
    ):
        assert mirror_serves(name, namespace, "GET"), name
    page = client.get(f"/events/{setup.event.pk}/")
    assert page.status_code == 200
    assert 'id="hall-status"' in page.content.decode()  # the staleness banner's place
    assert "/accounts/login/" not in page.content.decode()  # nobody signs in here


def test_the_rules_checks_still_answer_on_a_mirror(mirror):
    response = Client().post(
        "/api/v1/rules/settle", data=json.dumps({}), content_type="application/json"
    )
    assert response.status_code != 403


def test_private_pages_are_found_by_the_digest_alone(mirror):
    """The mirror has no tokens (not replicated): only their digests. A link still opens."""
    setup, _ids = mirror
    entry = Registration.objects.filter(event=setup.event).first()
    token = checkin.private_token(entry)
    pass_token = floor_passes.pass_token(setup.event, union=setup.union_a)
    # As on the mirror: the token columns are empty, the digests are there.
    Registration.objects.filter(pk=entry.pk).update(private_token=None)
    from matches.models import FloorPass

    FloorPass.objects.filter(event=setup.event).update(token=f"gone-{entry.pk}")
    client = Client()
    assert client.get(f"/entry/{token}/").status_code == 200
    assert client.get(f"/me/{pass_token}/").status_code == 200
    assert client.get("/me/not-a-token/").status_code == 404
    # Checking in there is a write: refused, the row untouched.
    before = Registration.objects.filter(pk=entry.pk).values().get()
    assert client.post(f"/entry/{token}/").status_code == 403
    assert client.post(f"/me/{pass_token}/").status_code == 403
    assert Registration.objects.filter(pk=entry.pk).values().get() == before


def test_allow_list_names_exist():
    """A typo in the allow list would refuse a public page (or nothing at all)."""
    names = set()

    def walk(patterns, namespace=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns, p.namespace or namespace)
            elif p.name:
                names.add(f"{namespace}:{p.name}" if namespace else p.name)

    walk(get_resolver().url_patterns)
    for name in PUBLIC_NAMES | PURE_POSTS:
        assert name in names, name


def test_single_and_box_roles_refuse_nothing(settings, setup):
    for role in ("single", "box"):
        settings.SITE_ROLE = role
        client = Client()
        client.force_login(setup.organiser)
        response = client.get(f"/manage/events/{setup.event.pk}/")
        assert response.status_code == 200, role
