"""An organiser runs a four-union event for two rounds, end to end, in Chromium.

Register the unions and check them in, draw and publish, print the table cards (a real PDF),
referees report on their phones through the referee links, the organiser confirms as the second
referee, and the public standings page updates itself (htmx polling) without a reload.
"""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import expect

from matches.models import DealReport, Event, RefereeLink, Round
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db(transaction=True)

UNIONS = {
    "崂山": ["王伟", "李娜", "张强"],
    "市北": ["刘洋", "陈静", "杨勇"],
    "黄岛": ["赵磊", "黄艳", "周杰"],
    "烟台": ["吴涛", "徐明", "孙超"],
}


@pytest.fixture
def event(transactional_db):
    """An empty event: the organiser registers the unions in the browser."""
    b = EventBuilder(
        name="崂山杯够级赛",
        start_date=datetime.date(2026, 6, 1),
        unions=0,
        deals=1,
        confirmation=Event.Confirmation.REFEREE,
        planned_rounds=2,
        stage_name="瑞士制",
        published=False,
    )
    assert b.organiser.username == "organiser"  # signs in below
    return b.event


def referee_reports_deal_one(browser, base, token):
    """A referee opens the table's link on a phone and reports 1-2-3-4-5-6 (union A wins by 2)."""
    context = browser.new_context(
        locale="zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    phone = context.new_page()
    phone.set_default_timeout(30_000)
    phone.goto(f"{base}/ref/{token}/")
    for seat in (1, 2, 3, 4, 5, 6):
        phone.locator(f"button.tap[data-seat='{seat}']").click()
        expect(phone.locator(f"button.tap[data-seat='{seat}'] .place")).to_be_visible()
    phone.locator("input[name='point_1']").check()
    expect(phone.locator("#verdict-ok")).to_be_visible()
    phone.locator("#submit-deal").click()
    expect(phone.locator("#open-report")).to_be_visible()
    context.close()


def play_round(page, browser, base, event, number):
    dashboard = f"{base}/manage/events/{event.pk}/"
    page.goto(dashboard)
    page.locator("#draw-round").click()
    expect(page.locator(f"tr[data-round='{number}']")).to_contain_text("草稿")
    page.locator(f"tr[data-round='{number}'] button", has_text="公布").click()
    expect(page.locator(f"tr[data-round='{number}']")).to_contain_text("已公布")

    # The table cards open as a PDF: one page per table and one of its captains' cards (their
    # PINs), and they create the referee links.
    pdf = page.request.get(f"{dashboard}rounds/{number}/tables.pdf")
    assert pdf.ok and pdf.headers["content-type"] == "application/pdf"
    body = pdf.body()
    assert body.startswith(b"%PDF-") and body.rstrip().endswith(b"%%EOF")
    assert len(re.findall(rb"/Type /Page\b(?!s)", body)) == 4
    round_ = Round.objects.get(event=event, number=number)
    tokens = list(
        RefereeLink.objects.filter(table__round=round_)
        .order_by("table__number")
        .values_list("token", flat=True)
    )
    assert len(tokens) == 2
    for token in tokens:
        referee_reports_deal_one(browser, base, token)

    # The dashboard shows both tables reported; the organiser confirms as the second referee.
    page.goto(dashboard)
    expect(page.locator("[data-count='reported']")).to_have_text("2", timeout=20_000)
    for report in DealReport.objects.filter(deal__match__round=round_, state="pending"):
        page.goto(f"{base}/referee/reports/{report.pk}/")
        page.get_by_role("button", name="确认无误").click()
        expect(page.locator("#report-state")).to_have_text("已确认")
    page.goto(dashboard)
    # The worker (or the eager task) settles the matches; the progress panel polls.
    expect(page.locator("[data-count='confirmed']")).to_have_text("2", timeout=20_000)
    page.locator(f"tr[data-round='{number}'] button", has_text="结束本轮").click()
    expect(page.locator(f"tr[data-round='{number}']")).to_contain_text("已结束")


def test_an_organiser_runs_two_rounds_and_the_public_standings_follow(
    live_server, browser, page, event, signed_in
):
    base = live_server.url
    signed_in(page, "organiser")
    page.get_by_role("link", name="崂山杯够级赛").click()
    page.locator("#toggle-published").click()

    # Register four unions by hand, then check them in (htmx, no reload).
    page.goto(f"{base}/manage/events/{event.pk}/entries/")
    for seed, (name, players) in enumerate(UNIONS.items(), start=1):
        page.locator("details.add-entry").evaluate("d => d.open = true")
        page.fill("#id_union", name)
        for k, player in enumerate(players, start=1):
            page.fill(f"#id_player{k}", player)
        page.fill("#id_seed", str(seed))
        page.locator("#register-form button[type='submit']").click()
        expect(page.locator("#entries")).to_contain_text(name)
    page.goto(f"{base}/manage/events/{event.pk}/checkin/")
    for button in page.locator("#checkin-list tbody button").all():
        button.click()
    expect(page.locator("#checkin-list tbody")).not_to_contain_text("未签到")
    expect(page.locator("#checkin-warning")).to_contain_text("全部已签到")

    # The public standings page, opened once by a spectator and never reloaded.
    spectator_context = browser.new_context(locale="zh-CN")
    spectator = spectator_context.new_page()
    spectator.set_default_timeout(20_000)
    spectator.goto(f"{base}/events/{event.pk}/standings/")
    expect(spectator.locator("main")).to_contain_text("暂无排名")
    spectator.evaluate("window.neverReloaded = true")

    play_round(page, browser, base, event, 1)
    # Without a reload: the page polled and now shows round 1's table, two winners on 3 points.
    expect(spectator.locator("main")).to_contain_text("第 1 轮后", timeout=20_000)
    points = spectator.locator("table.standings tbody tr td:nth-child(3)")
    expect(points).to_have_text(["3", "3", "0", "0"], timeout=20_000)

    play_round(page, browser, base, event, 2)
    expect(spectator.locator("main")).to_contain_text("第 2 轮后", timeout=20_000)
    assert spectator.evaluate("window.neverReloaded") is True
    # Winners met winners: 6, 3, 3, 0 (two rounds, two decided matches each, 3 points a win).
    expect(points).to_have_text(["6", "3", "3", "0"], timeout=20_000)
    expect(spectator.locator("main")).not_to_contain_text("场未完")

    # The union page draws the rank chart; the API agrees with the page.
    spectator.locator("table.standings tbody tr").first.locator("a").click()
    expect(spectator.locator("svg.rank-chart circle")).to_have_count(2)
    api = spectator.request.get(f"{base}/api/v1/public/events/{event.pk}/standings/").json()
    assert api["round"] == 2 and api["rows"][0]["match_points"] == 6
    spectator_context.close()


def test_public_pages_fit_a_phone(live_server, phone_page, transactional_db):
    b = EventBuilder(unions=12, deals=1).register()
    round_ = b.round([(k, k + 1) for k in range(0, 12, 2)])
    for match in round_.matches.all():
        b.final(match, 1, [1, 2, 3, 4, 5, 6], points=[1])
    b.standings()
    for path in (
        f"/events/{b.event.pk}/",
        f"/events/{b.event.pk}/standings/",
        f"/events/{b.event.pk}/standings/?kind=players",
        f"/events/{b.event.pk}/rounds/1/",
        f"/events/{b.event.pk}/rounds/1/tables/1/",
        f"/events/{b.event.pk}/unions/{b.unions[0].pk}/",
    ):
        phone_page.goto(live_server.url + path)
        overflow = phone_page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, path
