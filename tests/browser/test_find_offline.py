"""Find my table with the hall's network gone: the answer on screen belonged to the last query
that reached the server. Typing a new name greys it at once; a search that cannot be sent says
so ("网络断开…"); Enter asks again instead of leaving for the browser's error page; when the
network is back, Enter gives the new answer."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from tests.browser.test_festival_floor import OVERFLOW, hall  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("SHOTS_DIR", "")
WORDS = {
    "zh-CN": ("网络断开", "zh"),
    "en-GB": ("No connection", "en"),
}


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("locale", ["zh-CN", "en-GB"])
def test_offline_search_greys_the_old_answer_and_says_so(
    live_server,
    browser,
    hall,  # noqa: F811
    width,
    locale,
):
    words, language = WORDS[locale]
    context = browser.new_context(locale=locale, viewport={"width": width, "height": 844})
    page = context.new_page()
    page.set_default_timeout(30_000)
    event = hall["event"]
    page.goto(f"{live_server.url}/events/{event.pk}/find/")
    if language == "en":
        page.evaluate("document.cookie = 'django_language=en; path=/'")
        page.reload()
    page.locator("#find-q").press_sequentially("hdwd", delay=30)
    expect(page.locator(".find-hit h2").first).to_have_text("黄岛五队")
    results = page.locator("#find-results")
    expect(results).not_to_have_class("find-stale")
    expect(page.locator("#find-offline")).to_be_hidden()

    context.set_offline(True)
    page.locator("#find-q").fill("zw")
    # The old tables are greyed at once, and the failed search says so.
    expect(results).to_have_class("find-stale")
    expect(page.locator("#find-offline")).to_be_visible()
    expect(page.locator("#find-offline")).to_contain_text(words)
    assert page.evaluate(OVERFLOW) <= 0
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/find-offline-{language}-{width}.png", full_page=True)

    # Enter stays on the page (no browser error page) and keeps saying so.
    page.locator("#find-q").press("Enter")
    expect(page.locator("#find-offline")).to_be_visible()
    assert page.url.startswith(live_server.url)
    expect(page.locator("h1")).to_be_visible()

    # The network is back: Enter asks again and the new answer replaces the grey one.
    context.set_offline(False)
    page.locator("#find-q").press("Enter")
    expect(page.locator(".find-hit h2").first).to_have_text("张伟")
    expect(page.locator("#find-offline")).to_be_hidden()
    expect(page.locator("#find-results")).not_to_have_class("find-stale")
    context.close()
