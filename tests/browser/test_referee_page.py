"""One referee page skeleton (issue 24): both games' table pages render through
templates/referee/table.html, with a pending report above the next deal's form (issue 28), the
note that a new report replaces it, and the problem list, on a phone and a desk, in both
languages. SHOTS_DIR=... saves each view."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from matches.models import DealReport
from matches.permissions import Actor
from matches.results.deals import deal_for
from matches.results.submit import submit_report

from .test_offline_submit import giog_table  # noqa: F401 (fixture)
from .test_table_confirmation import table_setup  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = os.environ.get("SHOTS_DIR", "")
VIEWS = [(390, "zh-hans"), (390, "en"), (1280, "zh-hans"), (1280, "en")]
WORDS = {
    "zh-hans": {"awaiting": "等待确认的报告", "again": "重新填写", "note": "新的报告将取代这份"},
    "en": {"awaiting": "Reports awaiting confirmation", "again": "again", "note": "replaces"},
}


def look(browser, base, url, width, language):
    context = browser.new_context(
        locale="zh-CN" if language == "zh-hans" else "en-GB",
        viewport={"width": width, "height": 900},
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(url)
    return context, page


def check_page(page, language, game, width):
    words = WORDS[language]
    awaiting = page.locator(".awaiting-report[data-deal='1']")
    expect(page.locator("#awaiting-title")).to_have_text(words["awaiting"])
    expect(awaiting.locator(".pending-note")).to_contain_text(words["note"])
    expect(awaiting.locator("a.refill-link")).to_contain_text(words["again"])
    expect(page.locator("form[data-keep]")).to_have_attribute("data-deal", "2")
    # Nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    if SCREENS:
        page.screenshot(
            path=os.path.join(SCREENS, f"referee-table-{game}-{width}-{language}.png"),
            full_page=True,
        )


@pytest.mark.parametrize("width,language", VIEWS)
def test_the_gouji_table_page(live_server, browser, table_setup, width, language):  # noqa: F811
    match = table_setup["match"]
    deal = deal_for(match, 1)
    submit_report(
        deal,
        {"format": "gouji-outcome/1", "finish": [1, 2, 3, 4, 5, 6], "points": [3]},
        None,
        Actor(link=table_setup["link"]),
        "k1",
    )
    base = live_server.url
    context, page = look(browser, base, f"{base}/ref/{table_setup['link'].token}/", width, language)
    expect(page.locator(".awaiting-report form.pin-form")).to_have_count(2)
    check_page(page, language, "gouji", width)
    context.close()


@pytest.mark.parametrize("width,language", VIEWS)
def test_the_giog_table_page(live_server, browser, giog_table, width, language):  # noqa: F811
    match, link = giog_table
    deal = deal_for(match, 1)
    seats = sorted(match.table.seats.values_list("seat", flat=True))
    summary = {"format": "giog-outcome/1", "won": {str(s): w for s, w in zip(seats, (15, 9, 6))}}
    submit_report(deal, summary, None, Actor(link=link), "h1")
    assert DealReport.objects.get().state == DealReport.State.PENDING
    base = live_server.url
    context, page = look(browser, base, f"{base}/ref/{link.token}/", width, language)
    check_page(page, language, "giog", width)
    # The problem list of the shared form: a hand that does not add up.
    for seat, won in zip(seats, (3, 3, 3)):
        page.fill(f"#won_{seat}", str(won))
    page.locator("#hand-form button[value='check']").click()
    expect(page.locator("#verdict ul.problems li.problem").first).to_be_visible()
    if SCREENS:
        page.screenshot(
            path=os.path.join(SCREENS, f"referee-table-giog-problems-{width}-{language}.png"),
            full_page=True,
        )
    context.close()
