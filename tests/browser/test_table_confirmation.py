"""Results at the table (issue 16), on a 390×844 phone: the link holder reports a deal and both
captains confirm it with their PINs on the same page; a wrong PIN is refused and, repeated,
locked out; a report agreed only by the reporter's own union stays pending."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from matches.models import DealReport

pytestmark = pytest.mark.django_db(transaction=True)

SCREENS = os.environ.get("SHOTS_DIR", "")


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def table_setup(transactional_db):
    from tests.personas import make_setup

    setup = make_setup()
    return {
        "table": setup.table,
        "match": setup.match,
        "link": setup.link,
        "event": setup.event,
        "captain_a": setup.captain_a,
        "pin_a": setup.union_a.captain_pin,
        "pin_b": setup.union_b.captain_pin,
    }


def shot(page, name):
    if SCREENS:
        page.screenshot(path=os.path.join(SCREENS, name), full_page=True)


def report_deal(page, url):
    """Tap 1..6 in finishing order, seat 3 opened a point, submit."""
    page.goto(url)
    for seat in (1, 2, 3, 4, 5, 6):
        page.locator(f"button.tap[data-seat='{seat}']").click()
        expect(page.locator(f"button.tap[data-seat='{seat}'] .place")).to_be_visible()
    page.locator("input[name='point_3']").check()
    expect(page.locator("#verdict-ok")).to_contain_text("A +2")
    page.locator("#submit-deal").click()
    expect(page.locator("#open-report")).to_contain_text("等待确认")


def pin(page, side, value):
    form = page.locator(f"form.pin-form[data-side='{side}']")
    form.locator("input[name='pin']").fill(value)
    form.get_by_role("button", name="确认无误").click()


def test_both_captains_confirm_with_their_pins_on_the_link_holders_phone(
    live_server, phone_page, table_setup
):
    page = phone_page
    url = f"{live_server.url}/ref/{table_setup['link'].token}/"
    report_deal(page, url)
    expect(page.locator("form.pin-form")).to_have_count(2)
    shot(page, "pin-confirm-390-zh.png")

    # A wrong PIN is refused; nothing changes.
    pin(page, "B", "0000")
    expect(page.locator("form.pin-form[data-side='B'] .pin-error")).to_contain_text("队长密码不对")
    assert not DealReport.objects.get().confirmations.exists()

    # Union B's captain: agreed, still pending (union A has not agreed).
    pin(page, "B", table_setup["pin_b"])
    expect(page.locator("form.pin-form[data-side='B'] [data-agreed]")).to_be_visible()
    expect(page.locator("#open-report")).to_contain_text("等待确认")
    assert DealReport.objects.get().state == "pending"

    # Union A's captain: both unions agreed, final; the page moves on to deal 2.
    pin(page, "A", table_setup["pin_a"])
    expect(page.locator(".messages")).to_contain_text("成绩已生效")
    report = DealReport.objects.get()
    assert report.state == "final"
    assert sorted(report.confirmations.values_list("by_pin", flat=True)) == [True, True]
    expect(page.locator("#deal-title")).to_contain_text("第2局")


def test_a_report_agreed_only_by_the_reporters_union_stays_pending_and_wrong_pins_lock(
    live_server, phone_page, table_setup, signed_in
):
    page = phone_page
    # Union A's captain holds the phone, signed in: reporting agrees for union A.
    signed_in(page, table_setup["captain_a"].username, next=f"/ref/{table_setup['link'].token}/")
    report_deal(page, f"{live_server.url}/ref/{table_setup['link'].token}/")
    expect(page.locator("form.pin-form[data-side='A'] [data-agreed]")).to_be_visible()
    expect(page.locator("form.pin-form[data-side='A'] input[name='pin']")).to_have_count(0)
    report = DealReport.objects.get()
    assert report.state == "pending"

    # Union A's PIN again (as a crafted post from the same page): still pending.
    token = page.locator("form.pin-form[data-side='A'] input[name='csrfmiddlewaretoken']")
    answer = page.request.post(
        f"{live_server.url}/ref/{table_setup['link'].token}/reports/{report.pk}/pin",
        form={
            "csrfmiddlewaretoken": token.input_value(),
            "side": "A",
            "agrees": "yes",
            "pin": table_setup["pin_a"],
        },
    )
    assert answer.ok
    report.refresh_from_db()
    assert report.state == "pending"

    # Five wrong PINs for union B lock it: the box gives way to the lock's note, and even the
    # right PIN is refused.
    for _ in range(5):
        pin(page, "B", "1111")
    expect(page.locator("form.pin-form[data-side='B'] .pin-error")).to_contain_text("输错太多次")
    expect(page.locator("form.pin-form[data-side='B'] .pin-lock-note")).to_be_visible()
    expect(page.locator("form.pin-form[data-side='B'] input[name='pin']")).to_have_count(0)
    answer = page.request.post(
        f"{live_server.url}/ref/{table_setup['link'].token}/reports/{report.pk}/pin",
        form={
            "csrfmiddlewaretoken": token.input_value(),
            "side": "B",
            "agrees": "yes",
            "pin": table_setup["pin_b"],
        },
    )
    assert answer.ok
    report.refresh_from_db()
    assert report.state == "pending"
    shot(page, "pin-locked-390-zh.png")


def test_the_next_deal_is_reported_while_the_previous_awaits_its_captains(
    live_server, phone_page, table_setup
):
    """Issue 28: deal 2 is reported while deal 1 awaits its captains; deal 1's PINs make it
    final, and the tributes deal 2 owes follow."""
    from matches.models import Deal

    page = phone_page
    url = f"{live_server.url}/ref/{table_setup['link'].token}/"
    report_deal(page, url)
    # Deal 1 waits above, with its PIN forms; the form is deal 2's, its tributes not known yet.
    expect(page.locator(".awaiting-report[data-deal='1'] form.pin-form")).to_have_count(2)
    expect(page.locator("#deal-title")).to_contain_text("第2局")
    expect(page.locator("main")).to_contain_text("本局开局前的进贡尚未算出")
    shot(page, "play-on-390-zh.png")
    report_deal(page, url)
    expect(page.locator(".awaiting-report")).to_have_count(2)
    expect(page.locator("#deal-title")).to_contain_text("第3局")
    assert sorted(
        DealReport.objects.filter(deal__match=table_setup["match"]).values_list(
            "deal__number", "state"
        )
    ) == [(1, "pending"), (2, "pending")]

    first = page.locator(".awaiting-report[data-deal='1']")
    for side, value in (("A", table_setup["pin_a"]), ("B", table_setup["pin_b"])):
        form = first.locator(f"form.pin-form[data-side='{side}']")
        form.locator("input[name='pin']").fill(value)
        form.get_by_role("button", name="确认无误").click()
    expect(page.locator(".messages")).to_contain_text("成绩已生效")
    expect(page.locator(".awaiting-report")).to_have_count(1)
    expect(page.locator(".awaiting-report[data-deal='2']")).to_be_visible()
    # The settlement wrote what deal 2 owes from deal 1's final result.
    deal2 = Deal.objects.get(match=table_setup["match"], number=2)
    assert {"from": 6, "to": 1, "kind": "place", "cards": 2} in deal2.tributes_owed
