"""Issue 17, findings 7 and 8 in a real browser: the strict Content-Security-Policy blocks
nothing the pages use (htmx polling and swaps, the language switch), and /api/docs/ renders
Swagger UI from the app's own files."""

from __future__ import annotations

import pytest

from tests.public.conftest import events  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db(transaction=True)

WATCH = """window.__csp = [];
document.addEventListener("securitypolicyviolation",
  e => window.__csp.push(e.violatedDirective + " " + e.blockedURI));"""


def _watched(page):
    page.add_init_script(WATCH)
    console = []
    page.on(
        "console", lambda m: console.append(m.text) if "Content Security Policy" in m.text else None
    )
    return console


def test_htmx_pages_work_under_the_policy(live_server, page, events):
    console = _watched(page)
    url = f"{live_server.url}/events/{events.team.event.pk}/standings/"
    with page.expect_response(
        lambda r: r.request.headers.get("hx-request") == "true", timeout=30_000
    ):
        page.goto(url)  # the standings poll themselves with htmx every few seconds
    assert page.evaluate("window.__csp") == [] and console == []
    with page.expect_navigation():
        page.select_option("#language-select", "en")  # static/js/site.js, not an inline handler
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.evaluate("window.__csp") == [] and console == []


def test_api_docs_render_offline(live_server, page):
    console = _watched(page)
    requested = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(live_server.url + "/api/docs/")
    page.wait_for_selector(".swagger-ui .info .title", timeout=30_000)
    assert "gouji-tournament API" in page.locator(".swagger-ui .info .title").inner_text()
    assert all(u.startswith(live_server.url) or u.startswith("data:") for u in requested), requested
    assert page.evaluate("window.__csp") == [] and console == []
