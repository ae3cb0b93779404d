"""Players confirm each other (issue 47, finding 1), in Chromium at 390 px, in Chinese and
English: a deal "A wins" reported on the table's phone offers only union B's seats in its player
box, says why the others cannot confirm, refuses seat 1's own PIN at the box, and is final with
a B player's PIN."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from matches.models import DealReport, Event, RefereeLink, Registration

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("SHOTS_DIR", "")
WORDS = {
    "zh": {
        "why": "成绩对第 1-3-5 座有利",
        "refused": "请第 2-4-6 座的选手输入密码",
        "agree": "确认无误",
        "final": "成绩已生效",
    },
    "en": {
        "why": "The result favours seats 1-3-5",
        "refused": "one of seats 2-4-6",
        "agree": "Confirm",
        "final": "final",
    },
}


def shot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, name))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_box_offers_only_the_side_the_result_does_not_favour(live_server, browser, lang):
    from tests.builder import EventBuilder

    built = EventBuilder(
        players=6,
        deals=2,
        entry_type=Event.EntryType.INDIVIDUAL,
        confirmation=Event.Confirmation.PLAYER,
    ).register()
    table = built.draw().tables.get()
    link = RefereeLink.objects.create(table=table, label="phone")
    seats = {s.seat: s.player for s in table.seats.select_related("player")}
    words = WORDS[lang]
    context = browser.new_context(
        locale="zh-CN" if lang == "zh" else "en-US",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{live_server.url}/ref/{link.token}/")
    for seat in (1, 3, 5, 2, 4, 6):  # union A goes out first: "A wins"
        page.locator(f"button.tap[data-seat='{seat}']").click()
        expect(page.locator(f"button.tap[data-seat='{seat}'] .place")).to_be_visible()
    expect(page.locator("#verdict-ok")).to_be_visible()
    page.locator("#submit-deal").click()

    box = page.locator(".player-pin")
    expect(box).to_be_visible()
    report = DealReport.objects.get()
    assert report.score_a > report.score_b
    options = box.locator("select[name='seat'] option")
    expect(options).to_have_count(3)
    assert [options.nth(k).get_attribute("value") for k in range(3)] == ["2", "4", "6"]
    expect(box.locator(".why-not")).to_contain_text(words["why"])
    box.scroll_into_view_if_needed()
    shot(page, f"player-box-a-wins-390-{lang}.png")

    # Seat 1's own PIN is refused at the box, saying why: nothing final.
    page.evaluate(
        """(box) => { const select = box.querySelector("select[name='seat']");
        const seat1 = document.createElement("option"); seat1.value = "1"; seat1.text = "1";
        select.append(seat1); select.value = "1"; }""",
        box.element_handle(),
    )
    pin = Registration.objects.get(event=built.event, player=seats[1]).pin
    box.locator("input[name='pin']").fill(pin)
    box.get_by_role("button", name=words["agree"]).click()
    refused = page.locator(f"#player-pin-{report.pk} .pin-error")
    expect(refused).to_contain_text(words["refused"])
    report.refresh_from_db()
    assert report.state == DealReport.State.PENDING
    shot(page, f"player-box-refused-390-{lang}.png")

    # Seat 4 (union B) confirms: final, no organiser.
    box = page.locator(f"#player-pin-{report.pk}")
    box.locator("select[name='seat']").select_option("4")
    pin = Registration.objects.get(event=built.event, player=seats[4]).pin
    box.locator("input[name='pin']").fill(pin)
    box.get_by_role("button", name=words["agree"]).click()
    expect(page.locator(".player-pin")).to_have_count(0)
    report.refresh_from_db()
    assert report.state == DealReport.State.FINAL
    assert report.confirmations.get().player_id == seats[4].pk
    context.close()
