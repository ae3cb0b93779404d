"""Issue 17, finding 3: no 5xx for any input, on any URL, as anyone.

Every URL pattern the resolver knows (pages, htmx fragments, forms and the API; the admin is
Django's own and left out) is found at run time, so a new page is covered without touching this
file. For each, hypothesis draws a role (anonymous, the event's organiser, another organiser, a
referee link, a signed-in referee), a method, path parameters (real ids and tokens mixed with
junk: huge numbers, unicode digits, NUL, long text), a query string, an htmx header and a body
(form fields the app reads, or JSON for the API, with hostile values). Any 5xx fails, with the
exception that caused it.

Bounded: EXAMPLES per pattern (about 1.5 minutes for the ~55 patterns on the shared 2-core
machine); raise GOUJI_FUZZ_EXAMPLES for a longer hunt.
"""

from __future__ import annotations

import json
import os
import re
import time
import traceback
from urllib.parse import quote, urlencode

import pytest
from django.core.signals import got_request_exception
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from matches.models import DealReport, Event, RefereeLink
from matches.permissions import Actor
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from tests.results.conftest import SUMMARY

EXAMPLES = int(os.environ.get("GOUJI_FUZZ_EXAMPLES", "12"))
ROLES = ("anonymous", "organiser", "other_organiser", "referee_link", "referee")


def _routes(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


ROUTES = sorted(
    {
        route
        for route in _routes(get_resolver().url_patterns)
        if not route.startswith(("admin/", "^"))
    }
)
PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")

# --- values --------------------------------------------------------------------------------

HOSTILE = st.sampled_from(
    [
        "",
        "0",
        "-1",
        "²",
        "٣",
        "1.5",
        "abc",
        "\x00",
        "\ud800",
        "a" * 5000,
        "99999999999999999999",
        "<script>",
        "' OR 1=1 --",
        "../../etc/passwd",
        "\x0b",
        "true",
        "null",
        "[]",
        "{}",
        "1,2,3,4,5,6",
        "yes",
        "on",
        "1",
        "2",
        "players",
        "stage",
        "[" * 40000,
        '{"claimed": "abc"}',
        '{"claimed": [1, 2]}',
        '{"format": "gouji-deal/1", "claimed": 5}',
    ]
)


def mostly(first, other, times: int = 3):
    """`first` `times` times in `times + 1`, else `other` (st.one_of would drop a repeated
    strategy, so repeating it does not weigh it)."""
    return st.integers(0, times).flatmap(lambda k: first if k else other)


# Mostly the hostile values above (each request fills every field, see below), some free text.
JUNK_TEXT = mostly(HOSTILE, st.text(max_size=30))
HUGE_INT = st.one_of(st.integers(0, 10), st.integers(0, 2**31), st.integers(2**31, 10**25))
ROLE = st.sampled_from(
    (
        "anonymous",
        "organiser",
        "organiser",
        "organiser",
        "other_organiser",
        "referee_link",
        "referee",
        "referee",
    )
)
JSON_LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    JUNK_TEXT,
)
JSON = st.recursive(
    JSON_LEAF,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=10), inner, max_size=6)
    ),
    max_leaves=20,
)
FORM_FIELDS = (
    "finish",
    "points",
    "play_log",
    "hand_record",
    "stage",
    "registration",
    "seed",
    "union",
    "club",
    "player1",
    "player2",
    "player3",
    "agrees",
    "note",
    "reason",
    "idempotency_key",
    "won_1",
    "won_2",
    "won_3",
    "won_4",
    "beheaded",
    "silent",
    "confirm",
    "kind",
    "scope",
    "round",
    "tap",
    "declaration_1",
    "revolution",
    "burn_1_burner",
    "suffocated_1_seat",
    "point_3",
    "username",
    "password",
    "next",
    "language",
    "check",
    "part",
)
QUERY_KEYS = (
    "kind",
    "scope",
    "round",
    "check",
    "part",
    "next",
    "language",
    "format",
    "z",
    "page",
    "script",
)


@pytest.fixture
def world(setup, giog, eager_tasks):
    """A published team event with a final and a pending report, a published Giog event, and one
    user (or link) for each role."""
    Event.objects.filter(pk=setup.event.pk).update(published=True, result_confirmation="captain")
    report, _ = submit_report(deal_for(setup.match, 1), SUMMARY, None, Actor(user=setup.referee))
    setup.builder.confirm(report)  # both captains agree (issue 16)
    pending, _ = submit_report(deal_for(setup.match, 2), SUMMARY, None, Actor(user=setup.referee))
    giog_round = giog.draw()
    giog.event.organisers.add(setup.organiser)
    revoked = RefereeLink.objects.create(table=setup.table)
    revoked.revoke()
    other = setup.builder.people.other_organiser  # organises another event, not these
    ids = {
        "event_id": [setup.event.pk, giog.event.pk],
        "number": [1, 2, 3],
        "table": [1, 2],
        "table_id": [setup.table.pk, giog_round.matches.first().table_id],
        "player_id": [setup.union_a.players_in_order()[0].pk, giog.players[0].pk],
        "union_id": [setup.union_a.pk, setup.union_b.pk],
        "report_id": [report.pk, pending.pk],
        "deal_id": list(DealReport.objects.values_list("deal_id", flat=True).distinct()),
        "link_id": [setup.link.pk, revoked.pk],
    }
    words = {
        "token": [setup.link.token, revoked.token],
        "action": ["redraw", "publish", "close"],
        "what": ["results", "standings"],
        "fmt": ["csv", "xlsx", "png", "svg", "pdf"],
    }
    users = {"organiser": setup.organiser, "other_organiser": other, "referee": setup.referee}
    clients = {}
    for role in ROLES:  # one client (and session) per role, signed in once
        clients[role] = Client(raise_request_exception=False, REMOTE_ADDR="10.77.0.1")
        if role in users:
            clients[role].force_login(users[role])
    return {
        "ids": ids,
        "words": words,
        "users": users,
        "token": setup.link.token,
        "clients": clients,
    }


def _methods(world, route) -> list[str]:
    """The methods a route answers, from a probe with real values (a 405 names them in Allow):
    no example is spent on a method the view refuses before reading anything."""
    path = "/" + PARAM.sub(
        lambda m: str((world["ids"].get(m.group(2)) or world["words"].get(m.group(2)) or ["x"])[0]),
        route,
    )
    response = world["clients"]["organiser"].get(path)
    if response.status_code == 405 and response.get("Allow"):
        allowed = [m.strip() for m in response["Allow"].split(",")]
        return [m for m in ("GET", "POST", "PUT", "HEAD") if m in allowed] or ["GET"]
    return ["GET", "POST", "HEAD"]


def _value(draw, world, converter, name):
    # Real values three times in four: a request must get past the 404s to reach the code.
    if converter == "int":
        return str(draw(mostly(st.sampled_from(world["ids"].get(name, [1])), HUGE_INT)))
    return _quote(draw(mostly(st.sampled_from(world["words"].get(name, ["x"])), JUNK_TEXT)) or "x")


def _quote(text: str) -> str:
    """Percent-encoded as a client would send it (a lone surrogate as its invalid bytes)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


@pytest.mark.django_db
def test_no_input_gets_a_5xx(world):
    """One world for every route (building it is the slow part); every route is fuzzed, and
    every route that gave a 5xx is reported, each with its smallest example."""
    errors: list[str] = []
    failures: dict[str, str] = {}
    timings = []

    def record(sender, request=None, **kwargs):
        errors.append(traceback.format_exc())

    got_request_exception.connect(record)
    try:
        for route in ROUTES:
            if os.environ.get("GOUJI_FUZZ_ONLY", "") not in route:
                continue
            started = time.monotonic()
            try:
                _fuzz_route(world, route, errors)
            except AssertionError as exc:
                failures[route] = str(exc)[:3000]
            timings.append((time.monotonic() - started, route))
    finally:
        got_request_exception.disconnect(record)
    print("slowest routes:", sorted(timings, reverse=True)[:5])
    if os.environ.get("GOUJI_FUZZ_REPORT"):
        from collections import Counter

        for key, n in sorted(Counter((r, m, s) for r, m, _role, s in seen).items()):
            print(n, *key)
    assert len(ROUTES) > 40  # the resolver was walked
    assert len(timings) == len(ROUTES) or os.environ.get("GOUJI_FUZZ_ONLY")
    assert not failures, "\n\n".join(f"{route}: {text}" for route, text in failures.items())


seen: list = []  # (route, method, role, status) of every request: printed with -s


def _fuzz_route(world, route, errors):
    methods = _methods(world, route)

    # No shrinking: a failing request is reported as drawn (shrinking a 40,000-bracket body
    # through the whole app takes minutes).
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )
    @given(data=st.data())
    def one_request(data):
        draw = data.draw
        role = draw(ROLE, label="role")
        path = "/" + PARAM.sub(
            lambda m: _value(draw, world, m.group(1) or "str", m.group(2)), route
        )
        # Half the time one hostile value in every field and query key at once (e.g. "²" as the
        # stage, the registration, the seed and the round together), else a mix.
        same = draw(st.one_of(st.none(), HOSTILE), label="one value everywhere")
        fields = (
            st.fixed_dictionaries({f: st.just(same) for f in FORM_FIELDS})
            if same is not None
            else st.fixed_dictionaries({}, optional={f: JUNK_TEXT for f in FORM_FIELDS})
        )
        query = draw(
            st.one_of(
                st.just({}),
                st.fixed_dictionaries({}, optional={key: JUNK_TEXT for key in QUERY_KEYS}),
            ),
            label="query",
        )
        if same is not None:
            query = {key: same for key in QUERY_KEYS}
        url = path + ("?" + "&".join(f"{k}={_quote(v)}" for k, v in query.items()) if query else "")
        method = draw(st.sampled_from(methods), label="method")
        headers = {}
        if draw(st.booleans()):
            headers["HTTP_HX_REQUEST"] = "true"
        client = world["clients"][role]
        if role in world["users"] and "_auth_user_id" not in client.session:
            client.force_login(world["users"][role])  # signed out by /accounts/logout/
        if role == "referee_link":
            headers["HTTP_AUTHORIZATION"] = "Referee " + world["token"]
        if route.startswith("api/"):
            headers["HTTP_IDEMPOTENCY_KEY"] = draw(st.sampled_from(["", "k1", "k2"]))
            play_log = st.one_of(
                JSON,
                st.fixed_dictionaries(
                    {"claimed": JSON_LEAF}, optional={"format": st.just("gouji-deal/1")}
                ),
            )
            body = draw(
                st.one_of(
                    JSON,
                    st.fixed_dictionaries(
                        {},
                        optional={
                            "summary": st.one_of(JSON, st.just(SUMMARY)),
                            "play_log": play_log,
                            "agrees": JSON,
                            "note": JSON,
                            "reason": JSON,
                        },
                    ),
                ),
                label="body",
            )
            text = json.dumps(body, allow_nan=False)
            response = client.generic(
                method,
                url,
                text.encode("utf-8", "surrogatepass"),
                content_type="application/json",
                **headers,
            )
        elif method in ("POST", "PUT"):
            form = draw(fields, label="form")
            form = {
                k: v.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
                for k, v in form.items()
            }
            response = (
                client.post(url, form, **headers)
                if method == "POST"
                else client.put(url, urlencode(form), **headers)
            )
        else:
            response = client.generic(method, url, **headers)
        seen.append((route, method, role, response.status_code))
        if os.environ.get("GOUJI_FUZZ_TRACE") and os.environ["GOUJI_FUZZ_TRACE"] in route:
            print("TRACE", method, url[:120], role, response.status_code)
        assert response.status_code < 500, (
            f"{method} {url[:300]} as {role}: {response.status_code}\n"
            + "\n".join(errors[-1:])[-3000:]
        )

    one_request()
