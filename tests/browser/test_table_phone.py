"""The table phone during a normal deal, in Chromium at 390 and 1280 px and in both languages:
an order still being tapped is progress, not a refusal; the result stays in view above the
captains' PIN boxes; the pinned announcement covers nothing."""

from __future__ import annotations

import os

import pytest
from playwright.sync_api import expect

from matches.models import DealReport

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("SHOTS_DIR", "")
SIZES = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 900}}
WORDS = {
    "zh": {
        "left": "还需点 {n} 个座位",
        "left_1": "还需点 1 个座位",
        "refused": "与规则不符",
        "agree": "确认无误",
    },
    "en": {
        "left": "{n} more seats to tap",
        "left_1": "1 more seat to tap",
        "refused": "Breaks the rules",
        "agree": "Confirm",
    },
}


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def no_live_push(settings):
    """No push thread reading SQLite's shared test database (a stream left open by one test
    locked a table the next one set up): the pages poll, as with /live/ cut."""
    settings.LIVE_ENABLED = False


def context_for(browser, size: str, lang: str):
    phone = size == "390"
    context = browser.new_context(
        locale="zh-CN" if lang == "zh" else "en-US",
        viewport=SIZES[size],
        is_mobile=phone,
        has_touch=phone,
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    return page


def shot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, name))


def left(words, n: int) -> str:
    return words["left_1"] if n == 1 else words["left"].format(n=n)


def tap(page, seat: int) -> None:
    page.locator(f"button.tap[data-seat='{seat}']").click()
    expect(page.locator(f"button.tap[data-seat='{seat}'] .place")).to_be_visible()


def no_refusal(page, words) -> None:
    """The verdict holds no refusal: no red problem list, no "breaks the rules"."""
    expect(page.locator("#verdict .problems")).to_have_count(0)
    expect(page.locator("#verdict")).not_to_contain_text(words["refused"])


def red(page, selector: str) -> bool:
    """The element's text is drawn in the page's red (the colour of a refusal)."""
    return page.evaluate(
        """(sel) => { const c = getComputedStyle(document.querySelector(sel)).color;
        const [r, g, b] = c.match(/\\d+/g).map(Number); return r > 150 && g < 100 && b < 100; }""",
        selector,
    )


# --- an incomplete finishing order is progress --------------------------------------------------


@pytest.mark.parametrize("size", ["390", "1280"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_tapping_the_order_shows_progress_and_real_refusals_stay_red(
    live_server, browser, size, lang
):
    from tests.personas import make_setup

    setup = make_setup()
    words = WORDS[lang]
    page = context_for(browser, size, lang)
    page.goto(f"{live_server.url}/ref/{setup.link.token}/")
    # Each tap re-checks the verdict: the seats still to tap, in a neutral line.
    for done, seat in enumerate((1, 2, 3, 4, 5), 1):
        tap(page, seat)
        progress = page.locator("#verdict .progress")
        expect(progress).to_have_text(left(words, 6 - done))
        no_refusal(page, words)
        assert not red(page, "#verdict .progress")
        if done == 1:
            shot(page, f"p2-first-tap-{size}-{lang}.png")
    tap(page, 6)
    expect(page.locator("#verdict-ok")).to_be_visible()
    # A real refusal stays red, with its rule id.
    page.locator("input[name='revolution_1']").check()
    expect(page.locator("#verdict .problem[data-rule='R29']")).to_have_count(1)
    assert red(page, "#verdict .errors")
    shot(page, f"p2-refusal-{size}-{lang}.png")
    page.locator("input[name='revolution_1']").uncheck()
    expect(page.locator("#verdict-ok")).to_be_visible()
    # Starting the order again: nothing tapped is not an error either.
    page.get_by_role("button", name="重新点选" if lang == "zh" else "Start again").click()
    expect(page.locator("#verdict .progress")).to_have_text(left(words, 6))
    no_refusal(page, words)
    # Submitting an incomplete order is refused (with its rule id), and nothing is stored.
    tap(page, 2)
    page.evaluate("document.getElementById('deal-form').dataset.old = '1'")
    page.locator("#submit-deal").click()
    page.wait_for_selector("#deal-form:not([data-old])")
    expect(page.locator("#verdict .problem[data-rule='R30']")).to_have_count(1)
    assert DealReport.objects.count() == 0
    # A whole deal, then the next deal's blank form: no refusal on it.
    page.get_by_role("button", name="重新点选" if lang == "zh" else "Start again").click()
    for seat in (1, 2, 3, 4, 5, 6):
        tap(page, seat)
    expect(page.locator("#verdict-ok")).to_be_visible()
    page.locator("#submit-deal").click()
    expect(page.locator("#open-report .state-line")).to_be_visible()
    page.locator("input[name='point_3']").check()  # a tick on the next deal, before any tap
    expect(page.locator("#verdict .progress")).to_have_text(left(words, 6))
    no_refusal(page, words)
    shot(page, f"p2-next-deal-{size}-{lang}.png")


# --- the result in view above the captains' PIN boxes -------------------------------------------


def in_view(page, selector: str) -> bool:
    """The element's box lies inside the viewport (what a person sees without scrolling)."""
    return page.evaluate(
        """(sel) => { const r = document.querySelector(sel).getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight && r.height > 0; }""",
        selector,
    )


def settled(page) -> None:
    """The page loaded and its own scroll (right after load) done."""
    page.wait_for_load_state("load")
    page.wait_for_function("() => new Promise(r => requestAnimationFrame(() => r(true)))")


@pytest.mark.parametrize("size", ["390", "1280"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_result_is_in_one_view_with_the_pin_boxes(live_server, browser, size, lang):
    from tests.personas import make_setup

    setup = make_setup()
    words = WORDS[lang]
    seat = "{n}号" if lang == "zh" else "Seat {n}"
    page = context_for(browser, size, lang)
    page.goto(f"{live_server.url}/ref/{setup.link.token}/")
    for n in (3, 1, 2, 4, 5, 6):
        tap(page, n)
    page.locator("input[name='point_3']").check()
    expect(page.locator("#verdict-ok")).to_be_visible()
    page.locator("#submit-deal").click()
    expect(page.locator(".pin-side[data-side='A'] input[name='pin']")).to_be_attached()
    report = DealReport.objects.get(deal__number=1)
    settled(page)
    line = page.locator(f"#deal-line-{report.pk}")
    # The finishing order with names, and the unions' scores, in one line above the boxes.
    first = seat.format(n=3) + " " + str(setup.table.seats.get(seat=3).player)
    expect(line).to_contain_text(first)
    expect(line).to_contain_text("A +")
    expect(line).to_contain_text("B −")
    assert in_view(page, f"#deal-line-{report.pk}"), "the result is out of view"
    assert in_view(page, f"#pin-{report.pk}A input[name='pin']")
    assert in_view(page, f"#pin-{report.pk}B input[name='pin']")
    shot(page, f"p5-line-{size}-{lang}.png")
    # The first captain agrees: the line is still in view with the other box.
    form = page.locator("form.pin-form[data-side='A']")
    form.locator("input[name='pin']").fill(setup.union_a.captain_pin)
    form.get_by_role("button", name=words["agree"]).click()
    expect(page.locator(f"#pin-{report.pk}A [data-agreed]")).to_be_visible()
    settled(page)
    assert in_view(page, f"#deal-line-{report.pk}")
    assert in_view(page, f"#pin-{report.pk}B input[name='pin']")


# --- a refused play log says what is wrong, with the cards --------------------------------------

LOG_WORDS = {
    "zh": {
        "log": "附牌谱",
        "check": "检查",
        "r52": "小王×2（重 2）管不上 大王（重 2）",
        "bare": "成绩与牌谱回放不符",
        "field": "成绩与牌谱回放不符：开点，成绩写的是 2, 6",
    },
    "en": {
        "log": "play log",
        "check": "Check",
        "r52": "small joker×2 (weight 2) does not beat big joker (weight 2)",
        "bare": "does not match the replayed play log",
        "field": "does not match the replayed play log: Points opened, the result says 2, 6",
    },
}


@pytest.mark.parametrize("size", ["390", "1280"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_refused_play_log_names_the_cards_and_no_bare_mismatch(live_server, browser, size, lang):
    import json

    from matches.models import Event
    from tests.builder import EventBuilder
    from tests.results.test_play_log_words import light_group_log, six_pack_log

    b = EventBuilder(
        unions=2, deals=2, rules={"preset": "six-decks"}, confirmation=Event.Confirmation.NONE
    ).register()
    b.round([(0, 1)])
    words = LOG_WORDS[lang]
    page = context_for(browser, size, lang)
    page.goto(f"{live_server.url}/ref/{b.people.referee_link.token}/")

    def check(log: dict) -> None:
        if not page.locator("#play_log").is_visible():
            page.locator("details summary", has_text=words["log"]).click()
        page.fill("#play_log", json.dumps(log))
        page.evaluate("document.getElementById('deal-form').dataset.old = '1'")
        page.locator("button.check-button").click()
        page.wait_for_selector("#deal-form:not([data-old])")

    # Seat 3 answers 大王 with two 小王 (weight 2 on weight 2): R52, with both groups named.
    check(light_group_log())
    problems = page.locator("#verdict .problem")
    expect(problems).to_have_count(1)
    expect(problems.first).to_contain_text("R52")
    expect(problems.first).to_contain_text(words["r52"])
    expect(page.locator("#verdict")).not_to_contain_text(words["bare"])
    page.locator("#verdict").scroll_into_view_if_needed()
    shot(page, f"p9-r52-{size}-{lang}.png")
    # A whole, legal log whose claim leaves out points: the field and both values.
    record = six_pack_log()
    record["claimed"]["points"] = [2, 6]
    check(record)
    expect(page.locator("#verdict .problem").first).to_contain_text(words["field"])
    page.locator("#verdict").scroll_into_view_if_needed()
    shot(page, f"p9-mismatch-{size}-{lang}.png")


# --- tributes: offset point debts are said; the last deal owes nobody ---------------------------

TRIBUTE_WORDS = {
    "zh": {"owed": "下局进贡", "offset": "{a} ↔ {b}：点贡相抵 1 张", "seat": "{n}号"},
    "en": {
        "owed": "Tributes for the next deal",
        "offset": "{a} ↔ {b}: point tributes offset, 1 card each",
        "seat": "Seat {n}",
    },
}


def give_pins(page, setup, report, words) -> None:
    """Both captains agree on the phone: the report is final, its boxes gone."""
    for side, union in (("A", setup.union_a), ("B", setup.union_b)):
        form = page.locator(f"#pin-{report.pk}{side} form.pin-form")
        form.locator("input[name='pin']").fill(union.captain_pin)
        form.get_by_role("button", name=words["agree"]).click()
        if side == "A":
            expect(page.locator(f"#pin-{report.pk}A [data-agreed]")).to_be_visible()
    expect(page.locator(f"#pin-{report.pk}A")).to_have_count(0)
    settled(page)  # the page's own scroll to the next deal, before the next tap


@pytest.mark.parametrize("size", ["390", "1280"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_offset_point_tributes_are_said_and_the_last_deal_owes_nobody(
    live_server, browser, size, lang
):
    from tests.personas import make_setup

    setup = make_setup(
        deals_per_match=2, rules={"preset": "standard", "point_tributes_cancel": True}
    )
    words = {**WORDS[lang], **TRIBUTE_WORDS[lang]}
    page = context_for(browser, size, lang)
    page.goto(f"{live_server.url}/ref/{setup.link.token}/")

    def name(n: int) -> str:
        return words["seat"].format(n=n) + " " + str(setup.table.seats.get(seat=n).player)

    def report_deal() -> DealReport:
        for seat in (1, 2, 3, 4, 5, 6):
            tap(page, seat)
        point = page.locator("input[name='point_3']")  # only seat 3 opened a point
        # Centred first: scrolled just into view at 390 px, the sticky submit row covers it
        # and the click lands on its 检查 button (a check, the tick lost).
        point.evaluate("box => box.scrollIntoView({block: 'center'})")
        point.check()
        expect(page.locator("#verdict-ok")).to_be_visible()
        page.locator("#submit-deal").click()
        expect(page.locator(".pin-side[data-side='A'] input[name='pin']")).to_be_attached()
        return DealReport.objects.filter(state=DealReport.State.PENDING).get()

    # Deal 1: seats 1/4 and 2/5 opened no point, so each owes its head rival one: the debts
    # offset (R55) and the ledger keeps only seat 6's card to seat 3. Both are said.
    first = report_deal()
    summary = page.locator("#open-report .deal-summary")
    expect(summary).to_contain_text(words["owed"])
    offsets = summary.locator(".point-offset")
    expect(offsets).to_have_count(2)
    expect(offsets.first).to_have_text(words["offset"].format(a=name(1), b=name(4)))
    expect(offsets.nth(1)).to_have_text(words["offset"].format(a=name(2), b=name(5)))
    summary.scroll_into_view_if_needed()
    shot(page, f"p9-offsets-{size}-{lang}.png")
    give_pins(page, setup, first, words)
    # Deal 2, the match's last: what it would owe is owed to nobody, so no 下局进贡.
    last = report_deal()
    assert last.deal.number == 2 and last.verdict["tributes"]
    card = page.locator(".awaiting-report[data-deal='2'] .deal-summary")
    expect(card).to_be_visible()
    expect(card).not_to_contain_text(words["owed"])
    expect(card.locator(".point-offset")).to_have_count(0)
    card.scroll_into_view_if_needed()
    shot(page, f"p9-last-deal-{size}-{lang}.png")


# --- the pinned announcement covers nothing -----------------------------------------------------


def covered(page, selector: str) -> float:
    """How far (px) the pinned announcements reach over the element's top; 0 when clear."""
    return page.evaluate(
        """(sel) => { const box = document.getElementById('announcements').getBoundingClientRect();
        const r = document.querySelector(sel).getBoundingClientRect();
        return Math.max(0, Math.min(box.bottom, r.bottom) - Math.max(box.top, r.top)); }""",
        selector,
    )


@pytest.mark.parametrize("size", ["390", "1280"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_pinned_announcement_covers_nothing_the_phone_brings_into_view(
    live_server, browser, size, lang
):
    from matches.events import announcements
    from tests.personas import make_setup

    setup = make_setup()
    announcements.send(
        setup.event, setup.organiser, "第2轮 10:30 开始，请各桌裁判到主席台领取记分卡。"
    )
    page = context_for(browser, size, lang)
    page.goto(f"{live_server.url}/ref/{setup.link.token}/")
    expect(page.locator(".announcement")).to_be_visible()
    for seat in (1, 2, 3, 4, 5, 6):
        tap(page, seat)
    expect(page.locator("#verdict-ok")).to_be_visible()
    # Scrolled down the form, the live verdict sticks below the announcement, not under it.
    page.locator("#play_log_file").scroll_into_view_if_needed()
    assert covered(page, "#verdict") == 0, "the verdict slides under the announcement"
    page.locator("#submit-deal").click()
    report_box = page.locator(".pin-side[data-side='A'] input[name='pin']")
    expect(report_box).to_be_attached()
    settled(page)
    # The phone brings the report's line and its PIN boxes into view: below the announcement.
    report = DealReport.objects.get()
    assert covered(page, f"#deal-line-{report.pk}") == 0, "the announcement covers the result"
    assert in_view(page, f"#pin-{report.pk}B input[name='pin']")
    shot(page, f"small-announcement-{size}-{lang}.png")


# --- the desk and the badge sheet: an unseeded union --------------------------------------------

DESK_WORDS = {
    "zh": {"ok": "签到成功", "seed": "1 号"},
    "en": {"ok": "Checked in", "seed": "No. 1"},
}


@pytest.mark.parametrize("size", ["390", "1280"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_an_unseeded_union_at_the_desk_and_on_the_badge_sheet(
    live_server, browser, signed_in, size, lang
):
    from matches.events import scan
    from matches.models import FloorPass, Registration
    from matches.public import floor_passes
    from tests.builder import EventBuilder

    b = EventBuilder(
        unions=3,
        names=["黄岛五队", "崂山一队", "市南联队"],
        clubs=["黄岛俱乐部", "崂山俱乐部", "市南俱乐部"],
    ).register(check_in=False)
    # 崂山一队 entered without a seed (between two seeded unions).
    Registration.objects.filter(union=b.unions[1]).update(seed=None)
    floor_passes.ensure_passes(b.event)
    page = context_for(browser, size, lang)
    signed_in(page, b.organiser.username)

    # The entries list and the badge sheet: one order, the unseeded union last.
    page.goto(f"{live_server.url}/manage/events/{b.event.pk}/entries/")
    listed = page.locator("table.entries tbody tr td:nth-child(2)").all_inner_texts()
    assert [name.strip() for name in listed] == ["黄岛五队", "市南联队", "崂山一队"]
    page.goto(f"{live_server.url}/manage/events/{b.event.pk}/badges/")
    printed = page.locator(".badge-union .badge-name").all_inner_texts()
    assert printed == ["黄岛五队", "市南联队", "崂山一队"]

    # The desk: the unseeded union's line starts with its club, no stray "·".
    page.goto(f"{live_server.url}/manage/events/{b.event.pk}/checkin/scan/")
    token = FloorPass.objects.get(event=b.event, union=b.unions[1]).token
    page.locator("#scan-code").fill(scan.desk_code(token))
    page.keyboard.press("Enter")
    result = page.locator("#scan-result .scan-result")
    expect(result.locator(".scan-name")).to_have_text("崂山一队")
    expect(result.locator(".scan-meta")).to_have_text("崂山俱乐部")
    shot(page, f"small-desk-unseeded-{size}-{lang}.png")
    # A seeded union: its seed, then its club.
    token = FloorPass.objects.get(event=b.event, union=b.unions[0]).token
    page.locator("#scan-code").fill(scan.desk_code(token))
    page.keyboard.press("Enter")
    expect(result.locator(".scan-name")).to_have_text("黄岛五队")
    expect(result.locator(".scan-meta")).to_have_text(DESK_WORDS[lang]["seed"] + " · 黄岛俱乐部")


@pytest.mark.parametrize("size", ["390", "1280"])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_blank_next_deal_form_is_not_checked_on_load(live_server, browser, size, lang):
    """Any swap on the page (the announcements' refresh) keeps the form, blank too; a blank
    form kept brings nothing back on the next load: no check, no verdict at all."""
    from tests.personas import make_setup

    setup = make_setup()
    page = context_for(browser, size, lang)
    checks: list[str] = []
    page.on("request", lambda r: checks.append(r.url) if "/check" in r.url else None)
    page.goto(f"{live_server.url}/ref/{setup.link.token}/")
    # The form as the page keeps it after a swap: blank.
    page.evaluate(
        """() => { const f = document.querySelector('form[data-keep]'); const out = [];
        new FormData(f).forEach((v, k) => { if (typeof v === 'string') out.push([k, v]); });
        localStorage.setItem('gouji-entry:' + f.dataset.keep, JSON.stringify({fields: out})); }"""
    )
    page.reload()
    page.wait_for_load_state("networkidle")
    assert checks == []
    expect(page.locator("#verdict")).to_have_text("")
    # What was tapped comes back after a reload, as before.
    tap(page, 2)
    page.wait_for_load_state("networkidle")
    page.reload()
    expect(page.locator("button.tap[data-seat='2'] .place")).to_be_visible()
