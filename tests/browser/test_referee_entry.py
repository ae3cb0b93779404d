"""A referee enters a deal on a phone, sees an inconsistency flagged by the engine, fixes it and
submits; one union's captain signs in and confirms, the other with their PIN on the phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from matches.models import DealReport

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table_setup(transactional_db):
    from tests.personas import make_setup

    setup = make_setup()
    return {
        "table": setup.table,
        "match": setup.match,
        "link": setup.link,
        "captain_b": setup.captain_b,
    }


def test_referee_enters_a_deal_on_a_phone_and_the_other_captain_confirms(
    live_server, phone_page, browser, table_setup, signed_in
):
    page = phone_page
    page.goto(f"{live_server.url}/ref/{table_setup['link'].token}/")
    expect(page.locator("h1")).to_contain_text("第1桌")

    # Tap the six seats in finishing order.
    for seat in (1, 2, 3, 4, 5, 6):
        page.locator(f"button.tap[data-seat='{seat}']").click()
        expect(page.locator(f"button.tap[data-seat='{seat}'] .place")).to_be_visible()
    expect(page.locator("#finish-order")).to_contain_text("6. 6号")
    expect(page.locator("#verdict-ok")).to_be_visible()  # six seats in order: consistent

    # Seat 1 declares revolution: the engine says why that cannot be, with the rule id.
    page.locator("input[name='revolution_1']").check()
    problem = page.locator("#verdict .problem").first
    expect(problem).to_contain_text("R29")
    expect(page.locator("#verdict .problem[data-code='revolution_place']")).to_have_count(1)

    # Nothing scrolls sideways on the phone, even with the problems listed.
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0

    # Submitting now is refused and nothing is stored.
    # Mark the form, so the test waits for the server's answer to replace it.
    page.evaluate("document.getElementById('deal-form').dataset.old = '1'")
    page.locator("#submit-deal").click()
    page.wait_for_selector("#deal-form:not([data-old])")
    expect(page.locator("#verdict .problem").first).to_contain_text("R29")
    expect(page.locator("input[name='revolution_1']")).to_be_checked()  # the form kept the entry
    assert DealReport.objects.count() == 0

    # Fix it: no revolution after all; seat 3 opened a point.
    page.locator("input[name='revolution_1']").uncheck()
    page.locator("input[name='point_3']").check()
    expect(page.locator("#verdict-ok")).to_contain_text("A +2")
    page.locator("#submit-deal").click()
    expect(page.locator("#open-report")).to_contain_text("等待确认")
    report = DealReport.objects.get()
    assert report.state == "pending" and report.summary["points"] == [3]

    # The other union's captain signs in on their own phone and confirms.
    context = browser.new_context(
        locale="zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    captain = context.new_page()
    captain.set_default_timeout(30_000)
    signed_in(captain, "captain_b", next="/referee/")
    captain.get_by_role("link", name=re.compile("第1局")).click()
    expect(captain.locator(".finish-list li").first).to_contain_text("1号")
    captain.get_by_role("button", name="确认无误").click()
    # Union A has not agreed: the one wording of a pending deal (selectors.STATE_WORDS).
    expect(captain.locator("#report-state")).to_have_text("已提交，等待确认")
    context.close()
    report.refresh_from_db()
    assert report.state == "pending"

    # Union A's captain confirms on the referee's phone with their PIN: both unions agreed.
    page.reload()
    expect(page.locator("form.pin-form[data-side='B'] [data-agreed]")).to_be_visible()
    form = page.locator("form.pin-form[data-side='A']")
    form.locator("input[name='pin']").fill(table_setup["match"].union_a.captain_pin)
    form.get_by_role("button", name="确认无误").click()
    expect(page.locator(".messages")).to_contain_text("成绩已生效")
    report.refresh_from_db()
    assert report.state == "final"
