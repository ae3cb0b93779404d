"""Issue 47 and issue 46, problem 7, as an organiser sees them, in Chromium at 390 and 1280 px and
in both languages: another organiser's player offered unticked in the paste's preview and named
with where it comes from; a merge request told on the events list and the dashboard; the
derived rows' check asked for by a button and answered on the chain page."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("SHOTS_DIR", "")
SIZES = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 900}}


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def context_for(browser, size: str, lang: str):
    phone = size == "390"
    context = browser.new_context(
        locale="zh-CN" if lang == "zh" else "en-US",
        viewport=SIZES[size],
        is_mobile=phone,
        has_touch=phone,
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def shot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, name), full_page=True)


def fits(page) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")


def two_organisers():
    """B's public cup with 王五 of 海大; A's empty cup and A's earlier cup with 甲九 of 海大."""
    from matches.events import entries
    from players.models import Club
    from tests.builder import EventBuilder

    Club.objects.create(name="海大")
    b = EventBuilder(unions=0, name="B 的公开杯").register()
    assert b.organiser  # made (and made the cup's organiser) now, before A's
    b_entry = entries.add(b.event, players=["王五", "赵六", "孙七"], name="B甲", club="海大")
    a = EventBuilder(unions=0, name="A 的杯").register()
    assert a.organiser != b.organiser
    earlier = EventBuilder(unions=0, name="A 的春季杯").register()
    earlier.event.organisers.set([a.organiser])
    a_entry = entries.add(earlier.event, players=["甲九", "甲八", "甲七"], name="A旧", club="海大")
    return a, b, b_entry.union.players_in_order()[0], a_entry.union.players_in_order()[0]


@pytest.mark.parametrize("size", ["390", "1280"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_another_organisers_player_is_offered_unticked_in_the_paste(
    live_server, browser, signed_in, size, lang
):
    a, b, wang, nine = two_organisers()
    page = context_for(browser, size, lang)
    signed_in(page, a.organiser.username)
    page.goto(f"{live_server.url}/manage/events/{a.event.pk}/entries/")
    page.locator("#paste-entries summary").click()
    page.locator("#paste-text").fill("A甲 海大 王五 甲九 新人")
    page.locator("#paste-preview").click()
    theirs = page.locator(f"input[name='known'][value='{wang.pk}']")
    mine = page.locator(f"input[name='known'][value='{nine.pk}']")
    expect(theirs).not_to_be_checked()
    expect(mine).to_be_checked()
    label = page.locator(f"label.known-player:has(input[value='{wang.pk}'])")
    expect(label).to_contain_text("B 的公开杯")
    expect(label).to_contain_text(b.organiser.username)
    assert fits(page)
    shot(page, f"h47-paste-known-{size}-{lang}.png")
    page.locator("#confirm-import").click()
    expect(page.locator(".messages")).to_be_visible()
    from matches.models import Registration

    members = Registration.objects.get(event=a.event).union.players_in_order()
    assert members[0].pk != wang.pk and members[1].pk == nine.pk


@pytest.mark.parametrize("size", ["390", "1280"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_owner_sees_a_merge_request_on_the_events_list_and_dashboard(
    live_server, browser, signed_in, size, lang
):
    from matches.events import entries
    from seasons import identity
    from tests.builder import EventBuilder

    a, b, wang, _nine = two_organisers()
    second = EventBuilder(unions=0, name="B 的第二杯").register()
    second.event.organisers.set([b.organiser])
    copy = entries.add(second.event, players=["王五", "吴一", "吴二"], name="B丙", club="别处")
    entries.add(
        a.event,
        players=["王五", "甲二", "甲三"],
        name="A甲",
        club="海大",
        user=a.organiser,
        known={wang.pk},
    )
    asked = identity.request_merge(wang, copy.union.players_in_order()[0], a.organiser)
    page = context_for(browser, size, lang)
    signed_in(page, b.organiser.username)
    notice = page.locator("#merge-requests-waiting")
    expect(notice).to_be_visible()
    expect(notice.locator(f"[data-request='{asked.pk}']")).to_contain_text(a.organiser.username)
    assert fits(page)
    shot(page, f"h47-events-merge-request-{size}-{lang}.png")
    page.goto(f"{live_server.url}/manage/events/{b.event.pk}/")
    expect(page.locator("#merge-requests-waiting")).to_be_visible()
    shot(page, f"h47-dashboard-merge-request-{size}-{lang}.png")
    page.locator("#merge-requests-waiting a.button").click()
    expect(page.locator(f"#incoming-requests [data-request='{asked.pk}']")).to_be_visible()


@pytest.mark.parametrize("size", ["390", "1280"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_derived_check_is_asked_for_and_answered_on_the_chain_page(
    live_server, browser, signed_in, eager_tasks, size, lang
):
    from tests.builder import EventBuilder

    b = EventBuilder(unions=4, deals=2, planned_rounds=2).register()
    b.play_rounds(1)
    b.standings()
    page = context_for(browser, size, lang)
    signed_in(page, b.organiser.username)
    page.goto(f"{live_server.url}/manage/events/{b.event.pk}/chain/")
    expect(page.locator("#chain-state")).to_have_attribute("data-ok", "1")
    page.locator("#check-derived").click()
    state = page.locator("#derived-state")
    expect(state).to_have_attribute("data-ok", "1")  # run by the task, polled till done
    expect(page.locator("#derived-when")).to_contain_text(b.organiser.username)
    assert fits(page)
    shot(page, f"h47-chain-derived-{size}-{lang}.png")
