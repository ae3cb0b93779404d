"""六副够级 end to end (issue 36): a `six-decks` event (joker groups on, R52/D33); the table's referee
uploads a whole play log (gouji-deal/1) on the phone in which seat 6 leads a big joker (a Gou Ji
hand, R52) and seat 3, its head rival, answers with a small and a big joker, a group of another
size that only R52's weights let beat it (3 > 2, D29/D30); the public deal viewer then names
both plays as joker groups with their weight, in Chinese and in English, at 390 and 1280 px, the
script drawing the same step as the server. At an eight-player table the pages say 串四户贡 and
seat side A on 1-2-3-4 (R44, R47). SHOTS_DIR=/some/dir photographs the pages there.
"""

from __future__ import annotations

import json
import os

import pytest
from playwright.sync_api import expect

from matches.games.gouji.engine.selfplay import selfplay
from matches.models import DealReport, Event
from tests.builder import EventBuilder, outcome

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("SHOTS_DIR", "")
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
#: the self-played six-pack deal (seed 2, the third) whose steps 12 and 13 are R, then BR on it
LEAD, ANSWER = 12, 13


def six_pack_log() -> dict:
    record = list(selfplay(3, 2, "six-decks"))[2]
    assert record["rules"] == "six-decks"
    assert record["actions"][LEAD - 1] == {"seat": 6, "cards": "R"}
    assert record["actions"][ANSWER - 1] == {"seat": 3, "cards": "BR"}
    return record


@pytest.fixture
def six_decks(transactional_db):
    b = EventBuilder(
        unions=2, deals=1, rules={"preset": "six-decks"}, confirmation=Event.Confirmation.NONE
    ).register()
    round_ = b.round([(0, 1)])
    match = b.match(round_, 1)
    return {
        "event": b.event,
        "match": match,
        "referee": f"/ref/{b.people.referee_link.token}/",
        "viewer": f"/events/{b.event.pk}/rounds/1/tables/1/deals/1/",
    }


def test_a_joker_group_from_a_six_pack_play_log_in_the_viewer(
    live_server, browser, phone_page, six_decks, tmp_path
):
    base = live_server.url
    record = six_pack_log()
    log_file = tmp_path / "deal-1.json"
    log_file.write_text(json.dumps(record), encoding="utf-8")

    # The referee's phone: the play log replaces the taps (the form says so) and is final at once.
    phone = phone_page
    phone.goto(base + six_decks["referee"])
    phone.locator("details summary", has_text="附牌谱").click()
    phone.set_input_files("#play_log_file", str(log_file))
    phone.locator("#submit-deal").click()
    expect(phone.locator(".messages")).to_contain_text("成绩已生效")
    report = DealReport.objects.get(deal__match=six_decks["match"])
    assert report.state == "final" and report.play_log["actions"] == record["actions"]
    assert report.summary["finish"] == record["claimed"]["finish"]

    words = {
        "zh-hans": (
            "zh-CN",
            "出王组（重 2）",
            "出王组（重 3）",
            "出够级牌",
            "小王",
            "大王",
            "王组（只有王的一手，R52）按重量比大小",
        ),
        "en": (
            "en-GB",
            "plays a joker group (weight 2)",
            "plays a joker group (weight 3)",
            "plays a Gou Ji hand",
            "SJ",
            "BJ",
            "Joker groups (a hand of jokers only, R52) beat each other by weight",
        ),
    }
    for language, (locale, lead, answer, gouji, small, big, legend) in words.items():
        for width in (390, 1280):
            context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
            page = context.new_page()
            page.set_default_timeout(30_000)
            page.goto(f"{base}{six_decks['viewer']}?step={LEAD}")
            action = page.locator("#step-action")
            expect(action).to_contain_text(lead)
            expect(action.locator(".chips .c.joker-big")).to_have_text(big)
            expect(page.locator("#step-events")).to_contain_text(gouji)
            expect(page.locator("main")).to_contain_text(legend)
            # The script steps to the answer: a small and a big joker beat the single big joker.
            page.keyboard.press("ArrowRight")
            expect(page.locator("#viewer-pos")).to_contain_text(str(ANSWER))
            expect(action).to_contain_text(answer)
            expect(action.locator(".chips .c.joker-small")).to_have_text(small)
            expect(action.locator(".chips .c.joker-big")).to_have_text(big)
            drawn = page.locator("#viewer-step").inner_text()
            page.goto(f"{base}{six_decks['viewer']}?step={ANSWER}")
            assert page.locator("#viewer-step").inner_text() == drawn
            # A plain hand is not called a group.
            page.goto(f"{base}{six_decks['viewer']}?step={ANSWER + 2}")
            expect(action).not_to_contain_text(answer.split("（")[0].split(" (")[0])
            page.goto(f"{base}{six_decks['viewer']}?step={ANSWER}")
            assert page.evaluate(OVERFLOW) <= 0, (language, width)
            if SHOTS:
                os.makedirs(SHOTS, exist_ok=True)
                page.screenshot(
                    path=f"{SHOTS}/viewer-joker-group-{language}-{width}.png", full_page=True
                )
            context.close()


@pytest.fixture
def eight_seats(transactional_db):
    """An eight-player event whose deal 1 union A strung four; deal 2 reported, not confirmed."""
    b = EventBuilder(
        unions=2,
        deals=2,
        rules={"preset": "eight-players"},
        confirmation=Event.Confirmation.CAPTAIN,
    ).register()
    round_ = b.round([(0, 1)])
    match = b.match(round_, 1)
    b.final(match, 1, [1, 2, 3, 4, 5, 6, 7, 8])
    pending = b.report(match, 2, outcome([5, 1, 6, 2, 7, 3, 8, 4]))
    return {
        "table": f"/events/{b.event.pk}/rounds/1/tables/1/",
        "projector": f"/events/{b.event.pk}/rounds/1/projector/",
        "report": f"/referee/reports/{pending.pk}/",
        "captain": b.people.captain_b.username,
    }


def test_eight_seat_words_on_the_pages(live_server, browser, eight_seats, signed_in):
    """串四户贡 before deal 2 (R47/R49), side A on 1-2-3-4 on the wall and on the captain's
    report page (R44), in both languages; nothing wider than a phone."""
    base = live_server.url
    words = {"zh-hans": ("zh-CN", "串四户贡"), "en": ("en-GB", "String-of-four tribute")}
    for language, (locale, tribute) in words.items():
        for width in (390, 1280):
            context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
            page = context.new_page()
            page.set_default_timeout(30_000)
            page.goto(base + eight_seats["table"])
            owed = page.locator("#deal-2 details.deal-tributes")
            owed.locator("summary").click()
            expect(owed).to_contain_text(tribute)
            expect(owed.locator("li")).to_have_count(4)  # R49: four head-rival pairs
            assert page.evaluate(OVERFLOW) <= 0
            if SHOTS:
                os.makedirs(SHOTS, exist_ok=True)
                page.screenshot(path=f"{SHOTS}/table-eight-{language}-{width}.png", full_page=True)
            page.goto(base + eight_seats["projector"])
            expect(page.locator("table.p-table")).to_contain_text("1-2-3-4")
            expect(page.locator("table.p-table")).to_contain_text("5-6-7-8")
            expect(page.locator("table.p-table")).not_to_contain_text("1-3-5")
            if SHOTS:
                page.screenshot(path=f"{SHOTS}/projector-eight-{language}-{width}.png")
            signed_in(page, eight_seats["captain"], next=eight_seats["report"])
            expect(page.locator("#report-sides")).to_contain_text("A：1-2-3-4")
            expect(page.locator("#report-sides")).to_contain_text("B：5-6-7-8")
            assert page.evaluate(OVERFLOW) <= 0
            if SHOTS:
                page.screenshot(path=f"{SHOTS}/report-eight-{language}-{width}.png", full_page=True)
            context.close()
