"""The score sheet's event strip through the pages: a photo whose strip says deal 1 had a
revolution (seat 2, 4th), a declaration (seat 5, 明点) and a suffocation (seat 4 by seat 3),
and whose deal 1 row has a burn 3 → 5 with its outcome box written 3 (被中断), fills the table
phone's form with them at 390 px; the event's rules have no hold-three, so
the engine's check says R27 at once, and the referee clears the suffocation. The desk's stack
shows the same lines, filled, at 1280 and 390 px. zh-hans and en; screenshots in SHOTS_DIR."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from matches.paper import layout
from matches.sheets import service as sheets
from tests.browser.shots import photograph
from tests.sheets.photos import sheet_photo

pytestmark = pytest.mark.django_db(transaction=True)

ORDER = [3, 1, 5, 2, 6, 4]
STRIP = {
    "r_units.0": 1,
    "r_seat.0": 2,
    "d_units.0": 1,
    "d_seat.0": 5,
    "d_kind.0": 1,
    "s_units.0": 1,
    "s_by.0": 3,
    "s_seat.0": 4,
}

#: deal 1's burn and its outcome box (GJS3: 3 被中断, "stopped")
BURN = {"1.burner.0": 3, "1.burned.0": 5, "1.outcome.0": 3}


@pytest.fixture
def setup(transactional_db, settings, tmp_path):
    from tests.personas import make_setup

    settings.MEDIA_ROOT = str(tmp_path / "media")
    return make_setup()


def photo(setup) -> bytes:
    key = sheets.expected_key(setup.match)
    values: dict[str, int | None] = {box.name: None for box in layout.every_box(key)}
    for place, seat in enumerate(ORDER):
        values[f"1.finish.{place}"] = seat
    values.update({f"0.{name}": digit for name, digit in STRIP.items()})
    values.update(BURN)
    return sheet_photo(key, 21, values=values)[0]


def upload(page, selector: str, data: bytes) -> None:
    page.set_input_files(
        selector, files=[{"name": "sheet.jpg", "mimeType": "image/jpeg", "buffer": data}]
    )


def test_the_strips_events_fill_the_phones_form_and_the_desks_lines(
    live_server, browser, phone_page, signed_in, setup
):
    data = photo(setup)
    page = phone_page
    url = f"{live_server.url}/ref/{setup.link.token}/"
    page.goto(url)
    upload(page, "#sheet-photo-file", data)
    page.locator("#sheet-photo-send").click()
    expect(page.locator("#sheet-photo [data-state='read']")).to_be_visible()

    # The form holds the strip's events for deal 1, and the engine's check answers at once.
    expect(page.locator("input[name='revolution_2']")).to_be_checked()
    expect(page.locator("#decl_5")).to_have_value("clear")
    expect(page.locator("select[name='suff_0_by']")).to_have_value("3")
    expect(page.locator("select[name='suff_0_seat']")).to_have_value("4")
    expect(page.locator("select[name='burn_0_burner']")).to_have_value("3")
    expect(page.locator("select[name='burn_0_outcome']")).to_have_value("stopped")
    expect(page.locator("[data-code='suffocation_without_hold_three']").first).to_be_visible()
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    photograph(page, "phone-390-zh-events")

    # No hold-three at this event: the referee clears the suffocation, the rest adds up.
    page.select_option("select[name='suff_0_by']", "")
    page.select_option("select[name='suff_0_seat']", "")
    expect(page.locator("[data-code='suffocation_without_hold_three']")).to_have_count(0)
    for box in page.locator("#sheet-unsure input[name='sheet_checked']").all():
        box.check()
    expect(page.locator("#verdict-ok")).to_be_visible()
    photograph(page, "phone-390-zh-events-fixed")

    for locale, lang, width, height in (
        ("en-US", "en", 390, 844),
        ("en-US", "en", 1280, 900),
        ("zh-CN", "zh", 1280, 900),
    ):
        context = browser.new_context(locale=locale, viewport={"width": width, "height": height})
        other = context.new_page()
        other.set_default_timeout(10_000)
        other.goto(url)
        expect(other.locator("input[name='revolution_2']")).to_be_checked()
        expect(other.locator("select[name='burn_0_outcome']")).to_have_value("stopped")
        photograph(other, f"phone-{width}-{lang}-events")
        context.close()

    # The desk's stack: the same photo, its strip's lines filled as read.
    for locale, lang in (("zh-CN", "zh"), ("en-US", "en")):
        context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
        desk = context.new_page()
        desk.set_default_timeout(30_000)
        queue = f"/manage/events/{setup.event.pk}/results/sheets/stack/?round=1"
        signed_in(desk, setup.organiser.username, next=queue)
        if lang == "zh":
            upload(desk, "#stack-files", data)
            desk.locator("#stack-send").click()
        desk.locator("#stack-queue a").first.click()
        expect(desk.locator("#stack-events")).to_be_visible()
        expect(desk.locator("input[name='d0.r_seat.0']")).to_have_value("2")
        expect(desk.locator("input[name='d0.s_by.0']")).to_have_value("3")
        expect(desk.locator("input[name='d0.d_kind.0']")).to_have_value("1")
        expect(desk.locator("input[name='d1.outcome.0']")).to_have_value("3")
        photograph(desk, f"stack-1280-{lang}-events")
        desk.set_viewport_size({"width": 390, "height": 844})
        overflow = desk.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
        photograph(desk, f"stack-390-{lang}-events")
        context.close()


@pytest.fixture
def giog_setup(transactional_db, settings, tmp_path):
    from tests.builder import EventBuilder

    settings.MEDIA_ROOT = str(tmp_path / "media")
    b = EventBuilder("giog", players=8).register()
    round_ = b.draw()
    match = round_.matches.select_related("table").order_by("table__number").first()
    return b, match, match.table.referee_links.create()


def test_a_giog_sheet_fills_the_hand_form_on_the_phone(
    live_server, browser, phone_page, giog_setup
):
    """A Giog table's sheet, hand 1 written 12, 8, 4, 8 (32 pieces) with seat 3 beheaded: the
    hand form holds the counts and the beheading, the engine's check agrees."""
    from matches.games.giog.sheet import SHEET
    from tests.sheets.photos import giog_photo

    b, match, link = giog_setup
    key = sheets.expected_key(match)
    values: dict[str, int | None] = {box.name: None for box in SHEET.boxes(key)}
    for seat, count in {1: 12, 2: 8, 3: 4, 4: 8}.items():
        values[f"1.won_tens.{seat - 1}"] = count // 10 or None
        values[f"1.won_units.{seat - 1}"] = count % 10
    values["1.beheaded.0"] = 3
    data = giog_photo(key, 8, values)[0]
    page = phone_page
    url = f"{live_server.url}/ref/{link.token}/"
    page.goto(url)
    upload(page, "#sheet-photo-file", data)
    page.locator("#sheet-photo-send").click()
    expect(page.locator("#sheet-photo [data-state='read']")).to_be_visible()
    expect(page.locator("#won_4")).not_to_have_value("")
    expect(page.locator("input[name='beheaded_3']")).to_be_checked()
    photograph(page, "giog-phone-390-zh")
    # A count read wrong makes the hand not add up: every count is marked, and the referee
    # types the right one from the photo, ticks the marked boxes, and the engine agrees.
    for seat, count in {1: 12, 2: 8, 3: 4, 4: 8}.items():
        if page.locator(f"#won_{seat}").input_value() != str(count):
            expect(page.locator("#sheet-unsure .unsure-box").first).to_be_visible()
            page.locator(f"#won_{seat}").fill(str(count))
    for box in page.locator("#sheet-unsure input[name='sheet_checked']").all():
        box.check()
    expect(page.locator("#verdict-ok")).to_be_visible()
    photograph(page, "giog-phone-390-zh-checked")
    for locale, lang, width in (("zh-CN", "zh", 1280), ("en-US", "en", 390), ("en-US", "en", 1280)):
        context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
        other = context.new_page()
        other.set_default_timeout(10_000)
        other.goto(url)
        expect(other.locator("#won_4")).not_to_have_value("")
        photograph(other, f"giog-phone-{width}-{lang}")
        context.close()
