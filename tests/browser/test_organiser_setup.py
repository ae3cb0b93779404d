"""A fresh organiser sets an event up alone, in Chromium, never opening /admin/ (issue 14).

Gou Ji: create the event with the wizard (qingdao-hold3 and two changed flags), register 12
unions (6 by hand, 6 imported), withdraw one, invite a referee (who signs up from the link), check
unions in and see the draw warning for those who are not. Giog: the same with 12 players and
changed place points, and the site says Giog.

Set SCREENSHOTS=/some/dir to photograph every page of the flow at 390 and 1280 px wide in both
languages; each flow prints how long it took.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import expect

from matches.models import Event, EventStaff, Registration, StaffRole

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "pw-fresh-organiser"
HAND_UNIONS = {
    "崂山": ["王伟", "李娜", "张强"],
    "市北": ["刘洋", "陈静", "杨勇"],
    "黄岛": ["赵磊", "黄艳", "周杰"],
    "烟台": ["吴涛", "徐明", "孙超"],
    "李沧": ["马丽", "朱军", "胡斌"],
    "城阳": ["郭敏", "何平", "高峰"],
}
IMPORTED_UNIONS = [
    ("即墨一队", "即墨够级会", "林一", "林二", "林三", 7),
    ("即墨二队", "即墨够级会", "罗一", "罗二", "罗三", 8),
    ("胶州一队", "胶州俱乐部", "梁一", "梁二", "梁三", 9),
    ("胶州二队", "胶州俱乐部", "宋一", "宋二", "宋三", 10),
    ("平度队", "平度俱乐部", "郑一", "郑二", "郑三", 11),
    ("莱西队", "莱西俱乐部", "谢一", "谢二", "谢三", 12),
]
HAND_PLAYERS = ["王伟", "李娜", "张强", "刘洋", "陈静", "杨勇"]
IMPORTED_PLAYERS = [
    ("赵一", "黄岛棋社", 7),
    ("赵二", "黄岛棋社", 8),
    ("钱一", "市南棋社", 9),
    ("钱二", "市南棋社", 10),
    ("孙一", "崂山棋社", 11),
    ("孙二", "崂山棋社", 12),
]


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def fresh_organiser(transactional_db):
    return get_user_model().objects.create_user("fresh", password=PASSWORD)


class Visits:
    """Every URL the browser asked for (to prove /admin/ never was) and every page to photograph."""

    def __init__(self, page):
        self.urls: list[str] = []
        self.pages: list[tuple[str, str]] = []
        page.on("request", lambda request: self.urls.append(request.url))

    def shot(self, name: str, page) -> None:
        self.pages.append((name, page.url))


def wizard(page, visits, *, game: str, name: str, entry_type: str):
    page.locator("#new-event").click()
    visits.shot("wizard-1-basics", page)
    page.locator(f"input[name='game'][value='{game}']").check()
    page.fill("#id_name", name)
    page.fill("#id_start_date", "2026-06-01")
    page.fill("#id_end_date", "2026-06-02")
    page.fill("#id_venue", "青岛市体育馆")
    page.locator(f"input[name='entry_type'][value='{entry_type}']").check()
    page.locator("#wizard-next").click()
    expect(page.locator("#id_stage1_format")).to_be_visible()
    visits.shot("wizard-2-format", page)
    page.select_option("#id_stage1_format", "swiss")
    page.fill("#id_stage1_rounds", "5")
    knockout = page.locator("#id_stage2_format option[value='single_elimination']")
    if entry_type == "team":
        page.select_option("#id_stage2_format", "single_elimination")
        page.fill("#id_stage2_qualifiers", "8")
    else:  # the break takes registered unions: individual entries are offered no knockout
        expect(knockout).to_have_count(0)
    page.fill("#id_deals_per_match", "6")
    page.fill("#id_tie_break_deals", "2")
    page.locator("input[name='result_confirmation'][value='referee']").check()
    page.locator("#wizard-next").click()
    expect(page.locator(".steps [aria-current='step']")).to_contain_text("规则")


def check_no_admin(visits):
    assert visits.urls, "no request recorded"
    assert not [u for u in visits.urls if "/admin/" in u]


def upload(page, name: str, text: str):
    page.set_input_files(
        "#file", files=[{"name": name, "mimeType": "text/csv", "buffer": text.encode("utf-8")}]
    )
    page.locator("main form button[type='submit']").first.click()


def invite_referee(browser, page, base, visits, event) -> str:
    page.goto(f"{base}/manage/events/{event.pk}/staff/")
    visits.shot("staff", page)
    page.locator("input[name='role'][value='referee']").check()
    page.fill("#id_note", "裁判小王")
    page.locator("#invite").click()
    expect(page.locator("#invitations")).to_contain_text("裁判小王")
    link = page.locator("#invitations .link-box").first.input_value()
    code = page.locator("#invitations code.code").first.inner_text()
    assert re.fullmatch(r"[2-9A-Z]{8}", code)
    # The referee, on a phone, opens the link, makes an account and takes the role.
    context = browser.new_context(locale="zh-CN", viewport={"width": 390, "height": 844})
    phone = context.new_page()
    phone.set_default_timeout(30_000)
    phone.on("request", lambda request: visits.urls.append(request.url))
    phone.goto(link)
    expect(phone.locator("main")).to_contain_text(event.name)
    if os.environ.get("SCREENSHOTS"):  # used once: photographed here, Chinese, phone width
        phone.screenshot(
            path=f"{os.environ['SCREENSHOTS']}/{event.game}-staff-accept-zh-hans-390.png",
            full_page=True,
        )
    phone.fill("#id_username", f"ref-{event.pk}")
    phone.fill("#id_password1", "Referee-pass-2026")
    phone.fill("#id_password2", "Referee-pass-2026")
    phone.locator("#signup-accept").click()
    phone.wait_for_url(re.compile(r"/referee/$"))
    expect(phone.locator(".messages")).to_contain_text("裁判")
    # The link works once: a second visit is refused in the page's language.
    phone.goto(link)
    expect(phone.locator("#join-error")).to_contain_text("邀请无效")
    context.close()
    page.reload()
    expect(page.locator("#staff-list")).to_contain_text(f"ref-{event.pk}")
    expect(page.locator("#staff-list")).to_contain_text("裁判")
    return f"ref-{event.pk}"


def _wizard_pages(page, base, game: str, snap):
    """The wizard's three steps (and step 1's errors), each photographed by `snap(name)`."""
    page.goto(f"{base}/manage/new/?restart=1")
    snap("wizard-1-basics")
    page.locator("#wizard-form").evaluate("f => f.noValidate = true")  # the server's messages
    page.locator("#wizard-next").click()  # nothing filled in: errors in the page's language
    expect(page.locator(".field.has-errors").first).to_be_visible()
    snap("wizard-1-errors")
    page.locator(f"input[name='game'][value='{game}']").check()
    page.fill("#id_name", "截图")
    page.fill("#id_start_date", "2026-06-01")
    page.locator("input[name='entry_type']").last.check()
    page.locator("#wizard-next").click()
    expect(page.locator("#id_stage1_format")).to_be_visible()
    snap("wizard-2-format")
    page.fill("#id_stage1_rounds", "5")
    page.locator("input[name='result_confirmation']").first.check()
    page.locator("#wizard-next").click()
    expect(page.locator("input[name='step'][value='rules']")).to_have_count(1)
    snap("wizard-3-rules")


def photograph(browser, base, signed_in, visits, folder: str, prefix: str, event):
    """Each page at 390 and 1280 px, in Chinese and in English, signed in as the organiser."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    Event.objects.filter(pk=event.pk).update(published=True)  # for its public page
    context = browser.new_context(locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(30_000)
    signed_in(page, "fresh", PASSWORD)
    for language in ("zh-hans", "en"):
        page.goto(f"{base}/lang/?language={language}&next=/manage/")
        for width in (390, 1280):
            page.set_viewport_size({"width": width, "height": 900})

            def snap(name, language=language, width=width):
                page.screenshot(
                    path=str(out / f"{prefix}-{name}-{language}-{width}.png"), full_page=True
                )
                overflow = page.evaluate(
                    "document.documentElement.scrollWidth - document.documentElement.clientWidth"
                )
                assert overflow <= 0, (name, language, width)

            for name, url in visits.pages:
                if "/join/" in url or name.startswith(("wizard", "import")):
                    continue  # an invitation works once; the wizard and import need posts
                page.goto(url)
                snap(name)
            _wizard_pages(page, base, event.game, snap)
            page.goto(f"{base}/manage/events/{event.pk}/import/")
            upload(page, "bad.csv", "队伍,选手1\n甲,a\n")
            expect(page.locator("#file-error")).to_be_visible()
            snap("import-error")
            page.goto(f"{base}/manage/events/{event.pk}/settings/")
            page.fill("#id_end_date", "2026-05-01")
            page.locator("#settings-form button[type='submit']").click()
            expect(page.locator(".field.has-errors").first).to_be_visible()
            snap("settings-errors")
            page.goto(f"{base}/events/{event.pk}/standings/")
            snap("public-standings")
            page.goto(f"{base}/manage/join/")
            snap("join-code")
            frozen_at = event.rules_frozen_at
            Event.objects.filter(pk=event.pk).update(rules_frozen_at=timezone.now())
            page.goto(f"{base}/manage/events/{event.pk}/rules/")
            expect(page.locator("#frozen-note")).to_be_visible()
            snap("rules-frozen")
            Event.objects.filter(pk=event.pk).update(rules_frozen_at=frozen_at)
            entry = event.registrations.exclude(status="withdrawn").order_by("seed").last()
            page.goto(f"{base}/manage/events/{event.pk}/entries/{entry.pk}/link/")
            snap("entry-link")
            page.goto(page.locator("#entry-url").input_value())
            snap("entry-private-page")
    context.close()


def test_a_fresh_organiser_sets_up_a_gouji_event_alone(
    live_server, browser, page, fresh_organiser, signed_in
):
    base = live_server.url
    visits = Visits(page)
    started = time.monotonic()
    signed_in(page, "fresh", PASSWORD)
    visits.shot("events", page)
    wizard(page, visits, game="gouji", name="崂山杯够级赛", entry_type="team")

    # Rules: the qingdao-hold3 preset (htmx refills every flag), then two flags changed.
    page.locator("#preset-qingdao-hold3").check()
    expect(page.locator("#id_hold_three")).to_be_checked()
    expect(page.locator("#id_last_hand_answer")).not_to_be_checked()
    expect(page.locator("#no-changes")).to_be_visible()
    expect(page.locator("#group-tributes")).to_contain_text("R43")
    expect(page.locator("#preset-six-decks")).to_be_attached()
    expect(page.locator(".presets")).to_contain_text("3 须留作最后一手")
    visits.shot("wizard-3-rules", page)
    page.locator("#id_tributes").uncheck()
    page.fill("#id_string_three_score", "10")
    page.locator("#wizard-next").click()
    page.wait_for_url(re.compile(r"/manage/events/\d+/$"))
    event = Event.objects.get(name="崂山杯够级赛")
    assert event.organisers.filter(pk=fresh_organiser.pk).exists()
    assert event.game_settings == {
        "rules": {"preset": "qingdao-hold3", "tributes": False, "string_three_score": 10}
    }
    assert [(s.format, s.planned_rounds, s.qualifiers) for s in event.stages.order_by("order")] == [
        ("swiss", 5, None),
        ("single_elimination", None, 8),
    ]
    assert (event.deals_per_match, event.tie_break_deals, event.result_confirmation) == (
        6,
        2,
        "referee",
    )
    visits.shot("dashboard", page)

    # The rules page shows the diff from the preset.
    page.goto(f"{base}/manage/events/{event.pk}/rules/")
    expect(page.locator(".diff-table tbody tr")).to_have_count(2)
    expect(page.locator(".diff-table tr[data-flag='tributes']")).to_contain_text("R43")
    visits.shot("rules", page)
    page.goto(f"{base}/manage/events/{event.pk}/settings/")
    visits.shot("settings", page)

    # Six unions by hand.
    page.goto(f"{base}/manage/events/{event.pk}/entries/")
    visits.shot("entries-empty", page)
    for seed, (name, players) in enumerate(HAND_UNIONS.items(), start=1):
        page.locator("details.add-entry").evaluate("d => d.open = true")
        page.fill("#id_union", name)
        for k, player in enumerate(players, start=1):
            page.fill(f"#id_player{k}", player)
        page.select_option("#id_captain", "2" if seed == 1 else "1")
        page.fill("#id_club", "崂山够级俱乐部" if seed <= 2 else "")
        page.fill("#id_seed", str(seed))
        page.locator("#register-form button[type='submit']").click()
        expect(page.locator("#entries")).to_contain_text(name)
    expect(page.locator("#entries")).to_contain_text("李娜★")

    # Import: an unknown header is refused with the accepted headers in both languages.
    page.goto(f"{base}/manage/events/{event.pk}/import/")
    upload(page, "bad.csv", "队伍,选手1,选手2,选手3\n甲,a,b,c\n")
    expect(page.locator("#file-error")).to_contain_text("队伍")
    for header in ("选手一", "选手1", "player1", "union"):
        expect(page.locator("#file-error")).to_contain_text(header)
    visits.shot("import-error", page)
    sheet = "联邦,俱乐部,选手1,选手2,选手3,种子\n" + "\n".join(
        ",".join(str(v) for v in row) for row in IMPORTED_UNIONS
    )
    upload(page, "entries.csv", sheet)
    expect(page.locator("#import-preview tbody tr")).to_have_count(6)
    visits.shot("import-preview", page)
    page.locator("#confirm-import").click()
    expect(page.locator("#entry-count")).to_contain_text("12")
    visits.shot("entries", page)

    # Search, then withdraw one union from round 1 on.
    page.fill("#q", "胶州")
    expect(page.locator("#entries tbody tr")).to_have_count(2)
    page.fill("#q", "罗二")  # a player's name finds the union
    expect(page.locator("#entries tbody tr")).to_have_count(1)
    page.locator("#entries tbody tr a", has_text="编辑").click()
    visits.shot("entry-edit", page)
    page.fill("#id_from_round", "1")
    page.locator("#withdraw").click()
    expect(page.locator("#entries")).to_contain_text("已退赛")
    assert Registration.objects.get(event=event, union__name="即墨二队").status == "withdrawn"

    invite_referee(browser, page, base, visits, event)
    assert (
        EventStaff.objects.filter(
            event=event, role=StaffRole.REFEREE, revoked_at__isnull=True
        ).count()
        == 1
    )

    # Check-in: one club at once, three by hand (htmx), two left out.
    page.goto(f"{base}/manage/events/{event.pk}/checkin/")
    expect(page.locator("#checkin-warning")).to_contain_text("11 个联邦中有 11 个未签到")
    page.select_option("#club", label="胶州俱乐部")
    page.locator("#check-in-club").click()
    expect(page.locator(".messages")).to_contain_text("2")
    expect(page.locator("#checkin-warning")).to_contain_text("11 个联邦中有 9 个未签到")
    page.locator("#undo-bulk").click()  # undo, then again
    expect(page.locator("#checkin-warning")).to_contain_text("11 个联邦中有 11 个未签到")
    page.select_option("#club", label="胶州俱乐部")
    page.locator("#check-in-club").click()
    for name in ("即墨一队", "平度队", "莱西队", "崂山", "市北", "黄岛", "烟台"):
        row = page.locator("#checkin-list tbody tr", has_text=name).first
        row.locator("button").click()
        expect(
            page.locator("#checkin-list tbody tr", has_text=name).first.locator(".state")
        ).to_have_text("已签到")
    expect(page.locator("#checkin-warning")).to_contain_text("11 个联邦中有 2 个未签到")
    visits.shot("checkin", page)

    # The dashboard warns before the draw.
    page.goto(f"{base}/manage/events/{event.pk}/")
    expect(page.locator("#checkin-warning")).to_contain_text(
        "11 个联邦中有 2 个未签到，编排第 1 轮时不会排入"
    )
    expect(page.locator("#draw-round")).to_be_visible()
    elapsed = time.monotonic() - started
    print(f"\nGou Ji set-up through the browser: {elapsed:.1f} s")
    check_no_admin(visits)
    if os.environ.get("SCREENSHOTS"):
        photograph(browser, base, signed_in, visits, os.environ["SCREENSHOTS"], "gouji", event)


def test_a_fresh_organiser_sets_up_a_giog_event_alone(
    live_server, browser, page, fresh_organiser, signed_in
):
    base = live_server.url
    visits = Visits(page)
    started = time.monotonic()
    signed_in(page, "fresh", PASSWORD)
    wizard(page, visits, game="giog", name="青岛 Giog 公开赛", entry_type="individual")
    expect(page.locator("#group-places")).to_contain_text("G11")
    expect(page.locator("#site-brand")).to_have_text("Giog 赛事")  # swapped in by htmx
    page.fill("#id_place_1", "4")
    page.fill("#id_place_3", "0")
    visits.shot("wizard-3-settings", page)
    page.locator("#wizard-next").click()
    page.wait_for_url(re.compile(r"/manage/events/\d+/$"))
    event = Event.objects.get(name="青岛 Giog 公开赛")
    assert event.game == "giog" and event.entry_type == "individual"
    assert event.game_settings == {"place_points": [4, 2, 0, 0]}
    # Giog says so: the site title, and the note on its columns.
    expect(page.locator(".brand")).to_have_text("Giog 赛事")
    expect(page.locator(".game-note")).to_contain_text("赢子")
    expect(page.locator(".game-note")).to_contain_text("斩首")
    visits.shot("dashboard", page)
    page.goto(f"{base}/manage/events/{event.pk}/rules/")
    expect(page.locator(".diff-table tbody tr")).to_have_count(2)
    visits.shot("rules", page)

    page.goto(f"{base}/manage/events/{event.pk}/entries/")
    expect(page.locator("#id_union")).to_have_count(0)
    for seed, name in enumerate(HAND_PLAYERS, start=1):
        page.locator("details.add-entry").evaluate("d => d.open = true")
        page.fill("#id_player1", name)
        page.fill("#id_club", "市北棋社" if seed <= 3 else "")
        page.fill("#id_seed", str(seed))
        page.locator("#register-form button[type='submit']").click()
        expect(page.locator("#entries")).to_contain_text(name)
    page.goto(f"{base}/manage/events/{event.pk}/import/")
    upload(
        page,
        "players.csv",
        "选手,俱乐部,种子\n" + "\n".join(f"{n},{c},{s}" for n, c, s in IMPORTED_PLAYERS),
    )
    page.locator("#confirm-import").click()
    expect(page.locator("#entry-count")).to_contain_text("12")
    visits.shot("entries", page)
    page.fill("#q", "钱二")
    expect(page.locator("#entries tbody tr")).to_have_count(1)
    page.locator("#entries tbody tr a", has_text="编辑").click()
    page.fill("#id_from_round", "1")
    page.locator("#withdraw").click()
    expect(page.locator("#entries")).to_contain_text("已退赛")

    invite_referee(browser, page, base, visits, event)

    page.goto(f"{base}/manage/events/{event.pk}/checkin/")
    page.select_option("#club", label="黄岛棋社")
    page.locator("#check-in-club").click()
    for name in HAND_PLAYERS + ["孙一"]:
        page.locator("#checkin-list tbody tr", has_text=name).first.locator("button").click()
        expect(
            page.locator("#checkin-list tbody tr", has_text=name).first.locator(".state")
        ).to_have_text("已签到")
    # 12 players, one withdrawn: 11 expected, 9 here.
    expect(page.locator("#checkin-warning")).to_contain_text("11 名选手中有 2 名未签到")
    visits.shot("checkin", page)
    page.goto(f"{base}/manage/events/{event.pk}/")
    expect(page.locator("#checkin-warning")).to_contain_text("11 名选手中有 2 名未签到")
    elapsed = time.monotonic() - started
    print(f"\nGiog set-up through the browser: {elapsed:.1f} s")
    check_no_admin(visits)
    if os.environ.get("SCREENSHOTS"):
        photograph(browser, base, signed_in, visits, os.environ["SCREENSHOTS"], "giog", event)
