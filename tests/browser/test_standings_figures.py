"""净胜分 as a person reads it: the public standings show the figure the table wrote, the same as
the union's page, on a phone and a desk screen, in both languages (screenshots in SHOTS_DIR)."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("SHOTS_DIR", "")
A_BY_TWO = [1, 2, 3, 4, 5, 6]


@pytest.fixture
def played(transactional_db):
    from tests.builder import EventBuilder

    b = EventBuilder(unions=2, deals=2).register()
    round_ = b.round([(0, 1)])
    match = b.match(round_, 1)
    b.final(match, 1, A_BY_TWO, points=[1])
    b.final(match, 2, A_BY_TWO, points=[1])
    b.close(round_)
    b.standings()
    return b


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_standings_show_what_the_sheet_says(live_server, browser, played, width, language):
    context = browser.new_context(locale="zh-CN", viewport={"width": width, "height": 844})
    context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    event = played.event
    a, b = played.unions
    page.goto(f"{live_server.url}/events/{event.pk}/unions/{a.pk}/")
    expect(page.locator("td.num", has_text=":")).to_have_text("4 : -4")
    page.goto(f"{live_server.url}/events/{event.pk}/standings/")
    row = page.locator(f"tr#entry-{a.pk}")
    expect(row.locator("td.num").nth(5)).to_have_text("4")
    expect(page.locator(f"tr#entry-{b.pk} td.num").nth(5)).to_have_text("-4")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/standings-{language}-{width}.png", full_page=True)
    context.close()
