"""The deal viewer on a phone (390×844): step forward and back with the keys and the buttons;
the script draws each step as the server renders it without JavaScript; nothing scrolls
sideways, here or on the public table page.

With SHOTS_DIR set, screenshots of the viewer and the public table page at 390 and 1280 px, in
Chinese and English, are saved there."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from matches.kernel.games.registry import get_game
from tests.builder import EventBuilder, outcome

pytestmark = pytest.mark.django_db(transaction=True)

OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
CSP_WATCH = """window.__csp = [];
document.addEventListener("securitypolicyviolation", e => window.__csp.push(e.violatedDirective));"""


@pytest.fixture
def logged(transactional_db):
    """A published event whose table 1 played deal 1 from a log (final), deal 2 by summary."""
    record = next(iter(get_game("gouji").selfplay(1, 7)))
    b = EventBuilder(unions=4, deals=2).register()
    round_ = b.round([(0, 1), (2, 3)])
    match = b.match(round_, 1)
    b.result(match, 1, play_log=record)
    b.final(match, 2, [1, 3, 5, 2, 4, 6], points=[1])
    # Table 2: the logged result corrected by a summary that swaps 1st and 6th.
    other = b.match(round_, 2)
    logged = b.result(other, 1, play_log=record)
    finish = list(record["claimed"]["finish"])
    finish[0], finish[-1] = finish[-1], finish[0]
    correction = b.correct(other, 1, outcome(finish, points=record["claimed"]["points"]))
    return {
        "referee": f"/ref/{b.people.referee_link.token}/",
        "history": f"/manage/events/{b.event.pk}/results/tables/{other.table.pk}/",
        "organiser": b.organiser.username,
        "manage": f"/manage/events/{b.event.pk}/results/tables/{other.table.pk}/reports/"
        f"{logged.pk}/play?against={correction.pk}",
        "viewer": f"/events/{b.event.pk}/rounds/1/tables/1/deals/1/",
        "table": f"/events/{b.event.pk}/rounds/1/tables/1/",
        "steps": len(record["actions"]),
        "first_seat": record["actions"][0]["seat"],
    }


def test_stepping_through_a_deal_on_a_phone(live_server, phone_page, browser, logged):
    page = phone_page
    page.add_init_script(CSP_WATCH)
    last = logged["steps"]
    page.goto(live_server.url + logged["viewer"])
    position = page.locator("#viewer-pos")
    expect(position).to_have_text(f"第 0 步，共 {last} 步")
    expect(page.locator("#viewer-seats > li")).to_have_count(6)

    page.keyboard.press("ArrowRight")
    expect(position).to_have_text(f"第 1 步，共 {last} 步")
    expect(page.locator("#step-action")).to_contain_text(f"{logged['first_seat']}号")
    assert re.search(r"[?&]step=1\b", page.url)
    page.locator("#viewer-next").click()
    page.locator("#viewer-next").click()
    expect(position).to_have_text(f"第 3 步，共 {last} 步")
    page.locator("#viewer-prev").click()
    expect(position).to_have_text(f"第 2 步，共 {last} 步")
    page.keyboard.press("End")
    expect(position).to_have_text(f"第 {last} 步，共 {last} 步")
    expect(page.locator("#step-events")).to_contain_text("本局结束")
    expect(page.locator("#viewer-next")).to_have_attribute("aria-disabled", "true")
    page.keyboard.press("ArrowLeft")
    expect(position).to_have_text(f"第 {last - 1} 步，共 {last} 步")
    page.keyboard.press("Home")
    expect(position).to_have_text(f"第 0 步，共 {last} 步")
    page.locator("#viewer-last").click()
    expect(position).to_have_text(f"第 {last} 步，共 {last} 步")
    assert page.evaluate(OVERFLOW) <= 0
    assert page.evaluate("window.__csp") == []  # the script and its data pass the policy

    # The script draws a step as the server renders it without JavaScript.
    drawn = {}
    for step in (1, 40, last):
        page.goto(f"{live_server.url}{logged['viewer']}?step={step}")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowRight")
        drawn[step] = page.locator("#viewer-step").inner_text()
    plain = browser.new_context(
        locale="zh-CN", viewport={"width": 390, "height": 844}, java_script_enabled=False
    )
    try:
        no_script = plain.new_page()
        for step, text in drawn.items():
            no_script.goto(f"{live_server.url}{logged['viewer']}?step={step}")
            assert no_script.locator("#viewer-step").inner_text() == text
        # Without the script the buttons are links to the next step.
        no_script.locator("#viewer-next").click()
        expect(no_script.locator("#viewer-pos")).to_have_text(f"第 {last} 步，共 {last} 步")
        no_script.goto(f"{live_server.url}{logged['viewer']}?step=5")
        no_script.locator("#viewer-next").click()
        expect(no_script.locator("#viewer-pos")).to_have_text(f"第 6 步，共 {last} 步")
    finally:
        plain.close()


def test_the_public_table_page_fits_a_phone(live_server, phone_page, logged):
    page = phone_page
    page.goto(live_server.url + logged["table"])
    expect(page.locator(".deal-card")).to_have_count(2)
    assert page.evaluate(OVERFLOW) <= 0
    tributes = page.locator("#deal-2 details.deal-tributes")
    expect(tributes).not_to_have_attribute("open", "")
    tributes.locator("summary").click()
    expect(tributes.locator("li").first).to_be_visible()
    assert page.evaluate(OVERFLOW) <= 0
    page.locator("#deal-1 a.button").click()
    expect(page.locator("#viewer-pos")).to_contain_text("第 0 步")


@pytest.mark.skipif(not os.environ.get("SHOTS_DIR"), reason="SHOTS_DIR not set")
def test_screenshots(live_server, browser, logged, signed_in):
    from matches.games.giog.engine.selfplay import selfplay

    folder = os.environ["SHOTS_DIR"]
    os.makedirs(folder, exist_ok=True)
    g = EventBuilder("giog", players=8).register()
    match = g.first_match(g.draw())
    g.result(match, 1, play_log=next(iter(selfplay(1, 3, players=4))))
    giog = f"/events/{g.event.pk}/rounds/1/tables/{match.table.number}/deals/1/?step=6"
    for locale, language in (("zh-CN", "zh-hans"), ("en-GB", "en")):
        for width in (390, 1280):
            context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
            page = context.new_page()
            for name, path in (
                ("viewer", logged["viewer"] + "?step=12"),
                ("viewer-end", logged["viewer"] + f"?step={logged['steps']}"),
                ("table", logged["table"]),
                ("giog", giog),
                ("referee", logged["referee"]),
            ):
                page.goto(live_server.url + path)
                if name == "table":
                    page.locator("#deal-2 details summary").click()
                page.screenshot(path=f"{folder}/{name}-{language}-{width}.png", full_page=True)
            signed_in(page, logged["organiser"], next=logged["manage"])
            page.screenshot(path=f"{folder}/mismatch-{language}-{width}.png", full_page=True)
            page.goto(live_server.url + logged["history"])
            page.locator("#deal-1 details summary").click()
            page.screenshot(path=f"{folder}/history-{language}-{width}.png", full_page=True)
            context.close()
