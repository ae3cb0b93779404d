"""The table's phone loses its connection (issue 16): what was tapped survives a reload, and a
submission made offline is kept on the phone and arrives exactly once when the network is back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from matches.models import DealReport

from .test_table_confirmation import table_setup  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_taps_survive_a_reload_and_an_offline_submission_arrives_once(
    live_server, phone_page, table_setup
):  # noqa: F811
    page = phone_page
    url = f"{live_server.url}/ref/{table_setup['link'].token}/"
    page.goto(url)
    expect(page.locator("#deal-state")).to_have_text("录入中")
    for seat in (1, 2, 3):
        page.locator(f"button.tap[data-seat='{seat}']").click()
        expect(page.locator(f"button.tap[data-seat='{seat}'] .place")).to_be_visible()
    page.reload()  # the taps come back from the phone's storage
    expect(page.locator("button.tap[data-seat='3'] .place")).to_be_visible()
    for seat in (4, 5, 6):
        page.locator(f"button.tap[data-seat='{seat}']").click()
        expect(page.locator(f"button.tap[data-seat='{seat}'] .place")).to_be_visible()
    page.locator("input[name='point_3']").check()
    expect(page.locator("#verdict-ok")).to_contain_text("A +2")
    # The verdict sits next to the seat buttons, above the rest of the form.
    above = (
        "document.getElementById('verdict').getBoundingClientRect().top < "
        "document.querySelector(\"input[name='point_3']\").getBoundingClientRect().top"
    )
    page.wait_for_function(above)

    page.context.set_offline(True)
    page.locator("#submit-deal").click()
    expect(page.locator("#deal-state")).to_have_attribute("data-state", "queued")
    assert DealReport.objects.count() == 0
    page.wait_for_timeout(1500)
    page.context.set_offline(False)
    expect(page.locator("#open-report")).to_contain_text("等待确认", timeout=15_000)
    assert DealReport.objects.count() == 1
    # The queue is empty: nothing is sent again, even after another reload and a few seconds.
    page.reload()
    page.wait_for_timeout(6000)
    assert DealReport.objects.count() == 1
    assert (
        page.evaluate("JSON.parse(localStorage.getItem('gouji-table-queue') || '[]').length") == 0
    )
