"""Feature tables in the browser (issue 50).

A spectator's page at 1280 px with a one-minute delay shows nothing (page and stream read)
before the delay, then the plays once it has passed, pushed without a reload (the minute
lasts `DELAY` seconds here). The operator's whole deals on a phone (every play tapped, a wrong
typed play answered with its rule id, an undo, the burns, the report) are in
test_live_operator_modes.py; this module keeps the helpers both use (`_tap`, `_shot`).

With SHOTS_DIR set, the screens are saved at 390 and 1280 px."""

from __future__ import annotations

import os
import re
import time
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from matches.events import features
from matches.games.gouji.engine.cards import RANK_CHARS
from matches.games.gouji.engine.selfplay import selfplay
from matches.models import Event, FeatureTable
from matches.permissions import Actor
from matches.results import live
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db(transaction=True)

SEED = 55  # a six-seat deal of 232 actions with two burns, no revolution
#: Seconds a minute of delay lasts in the spectator's test: every hold and release of a feature
#: table reads `FeatureTable.delay`, so the page and the stream are the same with a shorter
#: minute; that a delay counts in real minutes is tests/live/test_spectators.py's (the clock
#: moved on by minutes). The page's checks before the delay take ~4 s on a loaded machine.
DELAY = 30


def _shot(page, name: str) -> None:
    shots = os.environ.get("SHOTS_DIR")
    if shots:
        os.makedirs(shots, exist_ok=True)
        page.screenshot(path=f"{shots}/{name}.png", full_page=True)


@pytest.fixture
def record():
    return next(iter(selfplay(1, SEED)))


@pytest.fixture
def feature_table(transactional_db):
    def make(delay: int):
        b = EventBuilder(unions=4, deals=1).register()
        Event.objects.filter(pk=b.event.pk).update(published=True)
        round_ = b.round([(0, 1), (2, 3)])
        feature = features.feature_table(b.match(round_, 1).table, delay, "hands", b.organiser)
        return b, feature

    return make


def _rank(cards: str) -> str:
    natural = [c for c in cards if c in RANK_CHARS[:12]]
    return natural[0] if natural else "2"


def _tap(page, action: dict) -> None:
    """One play tapped on the operator's board; back once the board has it (it answers in
    place: the board's version changes)."""
    board = page.locator("#live-board")
    before = board.get_attribute("data-live-version")
    seat = page.locator(f'details[data-choices="{action["seat"]}"]')
    if seat.get_attribute("open") is None:
        seat.locator("> summary").click()
    if "cards" in action:
        group = seat.locator(f'details[data-rank="{_rank(action["cards"])}"]')
        group.locator("> summary").click()
        group.locator(f'button[data-cards="{action["cards"]}"]').click()
    else:
        kind = "pass" if action.get("pass") else "yield"
        seat.locator(f'.live-buttons > form button[data-kind="{kind}"]').first.click()
    expect(board).not_to_have_attribute("data-live-version", before)


def test_a_spectator_sees_nothing_before_the_delay(
    live_server, browser, feature_table, record, monkeypatch
):
    minute = property(lambda feature: timedelta(seconds=DELAY * feature.delay_minutes))
    monkeypatch.setattr(FeatureTable, "delay", minute)
    b, feature = feature_table(delay=1)
    actor = Actor.from_link(feature.operator_link)
    live.set_hands(feature, 1, {"hands": record["hands"], "leader": record["leader"]}, actor)
    started = time.time()
    context = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    loads = []
    page.on("request", lambda r: r.resource_type == "document" and loads.append(r.url))
    page.goto(f"{live_server.url}/events/{b.event.pk}/live/{feature.pk}/")
    expect(page.locator("html")).to_have_attribute("data-live", "up")
    loads.clear()
    for seq, action in enumerate(record["actions"][:8], start=1):
        live.add_action(feature, 1, {"seq": seq, **action}, actor)
    # Before the delay: the page and the stream say nothing.
    stream = page.evaluate(
        """async (url) => {
            const response = await fetch(url);
            const reader = response.body.getReader();
            let text = "";
            const until = Date.now() + 2000;
            while (Date.now() < until) {
                const part = await Promise.race([
                    reader.read(), new Promise(r => setTimeout(() => r(null), 300))]);
                if (part && part.value) text += new TextDecoder().decode(part.value);
            }
            reader.cancel();
            return text;
        }""",
        f"/live/events/{b.event.pk}/features/{feature.pk}/",
    )
    assert "hello" in stream and '"kind":"feature"' not in stream and '"at"' not in stream
    expect(page.locator("#feature-waiting")).to_be_visible()
    assert page.locator("[data-play]").count() == 0
    assert "JJJ" not in page.content() and time.time() - started < DELAY - 3
    _shot(page, "spectator-before-zh-hans-1280")
    # Once the minute has passed, the hands and the eight plays arrive without a reload.
    expect(page.locator("[data-play]")).to_have_count(8, timeout=(DELAY + 30) * 1000)
    assert time.time() - started >= DELAY
    assert loads == []
    expect(page.locator(".seat-hand").first).to_be_visible()
    _shot(page, "spectator-after-zh-hans-1280")
    page.goto(f"{live_server.url}/lang/?language=en&next=/events/{b.event.pk}/live/{feature.pk}/")
    expect(page.locator("#feature-delay")).to_contain_text(re.compile("minutes behind"))
    _shot(page, "spectator-after-en-1280")
    context.close()


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_pages_fit_a_phone_and_a_projector(
    live_server, browser, feature_table, record, width, language
):
    """The spectators' page and the operator's page, played a little, in both languages."""
    b, feature = feature_table(delay=0)
    actor = Actor.from_link(feature.operator_link)
    live.set_hands(feature, 1, {"hands": record["hands"], "leader": record["leader"]}, actor)
    for seq, action in enumerate(record["actions"][:30], start=1):
        live.add_action(feature, 1, {"seq": seq, **action}, actor)
    context = browser.new_context(
        locale="zh-CN", viewport={"width": width, "height": 900 if width > 400 else 844}
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    for name, path, ready in (
        ("spectator", f"/events/{b.event.pk}/live/{feature.pk}/", "[data-play]"),
        ("operator", f"/ref/{feature.operator_link.token}/live/", "#live-choices-h"),
    ):
        page.goto(f"{live_server.url}/lang/?language={language}&next={path}")
        expect(page.locator(ready).first).to_be_visible()
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, (name, width, language)
        _shot(page, f"{name}-{language}-{width}")
    context.close()
