"""A captain disputes a deal on the table's phone with a reason; the organiser sees the reason in
the queue and decides it there; the table can report its next deal at once (issue 16)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from matches.models import DealReport

from .test_table_confirmation import report_deal, shot, table_setup  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_a_dispute_with_a_reason_is_decided_from_the_queue(
    live_server, browser, phone_page, table_setup, signed_in
):  # noqa: F811
    page = phone_page
    url = f"{live_server.url}/ref/{table_setup['link'].token}/"
    report_deal(page, url)
    form = page.locator("form.pin-form[data-side='B']")
    form.locator("input[name='pin']").fill(table_setup["pin_b"])
    form.locator("details.dispute summary").click()
    form.locator("input[name='reason'][value='burn']").check()
    form.locator("textarea[name='note']").fill("4号烧了2号")
    # Without the "sure" tick the dispute is not sent.
    form.get_by_role("button", name="提出异议").click()
    expect(page.locator("form.pin-form[data-side='B'] .pin-error")).to_contain_text("确定提出异议")
    assert DealReport.objects.get().state == "pending"
    form = page.locator("form.pin-form[data-side='B']")
    form.locator("input[name='pin']").fill(table_setup["pin_b"])
    form.locator("details.dispute summary").click()
    form.locator("input[name='reason'][value='burn']").check()
    form.locator("textarea[name='note']").fill("4号烧了2号")
    form.locator("input[name='sure']").check()
    form.get_by_role("button", name="提出异议").click()
    expect(page.locator("#open-report")).to_contain_text("有争议")
    expect(page.locator("#deal-form")).to_have_count(0)  # the table waits for the organiser
    report = DealReport.objects.get()
    assert report.state == "disputed"
    assert report.confirmations.get().reason == "burn"

    # The organiser, at a desk: the queue shows the dispute with its reason; uphold it.
    context = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    desk = context.new_page()
    desk.set_default_timeout(30_000)
    signed_in(desk, "organiser", next=f"/manage/events/{table_setup['event'].pk}/results/queue/")
    item = desk.locator(f"li.queue-item[data-report='{report.pk}']")
    expect(item.locator(".dispute-reason")).to_contain_text("烧牌")
    expect(item.locator(".dispute-reason")).to_contain_text("4号烧了2号")
    shot(desk, "queue-1280-zh.png")
    item.get_by_role("button", name="维持原报告").click()
    expect(desk.locator(".messages")).to_contain_text("成绩已生效")
    expect(desk.locator("#queue-empty")).to_be_visible()
    context.close()
    report.refresh_from_db()
    assert report.state == "final"

    # The phone can report deal 2 at once.
    page.reload()
    expect(page.locator("#deal-title")).to_contain_text("第2局")
    expect(page.locator("#deal-form")).to_be_visible()
