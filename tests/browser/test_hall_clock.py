"""The hall's clock and the big event's projector in Chromium (issue 26): the organiser starts
the round's clock on the round page; the projector (1920x1080) and the table's phone count it
down; paused it stands still; at zero the projector says so and the close page names the tables
still playing. The projector fits at least 30 rows at 1080p and pages per zone.

With SHOTS_DIR set, screenshots of every page this changed, at 390 and 1280 px in both
languages (the projector at 1920x1080 too), and the table card and poster PDFs as images.
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

from matches.models import RefereeLink, RefereeZone, RoundClock

pytestmark = pytest.mark.django_db(transaction=True)

OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


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
    time.sleep(2.2)
    assert seconds_shown(clock) <= first - 2  # counted down in the browser
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
    expect(clock).to_have_text("时间到", timeout=8_000)
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
def test_screenshots(live_server, browser, big, signed_in):
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
