"""Issue 48's "done when", in Chromium: the organiser opens registration at 1280 px, captains
register their unions on a 390 px phone (one in Chinese, one in English, a third lands on the
waiting list), the organiser reviews the queue, an accepted union withdraws and the waiting list
moves up (the promoted captain's page says so), and the fee is taken at the check-in desk.

Set SCREENSHOTS=/some/dir to photograph each page at 390 and 1280 px, in zh-hans and English.
"""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from matches.events import fees
from matches.models import EntryLog, EntryRequest, FeePayment
from tests.builder import EventBuilder
from tests.personas import make_user

pytestmark = pytest.mark.django_db(transaction=True)
Status = EntryRequest.Status


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def set_language(page, base, language):
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])


def photo(page, base, name, language_now="zh-hans"):
    """The page as it is at 390 and 1280 px, then reloaded in the other language (a GET page),
    and back in the language it was in."""
    folder = os.environ.get("SCREENSHOTS")
    if not folder:
        return
    size = page.viewport_size
    other = "en" if language_now == "zh-hans" else "zh-hans"
    for language in (language_now, other):
        if language != language_now:
            set_language(page, base, language)
            page.reload()
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=f"{folder}/{name}-{language}-{width}.png", full_page=True)
    set_language(page, base, language_now)
    page.reload()
    page.set_viewport_size(size)


def phone(browser, base, language):
    context = browser.new_context(
        locale="zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    context.add_cookies([{"name": "django_language", "value": language, "url": base}])
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def sum_of(label: str) -> str:
    """The challenge's answer, read from its question as a person reads it."""
    found = re.search(r"(\d+) (?:plus|加) (\d+)", label)
    assert found is not None, label
    return str(int(found.group(1)) + int(found.group(2)))


def register(page, url: str, k: int, english: bool = False) -> str:
    """A captain fills the form as they read it, sums the challenge and sends it; the private
    page's address."""
    page.goto(url)
    page.fill("#id_union_name", f"网报联邦{k}")
    for n, name in ((1, "甲"), (2, "乙"), (3, "丙")):
        page.fill(f"#id_player{n}", f"网报{k}{name}")
    page.select_option("#id_captain", "2")
    page.fill("#id_contact", f"1390000{k:04d}")
    label = page.locator("label[for='id_answer']").inner_text()
    assert ("plus" in label) == english
    page.fill("#id_answer", sum_of(label))
    page.click("#signup-submit")
    page.wait_for_url(re.compile(r"/signup/[^/]+/\?new=1$"))
    expect(page.locator("#signup-new")).to_be_visible()
    expect(page.locator(".signup-qr svg")).to_be_visible()
    return page.url.split("?")[0]


def test_captains_register_the_organiser_reviews_the_waiting_list_moves_up_the_desk_takes_the_fee(
    live_server, browser, page, signed_in
):
    b = EventBuilder(unions=0, published=False)
    organiser = make_user("organiser")
    b.event.organisers.add(organiser)
    event = b.event
    base = live_server.url

    # The organiser opens registration at 1280 px: two places, review, 30 yuan at the door.
    page.set_viewport_size({"width": 1280, "height": 900})
    signed_in(page, organiser.username)
    page.goto(f"{base}/manage/events/{event.pk}/signup/")
    page.check("#id_is_open")
    page.fill("#id_capacity", "2")
    page.fill("#id_waitlist_limit", "5")
    page.fill("#id_fee", "30")
    page.check("input[name='payment_ways'][value='cash']")
    page.fill("#id_note", "请带身份证，9 点前到场签到。")
    page.click("#save-signup")
    expect(page.locator("#signup-open-state")).to_have_attribute("data-state", "open")
    public = page.locator("#public-signup-url").get_attribute("href")
    assert public and public.endswith(f"/events/{event.pk}/signup/")
    photo(page, base, "signup-settings")

    # Captain 1 on a phone in Chinese; the form first refuses a bad field and keeps the rest.
    one = phone(browser, base, "zh-hans")
    one.goto(public)
    expect(one.locator("h1")).to_contain_text("报名")
    expect(one.locator("#places-left")).to_contain_text("剩余名额：2")
    photo(one, base, "signup-form")
    one.fill("#id_union_name", "网报联邦1")
    one.fill("#id_player1", "网报1甲")
    one.fill("#id_player2", "网报1甲")
    one.fill("#id_player3", "网报1丙")
    one.fill("#id_contact", "12")
    label = one.locator("label[for='id_answer']").inner_text()
    one.fill("#id_answer", sum_of(label))
    one.click("#signup-submit")
    expect(
        one.locator("[data-field='player2'] .errors, [data-field='player3'] .errors")
    ).to_have_count(1)
    expect(one.locator("[data-field='contact'] .errors")).to_be_visible()
    expect(one.locator("#id_union_name")).to_have_value("网报联邦1")
    if os.environ.get("SCREENSHOTS"):
        one.screenshot(
            path=f"{os.environ['SCREENSHOTS']}/signup-form-errors-zh-hans-390.png", full_page=True
        )
    assert EntryRequest.objects.filter(event=event).count() == 0
    private_one = register(one, public, 1)
    expect(one.locator("#signup-status")).to_have_attribute("data-status", "pending")
    expect(one.locator("#signup-status")).to_contain_text("等待组织者审核")
    photo(one, base, "signup-private-pending")

    # Captain 2 on a phone in English; captain 3 finds the places taken: the waiting list.
    two = phone(browser, base, "en")
    private_two = register(two, public, 2, english=True)
    expect(two.locator("#signup-status")).to_contain_text("Waiting for the organiser")
    three = phone(browser, base, "zh-hans")
    private_three = register(three, public, 3)
    expect(three.locator("#signup-status")).to_have_attribute("data-status", "waitlisted")
    expect(three.locator("#signup-status")).to_contain_text("候补第 1 位")
    photo(three, base, "signup-private-waitlisted")

    # The organiser reviews at 1280 px: ticks both and accepts them at once.
    page.goto(f"{base}/manage/events/{event.pk}/signup/queue/")
    expect(page.locator("#places")).to_contain_text("2 / 2")
    rows = page.locator(".queue-table tbody tr")
    expect(rows).to_have_count(2)
    photo(page, base, "signup-queue")
    for box in page.locator("input[name='ids']").all():
        box.check()
    page.click("#accept-many")
    expect(page.locator(".messages")).to_contain_text("已接受 2 个报名")
    assert set(
        EntryRequest.objects.filter(event=event, status=Status.ACCEPTED).values_list(
            "union_name", flat=True
        )
    ) == {"网报联邦1", "网报联邦2"}
    page.goto(f"{base}/manage/events/{event.pk}/signup/queue/?status=waitlisted")
    expect(page.locator(".queue-table tbody tr")).to_have_count(1)
    expect(page.locator(".queue-table")).to_contain_text("候补第 1 位")
    expect(page.locator("a[data-status='accepted']")).to_contain_text("(2)")
    expect(page.locator("a[data-status='declined']")).to_contain_text("(0)")

    # Captain 2 sees the entry accepted and the fee owed.
    two.goto(private_two)
    expect(two.locator("#signup-status")).to_have_attribute("data-status", "accepted")
    expect(two.locator("#signup-fee")).to_contain_text("30")
    photo(two, base, "signup-private-accepted", language_now="en")

    # Captain 1 withdraws: the waiting list moves up, logged, and captain 3's page says so.
    one.goto(private_one)
    one.click("#signup-withdraw")
    expect(one.locator("#signup-status")).to_have_attribute("data-status", "accepted")
    one.check("#signup-withdraw-confirm")
    one.click("#signup-withdraw")
    expect(one.locator("#signup-status")).to_have_attribute("data-status", "withdrawn")
    three.goto(private_three)
    expect(three.locator("#signup-status")).to_have_attribute("data-status", "pending")
    expect(three.locator("#signup-promoted")).to_be_visible()
    assert EntryLog.objects.filter(request__union_name="网报联邦3", action="promoted").exists()
    photo(three, base, "signup-private-promoted")

    # The organiser accepts the promoted union; its page says accepted, promoted.
    page.goto(f"{base}/manage/events/{event.pk}/signup/queue/")
    page.locator(".queue-table tbody tr", has_text="网报联邦3").locator(
        "button[data-action='accept']"
    ).click()
    expect(page.locator(".messages")).to_contain_text("已接受：网报联邦3")
    three.reload()
    expect(three.locator("#signup-status")).to_have_attribute("data-status", "accepted")
    expect(three.locator("#signup-promoted")).to_contain_text("从候补转为正式报名")

    # The fee at the check-in desk: union 2 owes 30 yuan; the desk takes it in cash.
    page.goto(f"{base}/manage/events/{event.pk}/checkin/")
    entry_two = EntryRequest.objects.get(event=event, union_name="网报联邦2").registration
    row = page.locator(f"#checkin-{entry_two.pk}")
    expect(row.locator(".fee-due")).to_contain_text("未缴 30 元")
    photo(page, base, "signup-checkin-desk")
    row.locator("button[data-action='pay']").click()
    page.wait_for_url(re.compile(r"/checkin/"))
    expect(page.locator(f"#checkin-{entry_two.pk} .fee-due")).to_have_count(0)
    payment = FeePayment.objects.get(registration=entry_two)
    assert (payment.amount_fen, payment.way, payment.by_id) == (3000, "cash", organiser.pk)
    assert fees.balance(entry_two).outstanding == 0
    two.goto(private_two)
    expect(two.locator("#signup-fee")).to_contain_text("30")
    photo(two, base, "signup-private-paid", language_now="en")

    # The treasurer's page adds it up: 60 owed by the two accepted unions, 30 paid in cash.
    page.goto(f"{base}/manage/events/{event.pk}/fees/")
    expect(page.locator("[data-total='owed']")).to_have_text("60")
    expect(page.locator("[data-total='paid']")).to_have_text("30")
    expect(page.locator("#by-way")).to_contain_text("现场现金")
    photo(page, base, "signup-treasurer")
    for phone_page in (one, two, three):
        phone_page.context.close()  # before the live server stops: no request left in flight
