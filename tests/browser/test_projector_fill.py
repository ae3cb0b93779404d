"""Issue 46, problem 8 in Chromium: the hall's projector fills its screen. An 八人够级-sized
league night of 28 unions (14 tables): at 1920x1080 every union is on the one screen, in rows
sized to the viewport (no 1 / 4 pages of nine rows); at 1280 and 390 px the rows still fit the
width. The round's announcement shows with no 知道了 button and is gone from the screen once
round 2 is published. In Chinese and in English, photographed into SHOTS_DIR when it is set."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from matches.events import announcements
from tests.browser.shots import photograph

pytestmark = pytest.mark.django_db(transaction=True)

OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture
def league(transactional_db):
    from tests.builder import EventBuilder

    b = EventBuilder(unions=28, deals=1, names=[f"崂山联邦{k:02d}" for k in range(1, 29)])
    b.register()
    b.event.published = True
    b.event.save(update_fields=["published"])
    b.round([(k, k + 1) for k in range(0, 28, 2)])
    return b


def rows_on_screen(page) -> list[dict]:
    """Each pairing row in the DOM now: its box and whether all of it is inside the viewport."""
    return page.evaluate(
        """() => Array.from(document.querySelectorAll('tr[data-row]')).map(r => {
            const b = r.getBoundingClientRect();
            return {top: b.top, bottom: b.bottom, left: b.left, right: b.right,
                    height: b.height, inside: b.height > 0 && b.top >= 0 && b.bottom <= innerHeight + 0.5
                    && b.left >= 0 && b.right <= innerWidth + 0.5,
                    font: parseFloat(getComputedStyle(r).fontSize)};
        })"""
    )


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_28_unions_fill_one_screen_and_old_news_goes(live_server, browser, league, language):
    b = league
    announcements.send(
        b.event, b.organiser, "第 1 轮：请各桌队长到主席台领取记分卡", ending="round"
    )
    base = live_server.url
    for width, height in ((1920, 1080), (1280, 900), (390, 844)):
        context = browser.new_context(locale="zh-CN", viewport={"width": width, "height": height})
        page = context.new_page()
        page.goto(f"{base}/lang/?language={language}&next=/")
        page.goto(f"{base}/events/{b.event.pk}/rounds/1/projector/?seconds=120")
        expect(page.locator("body[data-laid-out]")).to_have_count(1)
        box = page.locator(".announcement")
        expect(box).to_contain_text("请各桌队长到主席台领取记分卡")
        expect(page.locator(".announcement button")).to_have_count(0)  # no 知道了 to press
        rows = rows_on_screen(page)
        assert page.evaluate(OVERFLOW) <= 0, width
        photograph(page, f"projector-28-{language}-{width}", full_page=False)
        if width == 1920:
            # Every union on the one screen, whole, in type read from the back of the hall.
            assert len(rows) == 28 and all(r["inside"] for r in rows), rows
            assert min(r["font"] for r in rows) >= 30, rows[0]
            expect(page.locator(".p-page")).to_have_text("")
            # The rows use the room: the last row ends near the bottom of the screen.
            assert max(r["bottom"] for r in rows) > height * 0.8
        else:
            shown = [r for r in rows if r["inside"]]
            assert len(shown) == len(rows) >= 10, (width, len(rows))
        context.close()
    # Round 2 published: round 1's announcement is gone from the screen.
    context = browser.new_context(locale="zh-CN", viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{base}/lang/?language={language}&next=/")
    page.goto(f"{base}/events/{b.event.pk}/standings/projector/?seconds=120")
    expect(page.locator(".announcement")).to_have_count(1)
    b.round([(k, k + 2) for k in range(0, 28, 4)] + [(k + 1, k + 3) for k in range(0, 28, 4)])
    page.reload()
    expect(page.locator(".announcement")).to_have_count(0)
    context.close()


def test_a_busy_server_leaves_the_screen_as_it_is_and_is_asked_again(live_server, browser, league):
    """A refresh answered 503 (the database busy) keeps the rows on screen, no browser error
    page on the hall's screen, and the projector asks again by itself."""
    context = browser.new_context(locale="zh-CN", viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    url = f"{live_server.url}/events/{league.event.pk}/rounds/1/projector/?seconds=120"
    page.goto(url)
    expect(page.locator("body[data-laid-out]")).to_have_count(1)
    page.evaluate("window.__sameDocument = 'yes'")
    answered = []

    def busy_once(route):
        if route.request.is_navigation_request() or answered:
            route.continue_()
            return
        answered.append(503)
        route.fulfill(status=503, body="busy")

    page.route("**/rounds/1/projector/**", busy_once)
    page.evaluate("document.body.dispatchEvent(new Event('live'))")  # a live notice: refetch
    expect(page.locator("body[data-refreshed]")).to_have_count(1, timeout=20_000)
    assert answered == [503]
    assert page.evaluate("window.__sameDocument") == "yes"  # never reloaded
    assert page.locator("tr[data-row]").count() == 28
    context.close()
