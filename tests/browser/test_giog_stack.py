"""The desk works through a stack of Giog sheets at 1280 px from the keyboard, in zh-hans and in
English: three photographed sheets of a round's tables and a photo of the bare table go up in
one form; sheet after sheet the focus starts on a box the reader marked, the right digit or
Enter moves to the next box needing a person and finally submits. The second sheet's first
hand was written 12, 8, 8, 8 (36 pieces where 32 are in play): its count boxes are marked and
G10 is named before anything is sent; the desk fixes seat 1's count (8) from the photo. The
bare photo's table is typed first, then its boxes (the table's four seats). Each hand goes in
as the typed hand form sends it. Apart, the desk mistypes a count of a read hand: G10 comes
under the hand as it types and goes once it is typed right, then the sheet goes in. Screenshots
in SHOTS_DIR when it is set."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from PIL import Image
from playwright.sync_api import expect

from matches.models import DealReport, StackSheet
from matches.sheets import service as sheets
from matches.sheets import stack as stack_service
from tests.browser.shots import photograph
from tests.sheets.photos import giog_photo, giog_values

pytestmark = pytest.mark.django_db(transaction=True)

#: the second table's first hand as written: 36 pieces (G10); seat 1 won 8
WRITTEN_WRONG = {1: 12, 2: 8, 3: 8, 4: 8}
#: the bare photo's table, typed by hand from the referee's note
BY_HAND = {1: [16, 4, 8, 4], 2: [8, 12, 0, 12]}


@pytest.fixture
def stack(transactional_db, settings, tmp_path):
    from tests.builder import EventBuilder

    settings.MEDIA_ROOT = str(tmp_path / "media")
    b = EventBuilder("giog", players=16, deals=2).register()
    round_ = b.draw()
    matches = list(round_.matches.played().select_related("table").order_by("table__number"))
    assert [m.table.seats.count() for m in matches] == [4, 4, 4, 4]
    return b, round_, matches


def small(data: bytes) -> bytes:
    """The photo at 1200 px wide, the least the reader asks for: a quicker upload and read."""
    image = Image.open(io.BytesIO(data))
    width = min(image.width, 1200)
    out = io.BytesIO()
    image.resize((width, image.height * width // image.width)).save(out, "JPEG", quality=85)
    return out.getvalue()


def sheets_of(matches) -> tuple[list[dict], dict[int, dict]]:
    """The four files (tables 1-3 photographed, the bare table for table 4) and, per table,
    what the desk must end with in each box ("1.won_units.0" -> "8" or "")."""
    files, truth = [], {}
    for table, match in enumerate(matches[:3], 1):
        key = sheets.expected_key(match)
        values = giog_values(key, 40 + table)
        if table == 2:
            for seat, count in WRITTEN_WRONG.items():
                values[f"1.won_tens.{seat - 1}"] = count // 10 or None
                values[f"1.won_units.{seat - 1}"] = count % 10
        files.append(small(giog_photo(key, 50 + table, values)[0]))
        if table == 2:
            values["1.won_tens.0"], values["1.won_units.0"] = None, 8  # the fix
        truth[table] = {name: "" if v is None else str(v) for name, v in values.items()}
    bare = io.BytesIO()
    Image.new("RGB", (1200, 1600), (110, 95, 80)).save(bare, "JPEG")
    files.append(bare.getvalue())
    return [
        {"name": f"giog-{n}.jpg", "mimeType": "image/jpeg", "buffer": data}
        for n, data in enumerate(files, 1)
    ], truth


def focused(page) -> dict:
    return page.evaluate(
        "(() => { const a = document.activeElement;"
        " const open = Array.from(document.querySelectorAll('input[data-marked]')).filter("
        "   (b) => b !== a && !b.parentElement.querySelector('.stack-check').checked).length;"
        " return {id: a.id, name: a.name || '', value: a.value || '', open: open}; })()"
    )


def work(page, truth: dict) -> None:
    """One read sheet from the keyboard, as a person comparing it with the photo: each box the
    focus lands on gets its right digit (or is cleared), Enter accepts it and goes on; Enter
    with nothing left to check submits."""
    expect(page.locator(".stack-box input:focus, #stack-submit:focus")).to_have_count(1)
    for _step in range(40):
        active = focused(page)
        if active["id"] == "stack-submit":
            page.keyboard.press("Enter")
            return
        want = truth[active["name"][1:]]  # "d1.won_units.0" -> "1.won_units.0"
        if active["value"] == want or not want:
            if active["value"] != want:
                page.keyboard.press("Backspace")  # a stray mark: cleared
            page.keyboard.press("Enter")
            if not active["open"]:
                return  # nothing was left to check: Enter submitted
        else:
            page.keyboard.type(want)  # overwrites, and moves on to the next marked box
    raise AssertionError("the sheet was not submitted from the keyboard")


def type_by_hand(page, counts: dict[int, list[int]]) -> None:
    """A sheet with no reading: every box typed, a blank tens skipped with the arrow key."""
    for number, won in counts.items():
        for seat, count in enumerate(won):
            box = page.locator(f"input[name='d{number}.won_tens.{seat}']")
            expect(box).to_be_focused()
            if count >= 10:
                page.keyboard.type(str(count // 10))
            else:
                page.keyboard.press("ArrowRight")
            page.keyboard.type(str(count % 10))
        page.keyboard.press("ArrowRight")  # the beheaded boxes left blank
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")  # nothing marked: Enter submits


def shoot(page, name: str) -> None:
    """A screenshot once the sheet's photo has loaded (the queue has none)."""
    image = page.locator(".stack-image")
    if image.count():
        expect(image).to_have_js_property("complete", True)
    photograph(page, name)


def no_overflow(page) -> None:
    width = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    assert page.evaluate(width) <= 0


@pytest.mark.parametrize("locale, lang", [("zh-CN", "zh"), ("en-US", "en")])
def test_the_desk_works_through_a_stack_of_giog_sheets(
    live_server, browser, signed_in, stack, locale, lang
):
    b, round_, matches = stack
    files, truth = sheets_of(matches)
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    # From the desk's sheet photos (a line per table, no unions at a Giog table) to the stack.
    desk = f"/manage/events/{b.event.pk}/results/sheets/?round={round_.number}"
    signed_in(page, b.organiser.username, next=desk)
    expect(page.locator("#desk-table-1 h2")).not_to_contain_text("None")
    photograph(page, f"giog-desk-1280-{lang}")
    page.locator("#desk-stack").click()
    page.set_input_files("#stack-files", files=files)
    page.locator("#stack-send").click()
    expect(page.locator("#stack-queue tbody tr")).to_have_count(4)
    expect(page.locator("#stack-queue [data-code='not_a_sheet']")).to_be_visible()
    states = [(s.state, s.match_id) for s in StackSheet.objects.order_by("id")]
    assert states == [("read", m.pk) for m in matches[:3]] + [("refused", None)]
    photograph(page, f"giog-queue-1280-{lang}")
    expect(page.locator("#stack-start")).to_be_focused()
    page.keyboard.press("Enter")

    for table in (1, 2, 3):
        expect(page.locator("#stack-title")).to_contain_text(f"{table}/4")
        if table == 2:
            # Hand 1 does not add up: its count boxes marked, G10 named, the focus on the
            # first box marked.
            hand = page.locator("fieldset.stack-row[data-deal='1']")
            expect(hand.locator(".doubt[data-rule='G10']")).to_be_visible()
            for seat in range(4):
                box = hand.locator(f"input[name='d1.won_units.{seat}']")
                expect(box).to_have_attribute("data-marked", "")
            expect(page.locator(".stack-box input:focus")).to_have_attribute("data-marked", "")
            shoot(page, f"giog-sheet-g10-1280-{lang}")
            page.set_viewport_size({"width": 390, "height": 844})
            no_overflow(page)
            shoot(page, f"giog-sheet-g10-390-{lang}")
            page.set_viewport_size({"width": 1280, "height": 900})
        work(page, truth[table])
    # The bare photo: the table's number first, then its four seats' boxes.
    expect(page.locator("#stack-title")).to_contain_text("4/4")
    expect(page.locator("#stack-table")).to_be_focused()
    expect(page.locator("input[name='d1.won_units.0']")).to_have_count(0)
    shoot(page, f"giog-sheet-refused-1280-{lang}")
    page.keyboard.type(str(matches[3].table.number))
    page.keyboard.press("Enter")
    expect(page.locator("input[name='d1.won_units.3']")).to_be_visible()
    expect(page.locator("input[name='d1.won_units.4']")).to_have_count(0)
    shoot(page, f"giog-sheet-table-named-1280-{lang}")
    page.set_viewport_size({"width": 390, "height": 844})
    no_overflow(page)
    shoot(page, f"giog-sheet-table-named-390-{lang}")
    page.set_viewport_size({"width": 1280, "height": 900})
    type_by_hand(page, BY_HAND)
    expect(page.locator("#stack-empty")).to_be_visible()
    photograph(page, f"giog-queue-done-1280-{lang}")
    assert [s.state for s in StackSheet.objects.order_by("id")] == ["done"] * 4

    for table, match in enumerate(matches[:3], 1):
        for number in (1, 2):
            boxes = truth[table]
            want = {
                str(seat): int(boxes[f"{number}.won_tens.{seat - 1}"] or 0) * 10
                + int(boxes[f"{number}.won_units.{seat - 1}"])
                for seat in range(1, 5)
            }
            report = DealReport.objects.get(deal__match=match, deal__number=number)
            assert report.summary["won"] == want, (table, number)
            beheaded = [boxes[f"{number}.beheaded.{k}"] for k in range(2)]
            assert report.summary["beheaded"] == [int(s) for s in beheaded if s]
            assert report.state == "final"
    for number, won in BY_HAND.items():
        report = DealReport.objects.get(deal__match=matches[3], deal__number=number)
        assert report.summary["won"] == {str(s): c for s, c in enumerate(won, 1)}
    # A done sheet at a phone's width: the photo above the boxes, nothing wider than the screen.
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#stack-queue a").nth(1).click()
    expect(page.locator("#stack-done")).to_be_visible()
    expect(page.locator("input[name='d1.won_units.0']")).to_have_value("8")
    no_overflow(page)
    shoot(page, f"giog-sheet-done-390-{lang}")
    page.goto(f"{live_server.url}{desk}")
    expect(page.locator("#desk-table-4")).to_be_visible()
    no_overflow(page)
    photograph(page, f"giog-desk-390-{lang}")
    page.go_back()
    page.set_viewport_size({"width": 1280, "height": 900})
    shoot(page, f"giog-sheet-done-1280-{lang}")
    context.close()


def boxes_of(page) -> dict[str, str]:
    return page.evaluate(
        "Object.fromEntries(Array.from(document.querySelectorAll('.stack-box input[name]'))"
        ".map((b) => [b.name, b.value]))"
    )


@pytest.mark.parametrize(
    "locale, lang, said",
    [("zh-CN", "zh", "各家赢子之和是 28"), ("en-US", "en", "The pieces won add up to 28")],
)
def test_the_desk_is_told_g10_while_it_types_a_hand(
    live_server, browser, signed_in, stack, locale, lang, said
):
    """The desk mistypes a count of hand 1 (4 where the paper says 8: 28 pieces, 32 in play):
    G10's sentence comes under the hand without a submit, the typed boxes and the focus stay;
    typed right again, it goes; the sheet is then submitted and accepted."""
    b, round_, matches = stack
    key = sheets.expected_key(matches[0])
    values = giog_values(key, 61)
    for seat in range(4):  # hand 1 as written: 8 pieces each
        values[f"1.won_tens.{seat}"], values[f"1.won_units.{seat}"] = None, 8
    photo = small(giog_photo(key, 62, values)[0])
    sheet = stack_service.accept(round_, photo, "giog-1.jpg", b.organiser)
    sheet.refresh_from_db()
    assert sheet.state == "read", sheet.message
    truth = {name: "" if v is None else str(v) for name, v in values.items()}
    context = browser.new_context(locale=locale, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    signed_in(page, b.organiser.username, next=page_of(b, sheet))
    rules = page.locator("#stack-rules-1")
    # Hand 1 as the paper has it (whatever was read): nothing to say under it.
    for seat in range(4):
        for part in ("tens", "units"):
            name = f"1.won_{part}.{seat}"
            page.locator(f"input[name='d{name}']").fill(truth[name])
    expect(rules.locator(".problem")).to_have_count(0)

    seat_one = page.locator("input[name='d1.won_units.0']")
    seat_one.click()
    before = boxes_of(page)
    page.keyboard.type("4")
    expect(rules.locator(".problem[data-rule='G10']")).to_contain_text(said)
    # Only the line was swapped: every box keeps what was typed, the focus stays in the boxes.
    assert boxes_of(page) == {**before, "d1.won_units.0": "4"}
    expect(page.locator(".stack-box input:focus")).to_have_count(1)
    expect(page.locator("#stack-submit")).to_be_visible()  # nothing was submitted
    shoot(page, f"giog-sheet-live-g10-1280-{lang}")
    page.set_viewport_size({"width": 390, "height": 844})
    no_overflow(page)
    rules.scroll_into_view_if_needed()
    shoot(page, f"giog-sheet-live-g10-390-{lang}")
    page.set_viewport_size({"width": 1280, "height": 900})

    seat_one.click()
    page.keyboard.type("8")
    expect(rules.locator(".problem")).to_have_count(0)
    expect(rules).to_be_attached()  # the line stays, to be said again
    expect(seat_one).to_have_value("8")
    work(page, truth)
    expect(page.locator("#stack-empty")).to_be_visible()
    sheet.refresh_from_db()
    assert sheet.state == "done"
    report = DealReport.objects.get(deal__match=matches[0], deal__number=1)
    assert report.summary["won"] == {"1": 8, "2": 8, "3": 8, "4": 8}
    context.close()


def page_of(b, sheet) -> str:
    return reverse("manage:results-stack-sheet", args=[b.event.pk, sheet.pk])
