"""Secrets in paths never reach a log, Django's or nginx's (issue 38, finding 5).

Every URL route that takes a `token` is listed in gouji_tournament/logs.py's TOKEN_PREFIXES;
Django's logging filter and nginx's access-log map mask each of them.
"""

from __future__ import annotations

import io
import logging
import re
import time
from pathlib import Path

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from gouji_tournament.logs import TOKEN_PREFIXES
from tests.public.test_nginx import front_without_app  # noqa: F401  (a fixture)

ROOT = Path(__file__).resolve().parents[2]
SECRET = "S3cr3tT0k3nS3cr3tT0k3nS3cr3tT0k3n"


def _token_routes(patterns=None, prefix=""):
    """The literal part before `<str:token>` of every route that takes a token."""
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        text = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _token_routes(entry.url_patterns, text)
        elif isinstance(entry, URLPattern) and "<str:token>" in text:
            yield text.split("<str:token>")[0].strip("/")


def test_every_token_route_is_in_the_masked_list():
    routes = set(_token_routes())
    assert {"ref", "entry", "me", "manage/join", "live/players"} <= routes
    assert routes <= set(TOKEN_PREFIXES), routes - set(TOKEN_PREFIXES)


def test_nginx_masks_every_token_route():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    for prefix in TOKEN_PREFIXES:
        assert re.search(rf'"~\^/{re.escape(prefix)}/\[\^/\]\+', conf), prefix
        assert re.search(
            rf"location /{re.escape(prefix)}/ \{{[^}}]*error_log [^;]* emerg;", conf
        ), f"/{prefix}/ writes to nginx's error log"


@pytest.fixture
def django_log():
    """What the site's console handler writes, while the test runs."""
    handler = next(h for h in logging.getLogger().handlers if h.filters)
    stream = io.StringIO()
    old = handler.setStream(stream)
    try:
        yield stream
    finally:
        handler.setStream(old)


@pytest.mark.django_db
def test_django_s_logs_mask_every_token_route(django_log):
    """A 404 (django.request) and a CSRF refusal (django.security.csrf) log the path."""
    client = Client(enforce_csrf_checks=True)
    for prefix in TOKEN_PREFIXES:
        if prefix != "live/players":  # an event stream: GET only, no 404 page
            client.post(f"/{prefix}/{SECRET}/")
        client.get(f"/{prefix}/{SECRET}/")
    text = django_log.getvalue()
    assert "Forbidden (CSRF" in text and "Not Found" in text, text
    assert SECRET not in text, text
    for prefix in ("ref", "entry", "me", "manage/join"):
        assert f"/{prefix}/<token>/" in text, (prefix, text)


@pytest.mark.django_db(transaction=False)
def test_no_log_of_nginx_holds_any_token(front_without_app):  # noqa: F811
    front = front_without_app
    for prefix in TOKEN_PREFIXES:
        assert front.get(f"/{prefix}/{SECRET}/x")[0] == 502
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        logs = {p.name: p.read_text() for p in front.workdir.glob("*.log")}
        if logs.get("gouji-access.log", "").count(" 502 ") >= len(TOKEN_PREFIXES):
            break
        time.sleep(0.05)
    for name, text in logs.items():
        assert SECRET not in text, (name, text)
    for prefix in TOKEN_PREFIXES:
        assert f'GET /{prefix}/<token>/x HTTP/1.1" 502' in logs["gouji-access.log"]
