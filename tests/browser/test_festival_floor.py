"""The festival floor in Chromium (issue 26, the referee part): the organiser defines zones and
assigns referees on the page, a zone referee signs in on a phone and sees and enters a result
for exactly their tables, a table calls its referee and the call is acknowledged.

With SHOTS_DIR set, screenshots of the zones page, the referee home, the table page with the
call button and the queue with a call, at 390 and 1280 px, in both languages.
"""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from matches.models import DealReport, RefereeCall, RefereeLink

pytestmark = pytest.mark.django_db(transaction=True)

OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture
def floor(transactional_db):
    """Round 1 of 12 unions published (tables 1-6); referees north and south invited."""
    from matches.events import staff
    from tests.builder import EventBuilder
    from tests.personas import make_user

    b = EventBuilder(unions=12, deals=1).register()
    round_ = b.draw()
    referees = {}
    for name in ("north", "south"):
        referees[name] = make_user(name)
        staff.accept(staff.invite(b.event, "referee"), referees[name])
    organiser = b.people.organiser
    link = RefereeLink.objects.create(table=round_.tables.get(number=1), created_by=organiser)
    return {"event": b.event, "round": round_, "organiser": organiser, "link": link, **referees}


def define_and_assign(page, base, floor, signed_in):
    zones_path = f"/manage/events/{floor['event'].pk}/zones/"
    signed_in(page, floor["organiser"].username, next=zones_path)
    page.fill("#zones-text", "A区 1-3\nB区 4-6")
    page.locator("#save-zones").click()
    expect(page.locator(".messages")).to_contain_text("已保存 2 个区域")
    north = page.locator(".assign-row[data-referee='north']")
    north.get_by_label("A区").check()
    page.locator(".assign-row[data-referee='south'] input[name^='tables-']").fill("5")
    page.locator("#save-assignments").click()
    expect(page.locator(".messages")).to_contain_text("裁判分配已保存")
    # Tables 4 and 6 have nobody: the coverage says so.
    expect(page.locator("#coverage-line")).to_contain_text("4 / 6")
    expect(page.locator("#uncovered")).to_contain_text("4, 6")
    return zones_path


def test_zones_a_referee_s_tables_and_a_call(live_server, browser, phone_page, floor, signed_in):
    base = live_server.url
    desk = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    organiser = desk.new_page()
    organiser.set_default_timeout(10_000)
    try:
        define_and_assign(organiser, base, floor, signed_in)

        # The zone referee signs in on a phone: tables 1-3, nothing else.
        referee = phone_page
        signed_in(referee, floor["north"].username, next="/referee/")
        cards = referee.locator(".my-tables .table-card")
        expect(cards).to_have_count(3)
        assert sorted(cards.evaluate_all("cs => cs.map(c => +c.dataset.table)")) == [1, 2, 3]
        expect(referee.locator(".table-card[data-table='2']")).to_contain_text("等待第1局")
        assert referee.evaluate(OVERFLOW) <= 0

        # They open table 2 and enter its deal.
        referee.locator(".table-card[data-table='2'] a.table-link").click()
        expect(referee.locator("h1")).to_contain_text("第2桌")
        for seat in (1, 2, 3, 4, 5, 6):
            referee.locator(f"button.tap[data-seat='{seat}']").click()
            expect(referee.locator(f"button.tap[data-seat='{seat}'] .place")).to_be_visible()
        referee.locator("input[name='point_3']").check()
        expect(referee.locator("#verdict-ok")).to_be_visible()
        referee.locator("#submit-deal").click()
        expect(referee.locator("#open-report")).to_contain_text("等待确认")
        report = DealReport.objects.get()
        assert report.deal.match.table.number == 2 and report.submitted_by == floor["north"]

        # Table 4 is not theirs.
        other = floor["round"].tables.get(number=4)
        response = referee.goto(f"{base}/referee/tables/{other.pk}/")
        assert response.status == 403

        # Table 1's phone calls the referee; a second press does not stack.
        table_phone = browser.new_context(
            locale="zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True
        ).new_page()
        table_phone.goto(f"{base}/ref/{floor['link'].token}/")
        table_phone.locator("#call-button").click()
        expect(table_phone.locator(".call-open")).to_be_visible()
        expect(table_phone.locator("#call-button")).to_have_count(0)
        assert RefereeCall.objects.filter(acknowledged_at__isnull=True).count() == 1

        # The call leads the referee's list and shows on the organiser's queue.
        referee.goto(f"{base}/referee/")
        expect(cards.first).to_have_attribute("data-table", "1")
        expect(cards.first).to_contain_text("呼叫裁判")
        expect(referee.locator(".table-card[data-table='2']")).to_contain_text("等待")
        queue = f"{base}/manage/events/{floor['event'].pk}/results/queue/"
        organiser.goto(queue)
        expect(organiser.locator("[data-call-table='1']")).to_be_visible()

        # The referee acknowledges: gone from the list's head and from the queue.
        cards.first.locator("button.ack-call").click()
        expect(referee.locator(".messages")).to_contain_text("已响应第 1 桌的呼叫")
        expect(referee.locator(".table-card.state-called")).to_have_count(0)
        organiser.goto(queue)
        expect(organiser.locator("[data-call-table='1']")).to_have_count(0)
        call = RefereeCall.objects.get()
        assert call.acknowledged_by == floor["north"]
        table_phone.context.close()
    finally:
        desk.close()


@pytest.mark.skipif(not os.environ.get("SHOTS_DIR"), reason="SHOTS_DIR not set")
def test_screenshots(live_server, browser, floor, signed_in):
    from matches.events import calls

    folder = os.environ["SHOTS_DIR"]
    os.makedirs(folder, exist_ok=True)
    base = live_server.url
    setup = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    define_and_assign(setup.new_page(), base, floor, signed_in)
    setup.close()
    for locale, language in (("zh-CN", "zh-hans"), ("en-GB", "en")):
        for width in (390, 1280):
            RefereeCall.objects.all().delete()
            context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
            page = context.new_page()
            page.goto(f"{base}/ref/{floor['link'].token}/")
            page.screenshot(path=f"{folder}/table-call-{language}-{width}.png", full_page=True)
            calls.call_referee(floor["round"].tables.get(number=1))
            page.reload()
            page.screenshot(path=f"{folder}/table-called-{language}-{width}.png", full_page=True)
            signed_in(page, floor["north"].username, next="/referee/")
            page.screenshot(path=f"{folder}/referee-home-{language}-{width}.png", full_page=True)
            context.clear_cookies()
            zones = f"/manage/events/{floor['event'].pk}/zones/"
            signed_in(page, floor["organiser"].username, next=zones)
            page.screenshot(path=f"{folder}/zones-{language}-{width}.png", full_page=True)
            page.goto(f"{base}/manage/events/{floor['event'].pk}/results/queue/")
            page.screenshot(path=f"{folder}/queue-{language}-{width}.png", full_page=True)
            page.goto(f"{base}/manage/events/{floor['event'].pk}/")
            page.screenshot(path=f"{folder}/dashboard-{language}-{width}.png", full_page=True)
            context.close()
