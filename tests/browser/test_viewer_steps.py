"""Issue 46, problem 9 (the deal viewer): stepping is client-side. On a phone and a desk screen,
in Chinese and in English, twenty taps on 下一步 reach step 20 with no request to the server
(the first load was the only one: every step is in the page), the address says ?step=20 without
a history entry per step, a reload shows step 20 from the server, and Back leaves the viewer.
Screenshots into SHOTS_DIR when it is set."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from matches.games.gouji.engine.selfplay import selfplay
from matches.models import Event
from tests.browser.shots import photograph
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {"zh-hans": "第 20 步，共 {last} 步", "en": "Step 20 of {last}"}


@pytest.fixture
def six_pack(transactional_db):
    """A 六副够级 table with a whole play log (the issue's cup)."""
    b = EventBuilder(
        unions=2, deals=1, rules={"preset": "six-decks"}, confirmation=Event.Confirmation.NONE
    ).register()
    round_ = b.round([(0, 1)])
    record = next(iter(selfplay(1, 2, "six-decks")))
    b.result(b.match(round_, 1), 1, play_log=record)
    return f"/events/{b.event.pk}/rounds/1/tables/1/deals/1/", len(record["actions"])


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("width", [390, 1280])
def test_twenty_steps_are_one_page_load(live_server, browser, six_pack, language, width):
    path, last = six_pack
    phone = width < 400
    context = browser.new_context(
        locale="zh-CN",
        viewport={"width": width, "height": 844 if phone else 900},
        is_mobile=phone,
        has_touch=phone,
    )
    page = context.new_page()
    base = live_server.url
    page.goto(f"{base}/lang/?language={language}&next=/")
    page.goto(base + path)
    expect(page.locator("#viewer-play-row")).to_be_visible()  # the script is running
    history = page.evaluate("history.length")
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    page.evaluate("window.__sameDocument = 'yes'")
    following = page.locator("#viewer-next")
    for _ in range(20):
        following.tap() if phone else following.click()
    position = page.locator("#viewer-pos")
    expect(position).to_have_text(WORDS[language].format(last=last))
    assert asked == [], asked  # every step was in the page
    assert page.evaluate("window.__sameDocument") == "yes"
    assert re.search(r"[?&]step=20\b", page.url)
    assert page.evaluate("history.length") == history  # no history entry a step
    drawn = page.locator("#viewer-step").inner_text()
    photograph(page, f"viewer-step20-{language}-{width}")
    page.reload()  # the address kept the step: the server draws the same one
    expect(position).to_have_text(WORDS[language].format(last=last))
    assert page.locator("#viewer-step").inner_text() == drawn
    page.go_back()  # Back leaves the viewer, not step 19
    expect(page).not_to_have_url(re.compile(re.escape(path)))
    context.close()
