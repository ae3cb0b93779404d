"""The festival floor in Chromium (issue 26), in three parts:

- the referees: the organiser defines zones and assigns referees on the page, a zone referee
  signs in on a phone and sees and enters a result for exactly their tables, a table calls its
  referee and the call is acknowledged;
- find my table: on a 390 px phone a player types the pinyin initials of their union in the
  event's search box and sees their table, then opens their own page from the badge's QR address
  and sees the same table, its zone and their opponents; the badge sheet prints one badge a person;
- the hall's clock: the organiser starts the round's clock on the round page; the projector
  (1920x1080) and the table's phone count it down; paused it stands still; at zero the projector
  says so and the close page names the tables still playing; the projector fits at least 30
  rows at 1080p and pages per zone.

With SHOTS_DIR set, screenshots of every page of the floor at 390 and 1280 px in both languages
(the projector at 1920x1080 too), and the table card and poster PDFs as images.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from matches.models import DealReport, RefereeCall, RefereeLink, RefereeZone, RoundClock

pytestmark = pytest.mark.django_db(transaction=True)

OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"

# --- the referees ---------------------------------------------------------------------------


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
    organiser.set_default_timeout(30_000)
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
def test_screenshots_of_the_referees_floor(live_server, browser, floor, signed_in):
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


# --- find my table ---------------------------------------------------------------------------
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
    from matches.models import RefereeZone
    from matches.public import floor_passes
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
        "token": floor_passes.pass_token(b.event, player=player),
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
def test_screenshots_of_find_my_table(live_server, browser, hall, signed_in):
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


# --- the hall's clock and the projector --------------------------------------------------------


@pytest.fixture
def big(transactional_db):
    """Round 1 of 64 unions published (32 tables), two zones, a table link."""
    from tests.builder import EventBuilder

    b = EventBuilder(unions=64, deals=1).register()
    round_ = b.draw()
    RefereeZone.objects.create(event=b.event, name="A区", first_table=1, last_table=16)
    RefereeZone.objects.create(event=b.event, name="B区", first_table=17, last_table=32)
    link = RefereeLink.objects.create(table=round_.tables.get(number=1), created_by=b.organiser)
    return {"b": b, "event": b.event, "round": round_, "organiser": b.organiser, "link": link}


def seconds_shown(locator) -> int:
    text = locator.inner_text().strip()
    parts = [int(p) for p in re.findall(r"\d+", text)]
    total = 0
    for part in parts:
        total = total * 60 + part
    return total


def test_the_clock_runs_on_the_projector_and_the_table_phone(live_server, browser, big, signed_in):
    base, event = live_server.url, big["event"]
    desk = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    organiser = desk.new_page()
    round_path = f"/manage/events/{event.pk}/rounds/1/"
    signed_in(organiser, big["organiser"].username, next=round_path)
    organiser.fill("#clock-start input[name=minutes]", "2")
    organiser.locator("#clock-start button").click()
    expect(organiser.locator(".messages")).to_contain_text("计时开始：2 分钟")
    expect(organiser.locator("#clock .round-clock")).to_have_attribute("data-state", "running")

    hall = browser.new_context(locale="zh-CN", viewport={"width": 1920, "height": 1080})
    projector = hall.new_page()
    projector.goto(f"{base}/events/{event.pk}/rounds/1/projector/")
    clock = projector.locator(".p-side .clock-time")
    expect(clock).to_have_text(re.compile(r"^[12]:\d\d$"))
    first = seconds_shown(clock)
    assert 100 < first <= 120
    # Counted down in the browser: wait for two seconds less to show, not for a time (on a
    # busy machine the browser's timer runs late).
    projector.wait_for_function(
        """(limit) => { const t = document.querySelector('.p-side .clock-time').textContent;
        const s = (t.match(/\\d+/g) || []).reduce((total, p) => total * 60 + Number(p), 0);
        return s > 0 && s <= limit; }""",
        arg=first - 2,
    )
    # Dense: at least 30 rows on the first page at 1920x1080, the QR code and the address.
    visible = projector.locator("tr[data-row]:not([hidden])").count()
    assert visible >= 30, visible
    assert projector.evaluate(OVERFLOW) <= 0
    expect(projector.locator(".p-find-url")).to_have_text(f"{base}/events/{event.pk}/find/")
    assert projector.locator(".p-qr svg").bounding_box()["width"] > 200

    # The table's phone shows the same clock.
    phone_context = browser.new_context(
        locale="zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True
    )
    phone = phone_context.new_page()
    phone.goto(f"{base}/ref/{big['link'].token}/")
    phone_clock = phone.locator(".round-clock .clock-time")
    expect(phone_clock).to_have_text(re.compile(r"^[12]:\d\d$"))
    assert phone.evaluate(OVERFLOW) <= 0

    # Paused: the projector, loaded again, stands still and says so.
    organiser.locator("#clock-pause button").click()
    expect(organiser.locator(".messages")).to_contain_text("计时已暂停")
    projector.reload()
    expect(projector.locator(".p-side .clock-note")).to_have_text("已暂停")
    held = seconds_shown(clock)
    time.sleep(1.5)
    assert seconds_shown(clock) == held

    # Resumed with three seconds left: the projector reaches zero by itself.
    organiser.locator("#clock-resume button").click()
    RoundClock.objects.filter(round=big["round"]).update(
        deadline=timezone.now() + timedelta(seconds=3)
    )
    projector.reload()
    expect(clock).to_have_text("时间到", timeout=30_000)  # three seconds, on a busy machine
    expect(projector.locator(".p-side .round-clock")).to_have_attribute("data-state", "over")

    # The close page names the tables still playing (every table: nothing is reported).
    organiser.goto(f"{base}/manage/events/{event.pk}/rounds/1/closing/")
    expect(organiser.locator("#time-up")).to_contain_text("时间到")
    assert organiser.locator("#time-up a").count() == 32

    # One projector page per zone: A区 is tables 1-16.
    projector.goto(
        f"{base}/events/{event.pk}/rounds/1/projector/?zone="
        + str(RefereeZone.objects.get(event=event, name="A区").pk)
    )
    expect(projector.locator(".p-zone")).to_contain_text("A区")
    numbers = {int(n) for n in projector.locator(".p-table-no").all_inner_texts()}
    assert numbers and numbers <= set(range(1, 17))
    for context in (desk, hall, phone_context):
        context.close()


def _pdf_to_png(data: bytes, path: str) -> None:
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", "-singlefile", "-", path],
        input=data,
        check=True,
    )


@pytest.mark.skipif(not os.environ.get("SHOTS_DIR"), reason="SHOTS_DIR not set")
def test_screenshots_of_the_clock_and_the_projector(live_server, browser, big, signed_in):
    from django.test import Client

    from matches.draw import clock
    from matches.standings import service as standings

    folder = os.environ["SHOTS_DIR"]
    os.makedirs(folder, exist_ok=True)
    base, event, b = live_server.url, big["event"], big["b"]
    # Some results, standings, a running clock.
    for match in b.matches(big["round"])[:20]:
        b.final(match, 1, [1, 2, 3, 4, 5, 6], points=[1])
    b.settle(big["round"])
    standings.recompute_event(event.pk)
    clock.start(big["round"], 90, user=big["organiser"])
    zone = RefereeZone.objects.get(event=event, name="A区")
    public_pages = {
        "standings": f"/events/{event.pk}/standings/",
        "standings-page2": f"/events/{event.pk}/standings/?kind=unions&scope=event&page=2",
        "projector-round": f"/events/{event.pk}/rounds/1/projector/",
        "projector-zone": f"/events/{event.pk}/rounds/1/projector/?zone={zone.pk}",
        "projector-standings": f"/events/{event.pk}/standings/projector/",
        "table-phone": f"/ref/{big['link'].token}/",
    }
    manage_pages = {
        "round-clock": f"/manage/events/{event.pk}/rounds/1/#clock",
        "close": f"/manage/events/{event.pk}/rounds/1/closing/",
        "dashboard": f"/manage/events/{event.pk}/",
    }
    for locale, language in (("zh-CN", "zh-hans"), ("en-GB", "en")):
        sizes = [(390, 844), (1280, 900), (1920, 1080)]
        for width, height in sizes:
            context = browser.new_context(
                locale=locale, viewport={"width": width, "height": height}
            )
            page = context.new_page()
            for name, path in public_pages.items():
                if width == 1920 and not name.startswith("projector"):
                    continue
                page.goto(base + path)
                full = not name.startswith("projector")
                page.screenshot(path=f"{folder}/{name}-{language}-{width}.png", full_page=full)
            if width != 1920:
                signed_in(page, big["organiser"].username, next=manage_pages["dashboard"])
                for name, path in manage_pages.items():
                    page.goto(base + path)
                    page.screenshot(path=f"{folder}/{name}-{language}-{width}.png", full_page=True)
            if width == 390:  # the standings with every column shown (tapped)
                page.goto(base + public_pages["standings"])
                page.locator(".all-columns-label").click()
                page.screenshot(path=f"{folder}/standings-all-columns-{language}-390.png")
            context.close()
        # The clock at zero on the close page and the projector.
        RoundClock.objects.filter(round=big["round"]).update(
            deadline=timezone.now() - timedelta(seconds=1)
        )
        context = browser.new_context(locale=locale, viewport={"width": 1920, "height": 1080})
        page = context.new_page()
        page.goto(base + public_pages["projector-round"])
        page.screenshot(path=f"{folder}/projector-time-up-{language}-1920.png")
        signed_in(page, big["organiser"].username, next=manage_pages["close"])
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=f"{folder}/close-time-up-{language}-1280.png")
        context.close()
        clock.start(big["round"], 90)
    client = Client()
    client.force_login(big["organiser"])
    cards = client.get(f"/manage/events/{event.pk}/rounds/1/tables.pdf").content
    _pdf_to_png(cards, f"{folder}/table-card")
    poster = client.get(f"/manage/events/{event.pk}/poster.pdf").content
    _pdf_to_png(poster, f"{folder}/poster")
