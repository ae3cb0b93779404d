"""`GET /lang/`: the cookie-free language switch every page's form uses."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.views.i18n import set_language

pytestmark = pytest.mark.django_db

LANG = settings.LANGUAGE_COOKIE_NAME


def test_the_switch_sets_the_cookie_and_returns_to_the_page(client):
    response = client.get("/lang/", {"language": "en", "next": "/events/1/standings/?kind=players"})
    assert response.status_code == 302
    assert response["Location"] == "/events/1/standings/?kind=players"
    assert response.cookies[LANG].value == "en"
    assert "no-cache" in response["Cache-Control"]  # the answer is this visitor's own
    body = client.get("/").content.decode()
    assert '<html lang="en">' in body and "Gou Ji events" in body
    client.get("/lang/", {"language": "zh-hans", "next": "/"})
    assert '<html lang="zh-hans">' in client.get("/").content.decode()


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {
            "LANGUAGE_COOKIE_AGE": 3600,
            "LANGUAGE_COOKIE_PATH": "/x/",
            "LANGUAGE_COOKIE_DOMAIN": "a.b",
            "LANGUAGE_COOKIE_SECURE": True,
            "LANGUAGE_COOKIE_HTTPONLY": True,
            "LANGUAGE_COOKIE_SAMESITE": "Strict",
        },
    ],
)
def test_the_cookie_has_the_attributes_djangos_set_language_gives_it(client, settings, overrides):
    for name, value in overrides.items():
        setattr(settings, name, value)
    ours = client.get("/lang/", {"language": "en", "next": "/"}).cookies[LANG]
    theirs = set_language(RequestFactory().post("/", {"language": "en", "next": "/"})).cookies[LANG]
    # Every attribute but `expires`, a date the two calls may compute a second apart.
    assert {k: v for k, v in ours.items() if k != "expires"} == {
        k: v for k, v in theirs.items() if k != "expires"
    }
    assert ours.value == theirs.value and bool(ours["expires"]) == bool(theirs["expires"])


def test_every_page_offers_the_switch_as_a_get_form_without_a_token(client):
    body = client.get("/").content.decode()
    form = body[body.index('<form action="/lang/"') :]
    form = form[: form.index("</form>")]
    assert 'method="get"' in form and 'name="next" type="hidden" value="/"' in form
    assert "csrfmiddlewaretoken" not in form


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/",
        "http://testserver.evil/",
        "javascript:alert(1)",
        "/\\evil.example",
        "\\\\evil.example",
        "",
        " ",
    ],
)
def test_a_foreign_or_odd_next_goes_home(client, target):
    response = client.get("/lang/", {"language": "en", "next": target})
    assert response.status_code == 302 and response["Location"] == "/"
    assert response.cookies[LANG].value == "en"


def test_control_characters_in_next_cannot_split_the_header(client):
    response = client.get("/lang/", {"language": "en", "next": "/events/\r\nSet-Cookie: x=1"})
    assert response.status_code == 302
    assert "\n" not in response["Location"] and "x" not in response.cookies


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"language": ""},
        {"language": "fr"},
        {"language": "EN"},
        {"language": "x" * 5000},
        {"language": ["fr", "zh-hans", "de"]},
    ],
)
def test_an_unknown_language_is_a_400_without_a_cookie(client, query):
    response = client.get("/lang/", query)
    assert response.status_code == 400
    assert LANG not in response.cookies
    assert "不支持的语言" in response.content.decode()


def test_only_get_and_head(client):
    assert client.post("/lang/", {"language": "en"}).status_code == 405
    assert client.head("/lang/?language=en").status_code == 302


def test_a_signed_in_user_switches_too():
    get_user_model().objects.create_user("viewer", password="pw-viewer")
    client = Client(enforce_csrf_checks=True)
    client.login(username="viewer", password="pw-viewer")
    response = client.get("/lang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    body = client.get("/").content.decode()
    assert '<html lang="en">' in body and "viewer" in body
    assert "X-CSRFToken" in body  # signed in: the logout form still needs its token


def test_a_control_character_in_the_language_is_stripped_like_every_query_parameter(client):
    """Control characters are stripped from every query parameter (docs/security.md): what is
    left, "en", is a language we speak."""
    response = client.get("/lang/", {"language": "en\x00"})
    assert response.status_code == 302
    assert response.cookies[LANG].value == "en"
