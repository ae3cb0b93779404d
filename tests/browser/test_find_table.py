"""Find my table in Chromium (issue 26): on a 390 px phone a player types the pinyin initials of
their union in the event's search box and sees their table, then opens their own page from the
badge's QR address and sees the same table, its zone and their opponents; the organiser's badge
sheet prints one badge per person with its QR code.

With SHOTS_DIR set, screenshots of the find page, the entry card, my page and the badge sheet at
390 and 1280 px, in both languages.
"""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
NAMES = ["黄岛五队", "市北一队", "崂山二队", "李沧三队"]
PLAYERS = [
    "王建国", "李红", "张伟",
    "赵强", "钱明", "孙丽",
    "周杰", "吴刚", "郑爽",
    "冯军", "陈静", "褚亮",
]  # fmt: skip


@pytest.fixture
def hall(transactional_db):
    """Round 1 played and closed, round 2 published: 黄岛五队 at table 2 against 李沧三队."""
    from matches.events import find
    from matches.models import RefereeZone
    from tests.builder import EventBuilder

    b = EventBuilder(
        unions=4,
        deals=1,
        names=NAMES,
        player_names=PLAYERS,
        clubs=["青岛港俱乐部", "崂山俱乐部"],
    ).register()
    RefereeZone.objects.create(event=b.event, name="东区", first_table=1, last_table=20)
    b.report_all(b.round([(0, 1), (2, 3)])).close().standings()
    b.round([(3, 0), (1, 2)])
    player = b.unions[0].players_in_order()[2]  # 张伟: B side of table 1 in round 2
    return {
        "b": b,
        "event": b.event,
        "player": player,
        "token": find.pass_token(b.event, player=player),
    }


def test_a_player_finds_their_table_by_pinyin_initials_on_a_phone(live_server, phone_page, hall):
    page, base, event = phone_page, live_server.url, hall["event"]
    page.goto(f"{base}/events/{event.pk}/standings/")
    # The search box of every public page of the event.
    page.fill("#nav-find-q", "hdwd")
    page.locator(".nav-find button").click()
    page.wait_for_url(f"**/events/{event.pk}/find/?q=hdwd")
    hit = page.locator(".find-hit").first
    expect(hit.locator("h2")).to_have_text("黄岛五队")
    expect(hit.locator(".seat-table")).to_have_text("第 1 桌")
    expect(hit).to_contain_text("B 方")
    expect(hit).to_contain_text("李沧三队")
    expect(hit).to_contain_text("东区")
    # Typing on the page answers live (htmx), without a submit.
    page.fill("#find-q", "zw")
    expect(page.locator(".find-hit h2").first).to_have_text("张伟")
    expect(page.locator(".find-hit").first).to_contain_text("座位 6")
    assert page.evaluate(OVERFLOW) <= 0
    # The card: every round's table, opponent, result and rank.
    page.locator(".find-hit h2 a").first.click()
    expect(page.locator("h1")).to_have_text("张伟")
    expect(page.locator("tr[data-round]")).to_have_count(2)
    expect(page.locator("tr[data-round='1']")).to_contain_text("市北一队")
    assert page.evaluate(OVERFLOW) <= 0


def test_a_player_sees_their_table_on_their_own_page(live_server, phone_page, hall):
    page, base = phone_page, live_server.url
    page.goto(f"{base}/me/{hall['token']}/")
    seat = page.locator(".me-seat")
    expect(seat.locator("h2")).to_have_text("第 2 轮：我的座位")
    expect(seat.locator(".seat-table")).to_have_text("第 1 桌")
    expect(seat).to_contain_text("李沧三队")
    expect(seat).to_contain_text("东区")
    expect(page.locator("tr[data-round='1']")).to_contain_text("市北一队")
    assert page.evaluate(OVERFLOW) <= 0
    assert page.goto(f"{base}/me/{hall['token']}x/").status == 404


@pytest.mark.skipif(not os.environ.get("SHOTS_DIR"), reason="SHOTS_DIR not set")
def test_screenshots(live_server, browser, hall, signed_in):
    folder = os.environ["SHOTS_DIR"]
    os.makedirs(folder, exist_ok=True)
    base, event = live_server.url, hall["event"]
    union = hall["b"].unions[0]
    for locale, language in (("zh-CN", "zh-hans"), ("en-GB", "en")):
        for width in (390, 1280):
            context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
            page = context.new_page()
            shots = {
                "find-empty": f"/events/{event.pk}/find/",
                "find": f"/events/{event.pk}/find/?q=hdwd",
                "find-player": f"/events/{event.pk}/find/?q=zw",
                "card-union": f"/events/{event.pk}/card/unions/{union.pk}/",
                "card-player": f"/events/{event.pk}/card/players/{hall['player'].pk}/",
                "me": f"/me/{hall['token']}/",
                "event-with-search": f"/events/{event.pk}/",
            }
            for name, path in shots.items():
                page.goto(base + path)
                page.screenshot(path=f"{folder}/{name}-{language}-{width}.png", full_page=True)
            badges = f"/manage/events/{event.pk}/badges/"
            signed_in(page, hall["b"].organiser.username, next=badges)
            page.screenshot(path=f"{folder}/badges-{language}-{width}.png", full_page=True)
            page.emulate_media(media="print")
            page.pdf(path=f"{folder}/badges-{language}.pdf", format="A4") if width == 1280 else None
            page.emulate_media(media="screen")
            context.close()
