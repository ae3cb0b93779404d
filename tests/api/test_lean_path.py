"""The lean request path (gouji_tournament/lean.py): a referee link's deal results go through
`LEAN_MIDDLEWARE`, everything else through the whole stack, with the same checks on both.

Every results test that reports or confirms with a referee link (tests/results/test_api.py,
test_confirm_boundaries.py, test_query_budget.py, the festival walks) runs through the lean
path already; these tests hold its edges."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import OperationalError
from django.urls import resolve, reverse
from rest_framework.authtoken.models import Token

from gouji_tournament.lean import HOT_PATHS
from matches.models import DealReport
from tests.results.conftest import BAD_FINISH, SUMMARY
from tests.results.test_api import post as _post
from tests.results.test_api import submit_url as _submit_url

#: What the lean path leaves out of `MIDDLEWARE`, and why a referee link's JSON does not need it.
#: A middleware added to `MIDDLEWARE` fails the first test until it is placed here or in the
#: lean list.
LEFT_OUT = {
    "gouji_tournament.lean.LeanPathMiddleware": "it is the fork itself",
    "whitenoise.middleware.WhiteNoiseMiddleware": "static files only",
    "django.contrib.sessions.middleware.SessionMiddleware": "the link's token, not a cookie",
    "django.middleware.common.CommonMiddleware": "appends slashes for pages; the routes have none",
    "django.middleware.csrf.CsrfViewMiddleware": "DRF checks CSRF for session logins itself",
    "django.contrib.auth.middleware.AuthenticationMiddleware": "DRF authenticates the link",
    "django.contrib.messages.middleware.MessageMiddleware": "no page shows a message",
    "django_htmx.middleware.HtmxMiddleware": "no htmx request",
    "csp.middleware.CSPMiddleware": "governs documents a browser renders; JSON is nosniff",
}


def test_the_lean_stack_is_the_whole_stack_less_what_is_named_left_out():
    assert settings.MIDDLEWARE[0] == "gouji_tournament.lean.LeanPathMiddleware"
    kept = [m for m in settings.MIDDLEWARE if m not in LEFT_OUT]
    assert settings.LEAN_MIDDLEWARE == kept  # same order, nothing unnamed dropped
    assert set(LEFT_OUT) <= set(settings.MIDDLEWARE)


@pytest.mark.parametrize(
    "name, kwargs, hot",
    [
        ("api:deal-report-submit", {"table_id": 7, "number": 3}, True),
        ("api:report-confirm", {"report_id": 12}, True),
        ("api:deal-report-batch", {"table_id": 7}, True),
        ("api:report-detail", {"report_id": 12}, False),
        ("api:table-detail", {"table_id": 7}, False),
        ("api:deal-correct", {"deal_id": 5}, False),
    ],
)
def test_the_hot_paths_are_exactly_the_referee_result_routes(name, kwargs, hot):
    path = reverse(name, kwargs=kwargs)
    assert resolve(path).url_name == name.split(":")[1]
    assert (HOT_PATHS.fullmatch(path) is not None) is hot
    assert HOT_PATHS.fullmatch(path + "/") is None
    assert HOT_PATHS.fullmatch("/en" + path) is None


def _referee(setup):
    return {"HTTP_AUTHORIZATION": f"Referee {setup.link.token}"}


def test_a_referee_links_report_takes_the_lean_path_with_the_security_headers(client, setup):
    response = _post(client, _submit_url(setup), {"summary": SUMMARY}, **_referee(setup))
    assert response.status_code == 201, response.content
    assert "Content-Security-Policy" not in response  # the page stack's last middleware
    assert "sessionid" not in response.cookies
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert DealReport.objects.filter(deal__match=setup.match).count() == 1


def test_the_same_route_with_an_api_token_takes_the_whole_stack(client, setup):
    token = Token.objects.get_or_create(user=setup.referee)[0].key
    response = _post(
        client, _submit_url(setup), {"summary": SUMMARY}, HTTP_AUTHORIZATION=f"Token {token}"
    )
    assert response.status_code == 201, response.content
    assert "Content-Security-Policy" in response


def test_a_read_with_a_referee_link_takes_the_whole_stack(client, setup):
    response = client.get(f"/api/v1/tables/{setup.table.pk}", **_referee(setup))
    assert response.status_code == 200
    assert "Content-Security-Policy" in response


def test_the_lean_path_answers_in_the_callers_language(client, setup):
    """LocaleMiddleware is on the lean path: a refusal's message in zh-hans and in en."""
    zh = _post(
        client,
        _submit_url(setup),
        {"summary": BAD_FINISH},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
        **_referee(setup),
    )
    en = _post(
        client,
        _submit_url(setup),
        {"summary": BAD_FINISH},
        HTTP_ACCEPT_LANGUAGE="en",
        **_referee(setup),
    )
    assert zh.status_code == en.status_code == 422
    assert zh.json()["error"]["code"] == en.json()["error"]["code"]
    assert zh.json()["error"]["message"] != en.json()["error"]["message"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in zh.json()["error"]["message"])
    assert not DealReport.objects.filter(deal__match=setup.match).exists()


def test_an_id_past_the_columns_range_is_a_404_on_the_lean_path(client, setup):
    """CleanTextMiddleware is on the lean path: no 500 for an id PostgreSQL cannot hold."""
    response = _post(
        client, "/api/v1/reports/99999999999999999999/confirm", {"agrees": True}, **_referee(setup)
    )
    assert response.status_code == 404


def test_a_mirror_refuses_a_referee_links_report_on_the_lean_path(client, setup, settings):
    settings.SITE_ROLE = "mirror"
    settings.STAFF_BASE_URL = "http://192.168.1.10"
    response = _post(client, _submit_url(setup), {"summary": SUMMARY}, **_referee(setup))
    assert response.status_code == 403
    assert response["Content-Type"].startswith("application/json")
    assert not DealReport.objects.filter(deal__match=setup.match).exists()


def test_a_database_outage_is_a_503_on_the_lean_path(client, setup, monkeypatch):
    def database_down(*args, **kwargs):
        raise OperationalError("connection to server failed: Connection refused")

    monkeypatch.setattr("matches.api.results.submit.submit_deal_report", database_down)
    response = _post(client, _submit_url(setup), {"summary": SUMMARY}, **_referee(setup))
    assert response.status_code == 503
    assert response["Retry-After"]
