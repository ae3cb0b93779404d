"""Public pages a shared front cache may keep (deploy/nginx.conf): for anonymous readers they
set no cookie, carry no CSRF token and say `X-Accel-Expires: 1`; nothing else does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db

NGINX_CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


def _shareable(response) -> None:
    body = response.content.decode()
    assert response.status_code == 200
    assert "Set-Cookie" not in str(response.serialize_headers()), response.cookies
    assert "csrfmiddlewaretoken" not in body and "X-CSRFToken" not in body
    assert response.headers.get("X-Accel-Expires") == "1"


def test_anonymous_public_pages_and_fragments_set_no_cookie_and_may_be_shared(events):
    for url in events.page_urls():
        for headers in ({}, {"HX-Request": "true"}):
            response = Client().get(url, headers=headers)
            _shareable(response)
            if url != "/":  # the home page has no ETag; the others revalidate in browsers
                assert "max-age=0" in response["Cache-Control"] and response.has_header("ETag")


def test_anonymous_public_api_answers_may_be_shared(events):
    for url in events.api_urls():
        response = Client().get(url)
        _shareable(response)
        assert response["Content-Type"] == "application/json"


def test_a_reader_with_cookies_still_gets_a_shareable_page(events):
    """A csrftoken left by the login page or a language choice changes nothing in the answer."""
    client = Client()
    client.get(reverse("login"))
    assert settings.CSRF_COOKIE_NAME in client.cookies
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client.get(reverse("public:standings", args=[events.team.event.pk]))
    _shareable(response)
    assert '<html lang="en">' in response.content.decode()


def test_signed_in_pages_keep_their_token_and_are_not_shared(events):
    viewer = events.team.people.stranger
    client = Client()
    client.force_login(viewer)
    for url in events.page_urls() + events.api_urls()[:1]:
        response = client.get(url)
        assert response.status_code == 200
        assert not response.has_header("X-Accel-Expires"), url
        if not url.startswith("/api/"):
            body = response.content.decode()
            assert "X-CSRFToken" in body and viewer.username in body, url


def test_the_referee_page_keeps_its_token_and_is_not_shared(events):
    response = Client().get(reverse("referee:link-table", args=[events.link.token]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "X-CSRFToken" in body and "csrfmiddlewaretoken" in body
    assert settings.CSRF_COOKIE_NAME in response.cookies
    assert not response.has_header("X-Accel-Expires")


def test_errors_and_other_methods_are_not_shared(events):
    hidden = EventBuilder(unions=2, published=False).register()
    missing = Client().get(reverse("public:event", args=[hidden.event.pk]))
    assert missing.status_code == 404 and not missing.has_header("X-Accel-Expires")
    url = reverse("public:standings", args=[events.team.event.pk])
    etag = Client().get(url)["ETag"]
    unchanged = Client().get(url, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and not unchanged.has_header("X-Accel-Expires")
    posted = Client().post(url)  # the page ignores the method; the test client skips CSRF
    assert not posted.has_header("X-Accel-Expires")


# --- deploy/nginx.conf against the URL map and the settings ---------------------------------


def _cached_locations(conf: str) -> list[str]:
    """The `location` prefixes whose block turns on `proxy_cache`."""
    cached = []
    for match in re.finditer(r"location\s+(=\s*)?(\S+)\s*\{([^}]*)\}", conf):
        if re.search(r"^\s*proxy_cache\s+gouji_public;", match.group(3), re.M):
            cached.append(("=" if match.group(1) else "") + match.group(2))
    return cached


def _routes(patterns, prefix=""):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def _uncached_patterns(conf: str) -> list[re.Pattern[str]]:
    """The regular-expression locations that pass to the app without the cache (nginx tries
    them before the prefix locations): a route they match is served from the app, whoever asks."""
    found = []
    for match in re.finditer(r"location\s+~\s+(\S+)\s*\{([^}]*)\}", conf):
        if "proxy_pass" in match.group(2) and "proxy_cache" not in match.group(2):
            found.append(re.compile(match.group(1).replace("(?<", "(?P<")))  # PCRE to Python
    return found


def _sample_path(route: str) -> str:
    return re.sub(r"<int:[^>]+>", "1", re.sub(r"<(str|slug):[^>]+>", "x", "/" + route))


def test_every_route_under_a_cached_location_is_a_front_cacheable_view():
    """A referee, organiser or writing URL added under /events/ or /api/v1/public/ later would
    otherwise be served to strangers from nginx's cache."""
    conf = NGINX_CONF.read_text()
    locations = _cached_locations(conf)
    # The named location is reached only from the standings location (issue 28: its files,
    # else the app), which matches the standings page's path alone, under /events/.
    assert locations == ["=/", "@gouji_standings_app", "/events/", "/api/v1/public/"]
    assert conf.count("@gouji_standings_app") == 2
    assert "location ~ ^/events/(?<gouji_event>[0-9]+)/standings/$ {" in conf
    locations.remove("@gouji_standings_app")
    uncached = _uncached_patterns(conf)
    covered, served_by_the_app = [], []
    for route, callback in _routes(get_resolver().url_patterns):
        path = "/" + route
        if any(
            path == loc[1:] if loc.startswith("=") else path.startswith(loc) for loc in locations
        ):
            if any(pattern.match(_sample_path(route)) for pattern in uncached):
                served_by_the_app.append(route)
                continue
            assert getattr(callback, "front_cacheable", False), route
            covered.append(route)
    # home, matches/urls/public.py (projectors, the round clock, bracket, find my table and the
    # cards, the feature tables' list and page), the ladder (ladders/urls.py), the API (a
    # feature table's JSON among them)
    assert len(covered) == 1 + 16 + 1 + 6
    # The public registration form, kept out of the cache by its own location.
    assert served_by_the_app == ["events/<int:event_id>/signup/"]


def test_the_cookie_names_in_nginx_conf_are_the_ones_django_uses():
    conf = NGINX_CONF.read_text()
    for name in (
        settings.LANGUAGE_COOKIE_NAME,
        settings.SESSION_COOKIE_NAME,
        CookieStorage.cookie_name,
    ):
        assert f"$cookie_{name}" in conf, name
    assert settings.MESSAGE_STORAGE.endswith("FallbackStorage")  # cookie first, then session
    assert "proxy_cache_bypass $cookie_sessionid $cookie_messages" in conf
    assert "proxy_no_cache     $cookie_sessionid $cookie_messages" in conf
