"""The desk works through a stack of five photographed score sheets at 1280 px with the
keyboard only (issue 49 item 3), in zh-hans and in English: the five photos go up in one form,
the queue shows the two the reader refused (an earlier round's sheet, a photo with no sheet)
with their reasons, and sheet after sheet the focus starts where a person is needed (a box
the reader marked, or the table's number of a refused sheet), digits and Enter do the rest.
Each sheet's deal goes down the table phone's path: the event asks the captains to confirm,
so each waits for them. Screenshots in SHOTS_DIR when it is set."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from playwright.sync_api import expect

from matches.draw.sheet_printing import sheet_key
from matches.models import DealReport, StackSheet
from matches.paper import layout
from tests.browser.shots import photograph
from tests.sheets.photos import sheet_photo

pytestmark = pytest.mark.django_db(transaction=True)

ORDERS = {
    1: [3, 1, 5, 2, 6, 4],
    2: [2, 4, 6, 1, 3, 5],
    3: [6, 5, 4, 3, 2, 1],
    4: [1, 2, 3, 4, 5, 6],
    5: [5, 3, 1, 6, 4, 2],
}


@pytest.fixture
def stack(transactional_db, settings, tmp_path):
    from tests.builder import EventBuilder

    settings.MEDIA_ROOT = str(tmp_path / "media")
    b = EventBuilder(unions=10, deals=1).register()
    first = b.round([(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)])
    second = b.round([(0, 2), (1, 3), (4, 6), (5, 8), (7, 9)])
    return b, first, second


def written(key, order, blank_last=False) -> dict:
    values = {box.name: None for box in layout.boxes(key)}
    for place, seat in enumerate(order[:-1] if blank_last else order):
        values[f"1.finish.{place}"] = seat
    return values


def photos(b, first, second) -> list[dict]:
    """Tables 1-3 of round 2 (table 2's sixth place left blank on the paper), round 1's sheet
    of table 1 (meant for table 4) and a photo of the bare table (meant for table 5)."""
    files = []
    for table, seed in ((1, 101), (2, 102), (3, 103)):
        key = sheet_key(second, b.match(second, table).table, 6)
        files.append(sheet_photo(key, seed, values=written(key, ORDERS[table], table == 2))[0])
    key = sheet_key(first, b.match(first, 1).table, 6)
    files.append(sheet_photo(key, 104, values=written(key, ORDERS[4]))[0])
    bare = io.BytesIO()
    Image.new("RGB", (1500, 2000), (110, 95, 80)).save(bare, "JPEG")
    files.append(bare.getvalue())
    return [
        {"name": f"sheet-{n}.jpg", "mimeType": "image/jpeg", "buffer": data}
        for n, data in enumerate(files, 1)
    ]


def work(page, order: list[int], table: int | None) -> None:
    """One sheet from the keyboard, as a person reading the photo: the table's number where it
    is asked, the right digit in each box the focus lands on, Enter on anything else."""
    # The page's script has put the focus where a person is needed.
    # (A locator, not wait_for_function: the page's CSP forbids the eval that one polls with.)
    expect(page.locator(":focus")).to_have_count(1)
    if table is not None:
        expect(page.locator("#stack-table")).to_be_focused()
        page.keyboard.type(str(table))
        page.keyboard.press("Enter")
    for _step in range(30):
        active = page.evaluate(
            "(() => { const a = document.activeElement;"
            " return [a.id, a.name || '', a.hasAttribute('data-marked')]; })()"
        )
        ident, name, marked = active
        if ident == "stack-submit":
            page.keyboard.press("Enter")
            return
        if name.startswith("d1.finish."):
            page.keyboard.type(str(order[int(name.rsplit(".", 1)[1])]))
        elif marked:  # a stray mark read in a point or burn box: cleared, then accepted
            page.keyboard.press("Backspace")
            page.keyboard.press("Enter")
        else:
            page.keyboard.press("Enter")  # nothing left to check: Enter submits
            return
    raise AssertionError("the sheet was not submitted from the keyboard")


@pytest.mark.parametrize("locale, lang", [("zh-CN", "zh"), ("en-US", "en")])
def test_the_desk_works_through_a_stack_of_five_from_the_keyboard(
    live_server, browser, signed_in, stack, locale, lang
):
    b, first, second = stack
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    queue = f"/manage/events/{b.event.pk}/results/sheets/stack/?round={second.number}"
    signed_in(page, b.organiser.username, next=queue)
    page.set_input_files("#stack-files", files=photos(b, first, second))
    page.focus("#stack-files")
    page.keyboard.press("Tab")
    expect(page.locator("#stack-send")).to_be_focused()
    page.keyboard.press("Enter")
    # The queue: three read and placed, two refused with their reasons in words.
    rows = page.locator("#stack-queue tbody tr")
    expect(rows).to_have_count(5)
    expect(page.locator("#stack-queue [data-code='other_round']")).to_be_visible()
    expect(page.locator("#stack-queue [data-code='not_a_sheet']")).to_be_visible()
    assert [s.state for s in StackSheet.objects.order_by("id")] == [
        "read",
        "read",
        "read",
        "refused",
        "refused",
    ]
    photograph(page, f"queue-1280-{lang}")
    expect(page.locator("#stack-start")).to_be_focused()
    page.keyboard.press("Enter")

    for position, table in enumerate((1, 2, 3, 4, 5), 1):
        expect(page.locator("#stack-title")).to_contain_text(f"{position}/5")
        if position == 2:
            # The sixth place was left blank on the paper: marked for a person, and the focus
            # is on the first box marked (the reader may doubt another one too).
            expect(page.locator("input[name='d1.finish.5']")).to_have_attribute("data-marked", "")
            expect(page.locator(".stack-box input:focus")).to_have_attribute("data-marked", "")
            photograph(page, f"sheet-marked-1280-{lang}")
        if position == 4:
            expect(page.locator("#stack-refusal[data-code='other_round']")).to_be_visible()
            photograph(page, f"sheet-refused-1280-{lang}")
        if position == 5:
            # The table's number, then the arrow keys move along the row and back.
            expect(page.locator("#stack-table")).to_be_focused()
            page.keyboard.type("5")
            page.keyboard.press("Enter")
            first_box = page.locator("input[name='d1.finish.0']")
            expect(first_box).to_be_focused()
            page.keyboard.press("ArrowRight")
            expect(page.locator("input[name='d1.finish.1']")).to_be_focused()
            page.keyboard.press("ArrowLeft")
            expect(first_box).to_be_focused()
            work(page, ORDERS[table], None)
            continue
        work(page, ORDERS[table], table if position == 4 else None)
    expect(page.locator("#stack-empty")).to_be_visible()
    expect(page.locator(".messages")).to_contain_text("5")
    photograph(page, f"queue-done-1280-{lang}")
    assert [s.state for s in StackSheet.objects.order_by("id")] == ["done"] * 5
    # On a phone's width the photo comes above the boxes, nothing wider than the screen.
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#stack-queue a").nth(3).click()
    expect(page.locator("#stack-done")).to_be_visible()
    expect(page.locator("input[name='d1.finish.5']")).to_have_value(str(ORDERS[4][5]))
    overflow = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0
    photograph(page, f"sheet-done-390-{lang}")
    for table, order in ORDERS.items():
        report = DealReport.objects.get(deal__match=b.match(second, table))
        assert report.summary["finish"] == order, table
        assert report.state == "pending"  # the captains confirm on the table's phone
    context.close()
