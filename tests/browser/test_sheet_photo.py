"""A referee photographs the table's filled score sheet on a 390 px phone (the test sends a
generated photo of the project's own sheet), the form fills from it, the one box the reader
marked (a place left blank on the paper) is fixed with a tap and ticked, and both captains
confirm with their PINs. Screenshots at 390 and 1280 px, zh-hans and en, in
SHOTS_DIR when it is set."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from matches.models import DealReport, SheetPhoto
from matches.paper import layout
from matches.sheets import service as sheets
from tests.browser.shots import photograph
from tests.sheets.photos import sheet_photo

pytestmark = pytest.mark.django_db(transaction=True)

WRITTEN = [3, 1, 5, 2, 6]  # place 6 left blank: seat 4


@pytest.fixture
def setup(transactional_db, settings, tmp_path):
    from tests.personas import make_setup

    settings.MEDIA_ROOT = str(tmp_path / "media")
    return make_setup()


def test_a_photographed_sheet_fills_the_form_the_referee_fixes_the_marked_box(
    live_server, browser, phone_page, setup
):
    key = sheets.expected_key(setup.match)
    values = {box.name: None for box in layout.boxes(key)}
    for place, seat in enumerate(WRITTEN):
        values[f"1.finish.{place}"] = seat
    data, _ = sheet_photo(key, 11, values=values)

    page = phone_page
    url = f"{live_server.url}/ref/{setup.link.token}/"
    page.goto(url)
    expect(page.locator("#sheet-photo-title")).to_have_text("拍照录入")
    page.set_input_files(
        "#sheet-photo-file", files=[{"name": "sheet.jpg", "mimeType": "image/jpeg", "buffer": data}]
    )
    page.locator("#sheet-photo-send").click()
    expect(page.locator("#sheet-photo [data-state='read']")).to_be_visible()
    assert SheetPhoto.objects.get().state == "read"

    # The five written places are in the form; the blank sixth is the one box to check.
    expect(page.locator("#finish-order")).to_contain_text("5. 6号")
    marked = page.locator("#sheet-unsure .unsure-box")
    expect(marked).to_have_count(1)
    expect(marked).to_contain_text("第6名")
    expect(page.locator(".sheet-image").first).to_be_visible()
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    photograph(page, "phone-390-zh-read")

    # Submitting before the box is checked is refused, naming it; nothing is stored.
    page.evaluate("document.getElementById('deal-form').dataset.old = '1'")
    page.locator("#submit-deal").click()
    page.wait_for_selector("#deal-form:not([data-old])")
    expect(page.locator("[data-code='sheet_unchecked']").first).to_contain_text("第6名")
    assert DealReport.objects.count() == 0

    # The referee looks at the photo, taps seat 4 for sixth place and ticks the box.
    page.locator("button.tap[data-seat='4']").click()
    expect(page.locator("#finish-order")).to_contain_text("6. 4号")
    page.locator("#sheet-unsure input[name='sheet_checked']").check()
    expect(page.locator("#verdict-ok")).to_be_visible()
    photograph(page, "phone-390-zh-fixed")
    page.locator("#submit-deal").click()
    expect(page.locator("#open-report")).to_contain_text("等待确认")
    report = DealReport.objects.get()
    assert report.summary["finish"] == [3, 1, 5, 2, 6, 4]

    # Both captains confirm on the phone with their PINs, as for a typed result.
    form = page.locator("form.pin-form[data-side='A']")
    form.locator("input[name='pin']").fill(setup.union_a.captain_pin)
    form.get_by_role("button", name="确认无误").click()
    expect(page.locator("form.pin-form[data-side='A'] [data-agreed]")).to_be_visible()
    form = page.locator("form.pin-form[data-side='B']")
    form.locator("input[name='pin']").fill(setup.union_b.captain_pin)
    form.get_by_role("button", name="确认无误").click()
    expect(page.locator(".messages")).to_contain_text("成绩已生效")
    report.refresh_from_db()
    assert report.state == "final"

    # The same photo on the page of deal 2 (its row is blank) in English, phone and desk widths.
    for width, height, name in ((390, 844, "phone-390-en"), (1280, 900, "desk-1280-en")):
        context = browser.new_context(locale="en-US", viewport={"width": width, "height": height})
        other = context.new_page()
        other.set_default_timeout(10_000)
        other.goto(url)
        expect(other.locator("#sheet-photo-title")).to_have_text("Photograph the sheet")
        photograph(other, name)
        context.close()
