"""Live push in the browser (issue 28): the organiser's dashboard, the projector and the public
standings change without a reload when a result becomes final; with the stream cut they poll as
before; the deal viewer plays a deal by itself without loading a page.

Polling is slowed to ten minutes in the push test, so only the stream can explain the change;
the fallback test cuts /live/ in the browser and polls every second.

With SHOTS_DIR set, the deal viewer with its autoplay is saved at 390 and 1280 px, in both
languages."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from matches.kernel.games.registry import get_game
from matches.models import Event
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db(transaction=True)

MARK = "window.__sameDocument = 'yes'"
SAME = "window.__sameDocument"


@pytest.fixture
def played(transactional_db):
    """A published event, round 1 published (tables 1 and 2), no result yet."""
    b = EventBuilder(unions=4, deals=1).register()
    Event.objects.filter(pk=b.event.pk).update(published=True)
    round_ = b.round([(0, 1), (2, 3)])
    return b, round_


def _slow_polling(monkeypatch, seconds: int) -> None:
    from matches.public import standings
    from matches.views.organiser import dashboard

    monkeypatch.setattr(standings, "POLL_SECONDS", seconds)  # every public page's poll
    monkeypatch.setattr(dashboard, "POLL_SECONDS", seconds)


def _open(browser, url: str, live: bool = True):
    context = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    if not live:
        page.route("**/live/**", lambda route: route.abort())
    page.goto(url)
    page.evaluate(MARK)
    expect(page.locator("html")).to_have_attribute("data-live", "up" if live else "down")
    return page


def _finish_round(b, round_) -> None:
    b.final(b.match(round_, 1), 1, [1, 2, 3, 4, 5, 6])
    b.final(b.match(round_, 2), 1, [2, 1, 4, 3, 6, 5])


def _screens(live_server, browser, signed_in, b, live: bool):
    event = b.event.pk
    dashboard = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    organiser = dashboard.new_page()
    organiser.set_default_timeout(30_000)
    if not live:
        organiser.route("**/live/**", lambda route: route.abort())
    signed_in(organiser, b.organiser.username, next=f"/manage/events/{event}/")
    organiser.evaluate(MARK)
    expect(organiser.locator("html")).to_have_attribute("data-live", "up" if live else "down")
    standings = _open(browser, f"{live_server.url}/events/{event}/standings/", live)
    projector = _open(
        browser, f"{live_server.url}/events/{event}/standings/projector/?seconds=120", live
    )
    return organiser, standings, projector


def _before(standings, projector) -> tuple[str, str]:
    return (
        standings.locator("#standings-live").inner_text(),
        projector.locator("#main").inner_text(),
    )


def _check_updated(organiser, standings, projector, before):
    expect(organiser.locator('[data-count="confirmed"]')).to_have_text("2", timeout=30_000)
    expect(standings.locator("#standings-live")).not_to_have_text(before[0], timeout=30_000)
    expect(projector.locator("#main")).not_to_have_text(before[1], timeout=30_000)
    for page in (organiser, standings, projector):
        assert page.evaluate(SAME) == "yes"  # the same document: no reload


def test_screens_update_by_push_without_a_reload(
    live_server, browser, signed_in, played, monkeypatch
):
    _slow_polling(monkeypatch, 600)
    b, round_ = played
    organiser, standings, projector = _screens(live_server, browser, signed_in, b, live=True)
    expect(organiser.locator('[data-count="confirmed"]')).to_have_text("0")
    before = _before(standings, projector)
    _finish_round(b, round_)
    _check_updated(organiser, standings, projector, before)


def test_screens_poll_when_the_stream_is_cut(live_server, browser, signed_in, played, monkeypatch):
    _slow_polling(monkeypatch, 1)
    b, round_ = played
    organiser, standings, projector = _screens(live_server, browser, signed_in, b, live=False)
    before = _before(standings, projector)
    _finish_round(b, round_)
    expect(organiser.locator('[data-count="confirmed"]')).to_have_text("2", timeout=30_000)
    expect(standings.locator("#standings-live")).not_to_have_text(before[0], timeout=30_000)
    for page in (organiser, standings):
        assert page.evaluate(SAME) == "yes"
        assert page.locator("html").get_attribute("data-live") == "down"
    # The projector without its stream fetches its rows after its last page (120 s here):
    # asked for again, it shows them.
    projector.reload()
    expect(projector.locator("#main")).not_to_have_text(before[1])


@pytest.fixture
def logged(transactional_db):
    record = next(iter(get_game("gouji").selfplay(1, 7)))
    b = EventBuilder(unions=4, deals=1).register()
    round_ = b.round([(0, 1), (2, 3)])
    b.result(b.match(round_, 1), 1, play_log=record)
    return f"/events/{b.event.pk}/rounds/1/tables/1/deals/1/", len(record["actions"])


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_deal_viewer_plays_without_loading_a_page(live_server, browser, logged, width, language):
    path, last = logged
    context = browser.new_context(
        locale="zh-CN", viewport={"width": width, "height": 900 if width > 400 else 844}
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    loads = []
    page.on("request", lambda r: r.resource_type == "document" and loads.append(r.url))
    page.goto(f"{live_server.url}/lang/?language={language}&next={path}")
    page.evaluate(MARK)
    loads.clear()
    play = page.locator("#viewer-play")
    expect(play).to_be_visible()
    page.select_option("#viewer-speed", "400")
    play.click()
    expect(play).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#viewer-range")).to_have_value("3", timeout=30_000)
    play.click()  # pause
    expect(play).to_have_attribute("aria-pressed", "false")
    stopped = page.locator("#viewer-range").input_value()
    page.wait_for_timeout(900)
    assert page.locator("#viewer-range").input_value() == stopped
    assert page.evaluate(SAME) == "yes" and loads == []
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    shots = os.environ.get("SHOTS_DIR")
    if shots:
        page.screenshot(path=f"{shots}/viewer-autoplay-{language}-{width}.png", full_page=True)
    # Played from near the end, it stops by itself on the last step.
    page.locator("#viewer-range").fill(str(last - 2))
    play.click()
    expect(page.locator("#viewer-range")).to_have_value(str(last), timeout=30_000)
    expect(play).to_have_attribute("aria-pressed", "false")
    assert loads == []
    context.close()
