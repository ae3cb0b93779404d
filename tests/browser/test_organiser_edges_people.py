"""Issue 25, problems 5-8, in Chromium and in Chinese, as a new organiser meets them: the
correction form, invited staff, the English pages, and data entry.

Set SCREENSHOTS=/some/dir to photograph each changed page at 390 and 1280 px wide, in zh-hans
and in English (`photo`: the English copy is made by switching the language cookie and doing
the step again).
"""

from __future__ import annotations

import csv
import io
import os
import re

import pytest
from playwright.sync_api import expect

from matches.draw import control
from matches.draw import service as draw
from matches.events import staff as staff_service
from matches.models import DealReport, Event, StaffRole, Stage, TableSeat, UnionMember
from matches.permissions import Actor
from matches.results.confirm import confirm_report
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from players.models import Club
from tests.builder import EventBuilder
from tests.personas import make_setup

pytestmark = pytest.mark.django_db(transaction=True)

REPORTED = {"format": "gouji-outcome/1", "finish": [1, 2, 3, 4, 5, 6], "points": [3]}


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def set_language(page, base, language):
    page.context.add_cookies([{"name": "django_language", "value": language, "url": base}])


def photo(page, base, name, again=None):
    """The page as it is (Chinese) at 390 and 1280 px, then in English: `again(page)` redoes
    the step that led here (a POST), else the page is reloaded."""
    folder = os.environ.get("SCREENSHOTS")
    if not folder:
        return
    size = page.viewport_size
    for language in ("zh-hans", "en"):
        if language == "en":
            set_language(page, base, "en")
            (again or (lambda p: p.reload()))(page)
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 900})
            page.screenshot(path=f"{folder}/{name}-{language}-{width}.png", full_page=True)
    set_language(page, base, "zh-hans")
    (again or (lambda p: p.reload()))(page)
    page.set_viewport_size(size)


# --- 5. the correction form -----------------------------------------------------------------


def disputed(setup) -> DealReport:
    deal = deal_for(setup.match, 1)
    report = submit_report(deal, REPORTED, None, Actor(user=setup.referee), "r")[0]
    confirm_report(report, Actor(user=setup.captain_b), False, "3号没开点", reason="points")
    return report


def test_correction_taps_work_before_the_reason_and_an_identical_one_is_refused(
    live_server, page, signed_in
):
    setup = make_setup()
    report = disputed(setup)
    base = live_server.url
    signed_in(page, setup.organiser.username)
    url = f"{base}/manage/events/{setup.event.pk}/results/tables/{setup.table.pk}/deals/1/correct"
    page.goto(url)
    expect(page.locator("#uphold")).to_have_text("维持原报告")
    # Taps re-render the order although no reason is written yet.
    page.get_by_role("button", name="重新点选").click()
    expect(page.locator("#finish-order")).to_have_text("尚未点选")
    for seat in (1, 3, 5, 2, 4, 6):
        page.locator(f"button.tap[data-seat='{seat}']").click()
        expect(page.locator(f"button.tap[data-seat='{seat}']")).to_have_attribute(
            "aria-pressed", "true"
        )
    expect(page.locator("#finish-order")).to_contain_text("6.")
    # The reason is asked for when the correction is submitted.
    page.locator("#submit-deal").click()
    expect(page.locator("#refusal")).to_contain_text("更正成绩须写明原因")

    def identical(p):  # the disputed report again, with a reason saying the opposite
        p.goto(url)
        p.fill("#reason", "原报告不对")
        p.locator("#submit-deal").click()
        expect(p.locator("#refusal[data-code='same_as_report']")).to_be_visible()

    identical(page)
    expect(page.locator("#refusal")).to_contain_text("维持原报告")
    photo(page, base, "correction-refused", identical)
    page.locator("#refusal a[href='#uphold']").click()
    report.refresh_from_db()
    assert report.state == "disputed" and not DealReport.objects.final().exists()


# --- 6. people ------------------------------------------------------------------------------


def test_an_invited_assistant_signs_up_lands_signed_in_and_meets_a_styled_403(live_server, browser):
    b = EventBuilder(unions=4, deals=1).register()
    invitation = staff_service.invite(b.event, StaffRole.ASSISTANT, by=b.organiser)
    base = live_server.url
    context = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(30_000)
    page.goto(f"{base}/manage/join/{invitation.token}/")
    page.fill("#id_username", "xiaowang")
    page.fill("#id_password1", "a-long-pass-2026")
    page.fill("#id_password2", "a-long-pass-2026")
    page.locator("#signup-accept").click()
    page.wait_for_url(re.compile(rf"/manage/events/{b.event.pk}/$"))
    expect(page.locator(".site-header")).to_contain_text("xiaowang")
    nav = page.locator(".event-nav")
    expect(nav).to_contain_text("签到")
    for tab in ("规则", "设置", "工作人员"):
        expect(nav).not_to_contain_text(tab)
    photo(page, base, "assistant-dashboard")
    page.goto(f"{base}/manage/events/{b.event.pk}/settings/")
    expect(page.locator("#forbidden h1")).to_have_text("没有权限打开这个页面")
    border = page.locator("#forbidden").evaluate("e => getComputedStyle(e).borderLeftWidth")
    assert border == "6px"  # the site's stylesheet, not a bare page
    photo(page, base, "forbidden")
    set_language(page, base, "en")
    page.reload()
    expect(page.locator("#forbidden h1")).to_have_text("You may not open this page")
    page.goto(f"{base}/manage/events/999999/")
    expect(page.locator("#not-found h1")).to_have_text("This page cannot be found")
    set_language(page, base, "zh-hans")
    page.reload()
    expect(page.locator("#not-found h1")).to_have_text("找不到这个页面")
    photo(page, base, "not-found")
    context.close()


# --- 7. language ----------------------------------------------------------------------------


def test_the_english_round_page_shows_english_stage_names_and_punctuation(
    live_server, page, signed_in
):
    b = EventBuilder(unions=4, deals=1).register()
    Stage.objects.filter(pk=b.stage.pk).update(name="淘汰赛")  # as an older break stored it
    club = Club.objects.create(name="青岛俱乐部")
    for union in b.unions[:2]:
        union.club = club
        union.save()
    round_ = draw.create_round(b.stage, seed=1)
    control.pair_by_hand(round_, 1, b.unions[0], b.unions[1])
    base = live_server.url
    signed_in(page, b.organiser.username)
    set_language(page, base, "en")
    page.goto(f"{base}/manage/events/{b.event.pk}/rounds/1/")
    expect(page.locator("main")).to_contain_text("Knockout")
    reasons = page.locator("#table-1 .reasons").inner_text()
    assert "; " in reasons and "；" not in reasons, reasons
    assert "淘汰赛" not in page.locator("main").inner_text()
    set_language(page, base, "zh-hans")
    page.reload()
    assert "；" in page.locator("#table-1 .reasons").inner_text()
    photo(page, base, "team-draft")


# --- 8. data entry --------------------------------------------------------------------------


def test_a_template_with_a_captain_column_a_near_club_and_the_open_add_form(
    live_server, page, signed_in
):
    Club.objects.create(name="黄岛俱乐部")
    Club.objects.create(name="崂山俱乐部")
    b = EventBuilder(unions=0, deals=1).register()
    base = live_server.url
    signed_in(page, b.organiser.username)
    page.goto(f"{base}/manage/events/{b.event.pk}/import/")
    with page.expect_download() as download:
        page.locator("#template-csv").click()
    text = open(download.value.path(), encoding="utf-8-sig").read()
    assert next(csv.reader(io.StringIO(text)))[5] == "队长"
    filled = text + "黄岛一队,黄岛 俱乐部,甲,乙,丙,乙,1\n黄岛二队,黄岛俱乐,丁,戊,己,,2\n"
    page.set_input_files(
        "#file",
        files=[{"name": "e.csv", "mimeType": "text/csv", "buffer": filled.encode("utf-8-sig")}],
    )
    page.locator("main form button[type='submit']").last.click()
    preview = page.locator("#import-preview")
    expect(preview).to_contain_text("乙★")
    expect(preview).to_contain_text("将并入已有俱乐部“黄岛俱乐部”")
    expect(preview).to_contain_text("俱乐部“黄岛俱乐”与“黄岛俱乐部”相近")

    def preview_again(p):
        p.goto(f"{base}/manage/events/{b.event.pk}/import/")
        p.set_input_files(
            "#file",
            files=[{"name": "e.csv", "mimeType": "text/csv", "buffer": filled.encode("utf-8")}],
        )
        p.locator("main form button[type='submit']").last.click()
        expect(p.locator("#import-preview")).to_be_visible()

    photo(page, base, "import-preview", preview_again)
    page.locator("#confirm-import").click()
    page.wait_for_url(re.compile(r"/entries/"))
    captain = UnionMember.objects.get(union__name="黄岛一队", is_captain=True)
    assert captain.player.name == "乙"

    # The add form: a near club is warned, the existing one is one tap, the form stays open.
    page.goto(f"{base}/manage/events/{b.event.pk}/entries/")

    def add_with_typo(p):
        if not p.locator("#add-entry[open]").count():
            p.locator("#add-entry summary").click()
        p.fill("#id_union", "新一队")
        p.fill("#id_player1", "张一")
        p.fill("#id_player2", "张二")
        p.fill("#id_player3", "张三")
        p.fill("#id_club", "崂山俱乐")
        p.locator("#add-entry-submit").click()
        expect(p.locator("#club-near")).to_be_visible()

    add_with_typo(page)
    expect(page.locator("#add-entry")).to_contain_text("与已有的俱乐部“崂山俱乐部”相近")
    photo(page, base, "add-entry-warned", lambda p: (p.goto(p.url), add_with_typo(p)))
    page.locator("button.use-club").first.click()
    expect(page.locator("#entry-added")).to_contain_text("新一队")
    expect(page.locator("#add-entry")).to_have_attribute("open", "")
    expect(page.locator("#entries")).to_contain_text("新一队")
    expect(page.locator("#id_union")).to_have_value("")
    assert b.event.unions.get(name="新一队").club.name == "崂山俱乐部"
    expect(page.locator("#id_union")).to_be_focused()  # ready for the next entry

    def add_another(p):
        p.goto(f"{base}/manage/events/{b.event.pk}/entries/")
        p.locator("#add-entry summary").click()
        union = f"新队{b.event.unions.count() + 1}"
        for field, value in (("union", union), ("player1", "甲"), ("player2", "乙")):
            p.fill(f"#id_{field}", value)
        p.fill("#id_player3", "丙")
        p.locator("#add-entry-submit").click()
        expect(p.locator("#entry-added")).to_contain_text(union)

    photo(page, base, "add-entry-open", add_another)


def test_the_individual_draft_shows_the_players_and_a_swap_works(live_server, page, signed_in):
    b = EventBuilder(entry_type=Event.EntryType.INDIVIDUAL, players=12, deals=1).register()
    round_ = draw.create_round(b.stage, seed=3)
    base = live_server.url
    signed_in(page, b.organiser.username)
    page.goto(f"{base}/manage/events/{b.event.pk}/rounds/1/")
    seats = list(TableSeat.objects.filter(round=round_).select_related("player", "table"))
    table_one = page.locator("#table-1 .rt-seats li")
    expect(table_one).to_have_count(6)
    for seat in seats:
        expect(page.locator(f"li[data-player='{seat.player_id}']")).to_contain_text(
            seat.player.name
        )
    photo(page, base, "individual-draft")
    first = next(s for s in seats if s.table.number == 1 and s.seat == 1)
    second = next(s for s in seats if s.table.number == 2 and s.seat == 2)
    page.select_option("#edit-player-swap select[name='first']", str(first.player_id))
    page.select_option("#edit-player-swap select[name='second']", str(second.player_id))
    page.locator("#edit-player-swap button").click()
    expect(page.locator(".messages")).to_contain_text("已调整")
    expect(page.locator("#table-1 li[data-seat='1']")).to_contain_text(second.player.name)
    expect(page.locator("#table-2 li[data-seat='2']")).to_contain_text(first.player.name)
