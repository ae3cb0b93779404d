"""The table's phone loses its connection (issue 16): what was tapped survives a reload, and a
submission made offline is kept on the phone and arrives exactly once when the network is back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from matches.models import DealReport

from .test_table_confirmation import shot, table_setup  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_taps_survive_a_reload_and_an_offline_submission_arrives_once(
    live_server, phone_page, table_setup
):  # noqa: F811
    page = phone_page
    url = f"{live_server.url}/ref/{table_setup['link'].token}/"
    page.goto(url)
    expect(page.locator("#deal-state")).to_have_text("录入中")
    for seat in (1, 2, 3):
        page.locator(f"button.tap[data-seat='{seat}']").click()
        expect(page.locator(f"button.tap[data-seat='{seat}'] .place")).to_be_visible()
    page.reload()  # the taps come back from the phone's storage
    expect(page.locator("button.tap[data-seat='3'] .place")).to_be_visible()
    for seat in (4, 5, 6):
        page.locator(f"button.tap[data-seat='{seat}']").click()
        expect(page.locator(f"button.tap[data-seat='{seat}'] .place")).to_be_visible()
    page.locator("input[name='point_3']").check()
    expect(page.locator("#verdict-ok")).to_contain_text("A +2")
    # The verdict sits next to the seat buttons, above the rest of the form.
    above = (
        "document.getElementById('verdict').getBoundingClientRect().top < "
        "document.querySelector(\"input[name='point_3']\").getBoundingClientRect().top"
    )
    page.wait_for_function(above)

    page.context.set_offline(True)
    page.locator("#submit-deal").click()
    expect(page.locator("#deal-state")).to_have_attribute("data-state", "queued")
    assert DealReport.objects.count() == 0
    page.wait_for_timeout(1500)
    page.context.set_offline(False)
    expect(page.locator("#open-report")).to_contain_text("等待确认", timeout=30_000)
    assert DealReport.objects.count() == 1
    # The queue is empty: nothing is sent again, even after another reload and a few seconds.
    page.reload()
    page.wait_for_timeout(6000)
    assert DealReport.objects.count() == 1
    assert (
        page.evaluate("JSON.parse(localStorage.getItem('gouji-table-queue') || '[]').length") == 0
    )


@pytest.fixture
def giog_table(transactional_db):
    """A Giog table of three whose hands a second referee confirms, three hands a round."""
    from tests.builder import EventBuilder

    builder = EventBuilder("giog", players=7, deals=3, confirmation="referee").register()
    matches = builder.draw(seed=5).matches.select_related("table")
    match = next(m for m in matches if m.table.seats.count() == 3)
    return match, builder.people.for_table(match.table).referee_link


def fill_hand(page, won):
    for seat, count in enumerate(won, start=1):
        page.fill(f"#won_{seat}", str(count))


def test_several_hands_queued_offline_go_in_one_batch(live_server, phone_page, giog_table):
    """Issue 28: offline, the form moves on to the next hand after each queued one; back online,
    every queued hand goes in one request, each stored once with its own key; a refused hand
    is said on the page."""
    match, link = giog_table
    page = phone_page
    batches = []
    page.on(
        "request",
        lambda request: batches.append(request) if request.url.endswith("/deals/batch") else None,
    )
    page.goto(f"{live_server.url}/ref/{link.token}/")
    expect(page.locator("#hand-title")).to_contain_text("第1手")

    page.context.set_offline(True)
    fill_hand(page, (15, 9, 6))
    page.locator("#submit-hand").click()
    expect(page.locator("#deal-state")).to_have_attribute("data-state", "queued")
    # The form moved on to hand 2, blank, with a key of its own.
    expect(page.locator("#hand-title")).to_contain_text("第2手")
    expect(page.locator("#won_1")).to_have_value("")
    fill_hand(page, (21, 6, 3))
    page.locator("#submit-hand").click()
    expect(page.locator("#hand-title")).to_contain_text("第3手")
    fill_hand(page, (3, 3, 3))  # 9 pieces: not a whole hand (G10), refused by the server
    page.locator("#submit-hand").click()
    queued = "JSON.parse(localStorage.getItem('gouji-table-queue') || '[]')"
    assert page.evaluate(f"{queued}.map(q => q.number)") == [1, 2, 3]
    assert len(set(page.evaluate(f"{queued}.map(q => q.key)"))) == 3
    assert DealReport.objects.count() == 0

    page.context.set_offline(False)
    expect(page.locator(".queue-refused li[data-deal='3']")).to_be_visible(timeout=30_000)
    expect(page.locator(".queue-refused")).to_contain_text("第3手")
    assert len(batches) == 1
    reports = DealReport.objects.filter(deal__match=match).order_by("deal__number")
    assert [(r.deal.number, r.state) for r in reports] == [(1, "pending"), (2, "pending")]
    # Both hands await the second referee; the form is hand 3's, to enter again.
    expect(page.locator(".awaiting-report")).to_have_count(2)
    expect(page.locator("#hand-title")).to_contain_text("第3手")
    assert page.evaluate(f"{queued}.length") == 0
    page.reload()
    page.wait_for_timeout(6000)  # the queue is empty: nothing is sent again
    assert len(batches) == 1 and DealReport.objects.count() == 2
    expect(page.locator(".queue-refused")).to_have_count(0)  # said once


def tap_deal(page, finish, point=None):
    for place, seat in enumerate(finish, start=1):
        page.locator(f"button.tap[data-seat='{seat}']").click()
        expect(page.locator(f"button.tap[data-seat='{seat}'] .place")).to_have_text(f"第{place}名")
    if point:
        page.locator(f"input[name='point_{point}']").check()


def test_gouji_deals_tapped_offline_go_in_one_batch(live_server, phone_page, table_setup):  # noqa: F811
    """Issue 28, Gou Ji: the seat taps are drawn on the phone, so offline the referee queues
    deal 1, gets deal 2's form blank (no taps, the right number, a key of its own), taps it in,
    and deal 3's; back online the three deals go in one request, each stored once; a refused
    deal is said on the page and is the form to enter again."""
    page = phone_page
    match = table_setup["match"]
    batches = []
    page.on(
        "request",
        lambda request: batches.append(request) if request.url.endswith("/deals/batch") else None,
    )
    page.goto(f"{live_server.url}/ref/{table_setup['link'].token}/")
    expect(page.locator("#deal-title")).to_contain_text("第1局")
    page.context.set_offline(True)

    tap_deal(page, (1, 2, 3, 4, 5, 6), point=3)
    expect(page.locator("#finish-order")).to_contain_text("1. 1号")
    # Undo and re-tap, all on the phone.
    page.locator("button[name='tap'][value='undo']").click()
    expect(page.locator("button.tap[data-seat='6'] .place")).to_have_count(0)
    expect(page.locator("input[name='finish']")).to_have_value("1,2,3,4,5")
    page.locator("button.tap[data-seat='6']").click()
    expect(page.locator("input[name='finish']")).to_have_value("1,2,3,4,5,6")
    first_key = page.locator("input[name='idempotency_key']").input_value()
    page.locator("#submit-deal").click()
    expect(page.locator("#deal-state")).to_have_attribute("data-state", "queued")

    # Deal 2: blank taps, the order line says nothing is chosen, a key of its own.
    expect(page.locator("#deal-title")).to_contain_text("第2局")
    expect(page.locator("button.tap.tapped")).to_have_count(0)
    expect(page.locator("button.tap .place")).to_have_count(0)
    expect(page.locator("#finish-order")).to_have_text("尚未点选")
    expect(page.locator("input[name='finish']")).to_have_value("")
    expect(page.locator("input[name='point_3']")).not_to_be_checked()
    expect(page.locator("#tributes-owed")).to_contain_text("尚未算出")
    assert page.locator("input[name='idempotency_key']").input_value() != first_key
    tap_deal(page, (2, 1, 4, 3, 6, 5))
    expect(page.locator("#finish-order")).to_contain_text("1. 2号")
    page.locator("#submit-deal").click()

    # Deal 3: a burn with no burned seat, added offline: the server refuses it (R21).
    expect(page.locator("#deal-title")).to_contain_text("第3局")
    expect(page.locator("button.tap.tapped")).to_have_count(0)
    tap_deal(page, (3, 4, 5, 6, 1, 2))
    page.locator("button[name='add'][value='burn']").click()
    expect(page.locator("[data-row='burn']")).to_have_count(2)
    page.locator("select[name='burn_1_burner']").select_option("1")
    page.locator("#submit-deal").click()
    expect(page.locator("#deal-title")).to_contain_text("第4局")
    expect(page.locator("[data-row='burn']")).to_have_count(1)  # the added row went
    expect(page.locator("button.tap.tapped")).to_have_count(0)
    shot(page, "offline-gouji-deal4-390-zh.png")

    queued = "JSON.parse(localStorage.getItem('gouji-table-queue') || '[]')"
    assert page.evaluate(f"{queued}.map(q => q.number)") == [1, 2, 3]
    assert len(set(page.evaluate(f"{queued}.map(q => q.key)"))) == 3
    assert DealReport.objects.count() == 0

    page.context.set_offline(False)
    expect(page.locator(".queue-refused li[data-deal='3']")).to_be_visible(timeout=30_000)
    assert len(batches) == 1
    reports = DealReport.objects.filter(deal__match=match).order_by("deal__number")
    assert [(r.deal.number, r.state, r.summary["finish"]) for r in reports] == [
        (1, "pending", [1, 2, 3, 4, 5, 6]),
        (2, "pending", [2, 1, 4, 3, 6, 5]),
    ]
    assert reports[0].summary["points"] == [3]
    # Both deals await the captains on the page; the form is deal 3's, with what was tapped
    # (kept on the phone), to mend and send again.
    expect(page.locator(".awaiting-report")).to_have_count(2)
    expect(page.locator(".awaiting-report[data-deal='2']")).to_contain_text("2号")
    expect(page.locator("#deal-title")).to_contain_text("第3局")
    expect(page.locator("input[name='finish']")).to_have_value("3,4,5,6,1,2")
    expect(page.locator("button.tap[data-seat='3'] .place")).to_have_text("第1名")
    expect(page.locator("select[name='burn_1_burner']")).to_have_value("1")
    assert page.evaluate(f"{queued}.length") == 0
    page.reload()
    page.wait_for_timeout(6000)  # the queue is empty: nothing is sent again
    assert len(batches) == 1 and DealReport.objects.count() == 2
