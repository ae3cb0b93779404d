"""A small Giog event from draw to standings, in Chromium: the organiser draws and publishes,
referees enter each table's hand on a phone (live check, then submit), and the public standings
page shows the Giog table of points."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from matches.models import DealReport, RefereeLink, Registration, Round, Union
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db(transaction=True)

# Six players: two tables of three; 30 pieces in play, each count a multiple of 3 (G10).
WON = {1: 15, 2: 9, 3: 6}


@pytest.fixture
def event(transactional_db):
    b = EventBuilder(
        "giog",
        name="Giog 崂山杯",
        players=6,
        deals=1,
        planned_rounds=1,
        stage_name="轮换",
        published=False,
    ).register()
    assert b.organiser.username == "organiser"  # signs in below
    return b.event


def test_a_giog_event_from_draw_to_standings(live_server, browser, page, event, signed_in):
    base = live_server.url
    signed_in(page, "organiser")
    page.get_by_role("link", name="Giog 崂山杯").click()
    page.locator("#toggle-published").click()

    page.locator("#draw-round").click()
    expect(page.locator("tr[data-round='1']")).to_contain_text("草稿")
    page.locator("tr[data-round='1'] button", has_text="公布").click()
    expect(page.locator("tr[data-round='1']")).to_contain_text("已公布")
    round_ = Round.objects.get(event=event, number=1)
    assert sorted(t.seats.count() for t in round_.tables.all()) == [3, 3]

    for table in round_.tables.order_by("number"):
        link = RefereeLink.objects.create(table=table, label="browser")
        context = browser.new_context(
            locale="zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
        )
        phone = context.new_page()
        phone.set_default_timeout(30_000)
        phone.goto(f"{base}/ref/{link.token}/")
        expect(phone.locator("#hand-title")).to_contain_text("第1手")
        # A wrong total first: the live check names the rule.
        phone.fill("#won_1", "15")
        phone.fill("#won_2", "9")
        phone.fill("#won_3", "9")
        phone.locator("#won_3").blur()
        expect(phone.locator("#verdict li[data-rule='G10']").first).to_be_visible()
        phone.fill("#won_3", str(WON[3]))
        phone.locator("#won_3").blur()
        expect(phone.locator("#verdict-ok")).to_be_visible()
        overflow = phone.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
        phone.locator("#submit-hand").click()
        expect(phone.locator("tr[data-hand='1']")).to_contain_text("已确认")
        expect(phone.locator("main")).to_contain_text("本桌所有手均已确认")
        context.close()
    assert DealReport.objects.final().filter(deal__match__round=round_).count() == 2
    assert not Union.objects.filter(event=event).exists()  # a Giog table has no unions (issue 24)

    spectator = browser.new_context(locale="zh-CN").new_page()
    spectator.goto(f"{base}/events/{event.pk}/standings/")
    rows = spectator.locator("table.standings[data-game='giog'] tbody tr")
    expect(rows).to_have_count(6, timeout=20_000)
    # Both seat-1 players won their hand: 3 points each, ranked first together (a shared rank
    # is marked "=", issue 37).
    expect(rows.locator("td:nth-child(3)")).to_have_text(
        ["3", "3", "2", "2", "0", "0"], timeout=20_000
    )
    expect(rows.locator("td:nth-child(1)")).to_have_text(["=1", "=1", "=3", "=3", "=5", "=5"])
    expect(rows.locator("td:nth-child(1) .tie")).to_have_count(6)

    # The public Giog pages fit a phone.
    phone_context = browser.new_context(
        locale="zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    phone = phone_context.new_page()
    player = Registration.objects.filter(event=event).first().player_id
    for path in (
        f"/events/{event.pk}/",
        f"/events/{event.pk}/standings/",
        f"/events/{event.pk}/rounds/1/",
        f"/events/{event.pk}/rounds/1/tables/1/",
        f"/events/{event.pk}/players/{player}/",
    ):
        phone.goto(base + path)
        overflow = phone.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, path
    expect(phone.locator("body")).to_contain_text("赢子")
    phone_context.close()
