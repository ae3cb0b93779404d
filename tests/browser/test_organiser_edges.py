"""Issue 25, problems 1-3 in Chromium, in Chinese, as a new organiser would run them.

A Swiss-then-knockout event of six unions: the dashboard's defaults draw the Swiss round 1 (not
the knockout); the draft is deleted and drawn again; a late union is registered and checked in
while the draft exists, the draft and the dashboard name it and offer the redraw, which takes it
in; round 1 is published, played, closed and reopened with a reason, then closed again; the
event is archived (gone from the list and the public page) and restored; its settings are copied
into next year's cup.

The rest of issue 25's scenario runs in two sibling modules, each in Chromium and in Chinese:
problem 4 (the break into the wizard's top-8 knockout, clubmates kept apart, the bracket with
its round names) in `test_knockout_bracket.py`; problems 5-8 (the correction form, invited staff
signed in with their tabs and a styled 403, English labels and punctuation, import templates with
a captain column, the club picker, the open add form, the individual draft) in
`test_organiser_edges_people.py`.

With SHOTS_DIR set, the draft page with the late arrival, the dashboard, the reopen
confirmation and the copy page are saved at 390 px and 1280 px in both languages.
"""

from __future__ import annotations

import datetime
import os
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from matches.models import Event, Round, RoundLog, Stage
from matches.standings import service as standings

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["崂山一队", "崂山二队", "市北一队", "市北二队", "黄岛一队", "黄岛二队"]
LATE = "李沧迟到队"
A_WINS = [1, 2, 3, 4, 5, 6]
SCREENS = os.environ.get("SHOTS_DIR")


@pytest.fixture(autouse=True)
def patient_expectations():
    expect.set_options(timeout=20_000)
    yield
    expect.set_options(timeout=5_000)


@pytest.fixture
def cup(transactional_db):
    """Six unions checked in; Swiss (2 rounds) then a knockout of four, as the wizard makes it."""
    from tests.builder import EventBuilder

    b = EventBuilder(
        unions=len(NAMES),
        deals=1,
        planned_rounds=2,
        stage_name="瑞士制",
        name="2026 青岛杯",
        start_date=datetime.date(2026, 6, 1),
        names=NAMES,
        clubs=["崂山俱乐部", "市北俱乐部", "黄岛俱乐部"],
    )
    b.register()
    Stage.objects.create(
        event=b.event,
        order=2,
        name="淘汰赛",
        format=Stage.Format.SINGLE_ELIMINATION,
        qualifiers=4,
        planned_rounds=2,
    )
    b.event.organisers.add(get_user_model().objects.create_user("org", password="pw-org"))
    return b


def shoot(browser, base, sign_in, path: str, name: str) -> None:
    """The organiser's page at 390 and 1280 px, in Chinese and in English (`sign_in`: the
    `signed_in` fixture)."""
    if not SCREENS:
        return
    os.makedirs(SCREENS, exist_ok=True)
    for locale, lang in (("zh-CN", "zh"), ("en-US", "en")):
        for width in (390, 1280):
            context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
            page = context.new_page()
            page.set_default_timeout(30_000)
            sign_in(page, "org")
            page.goto(base + path)
            page.screenshot(
                path=os.path.join(SCREENS, f"{name}-{lang}-{width}.png"), full_page=True
            )
            context.close()


def message(page, text: str) -> None:
    expect(page.locator(".messages, [role='status'], main").first).to_contain_text(text)


def test_a_new_organiser_meets_the_edges(live_server, browser, page, cup, signed_in):
    base = live_server.url
    event = cup.event
    page.set_default_timeout(30_000)
    signed_in(page, "org")
    dashboard = f"{base}/manage/events/{event.pk}/"

    # 1. The defaults draw the Swiss round, not the knockout.
    page.goto(dashboard)
    expect(page.locator("#stage")).to_have_value(str(cup.stage.pk))
    page.locator("#draw-round").click()
    expect(page.locator("tr[data-round='1']")).to_contain_text("草稿")
    expect(page.locator("tr[data-round='1']")).to_contain_text("瑞士制")
    first = Round.objects.get(event=event, number=1)
    assert first.stage == cup.stage and first.sides.count() == len(NAMES)

    # 1. The draft is deleted, behind a confirmation page, and drawn again.
    page.locator("[data-delete-draft='1']").click()
    expect(page.locator("h1")).to_contain_text("删除第 1 轮草稿")
    page.locator("#confirm-submit").click()
    expect(page.locator("body")).to_contain_text("第 1 轮草稿已删除")
    assert not Round.objects.filter(event=event).exists()
    assert RoundLog.objects.filter(event=event, action=RoundLog.Action.DELETE_DRAFT).exists()
    page.locator("#draw-round").click()
    expect(page.locator("tr[data-round='1']")).to_contain_text("草稿")

    # 3. A union arrives while round 1 is a draft: registered, then checked in.
    page.goto(f"{base}/manage/events/{event.pk}/entries/")
    details = page.locator("details.add-entry")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    page.fill("#id_union", LATE)
    page.fill("#id_player1", "李一")
    page.fill("#id_player2", "李二")
    page.fill("#id_player3", "李三")
    page.locator("#register-form button[type='submit']").click()
    expect(page.locator("body")).to_contain_text("从第 2 轮起参赛")
    expect(page.locator("body")).to_contain_text("重新编排")
    page.goto(f"{base}/manage/events/{event.pk}/checkin/")
    expect(page.locator("main")).to_contain_text("第 1 轮")  # the draft's round, not round 2
    row = page.locator("tr[data-entry]", has_text=LATE)
    row.locator("button").click()
    expect(page.locator("tr[data-entry]", has_text=LATE)).to_contain_text("已签到")

    # The dashboard and the draft name it and offer the redraw.
    page.goto(dashboard)
    expect(page.locator("#late-arrivals")).to_contain_text(LATE)
    expect(page.locator("#redraw-late")).to_be_visible()
    shoot(browser, base, signed_in, f"/manage/events/{event.pk}/", "dashboard-late-arrival")
    page.goto(f"{dashboard}rounds/1/")
    expect(page.locator("#late-arrivals")).to_contain_text(LATE)
    shoot(browser, base, signed_in, f"/manage/events/{event.pk}/rounds/1/", "draft-late-arrival")
    page.locator("#redraw-late").click()
    expect(page.locator("body")).to_contain_text(f"已排入本轮：{LATE}")
    expect(page.locator("#late-arrivals")).to_have_count(0)
    first = Round.objects.get(event=event, number=1)
    assert first.sides.filter(union__name=LATE).exists()

    # 2. Round 1 is published, played, closed, reopened with a reason, and closed again.
    page.locator("#publish-round").click()
    expect(page.locator("h1 [data-state]")).to_have_attribute("data-state", "published")
    for match in first.matches.played():
        cup.final(match, 1, A_WINS)
        standings.settle_match(match.pk)
    page.goto(f"{dashboard}rounds/1/closing/")
    page.locator("#confirm-close").click()
    expect(page.locator("h1 [data-state]")).to_have_attribute("data-state", "closed")
    shoot(browser, base, signed_in, f"/manage/events/{event.pk}/rounds/1/reopen/", "reopen-confirm")
    page.locator("#reopen-round").click()
    expect(page.locator("h1")).to_contain_text("重新开启第 1 轮")
    page.fill("#reason", "第 1 桌记分表抄错，须更正")
    page.locator("#confirm-submit").click()
    expect(page.locator("h1 [data-state]")).to_have_attribute("data-state", "published")
    expect(page.locator("body")).to_contain_text("第 1 轮已重新开启")
    page.locator("summary#log-heading").click()
    expect(page.locator(".log")).to_contain_text("第 1 桌记分表抄错，须更正")
    page.goto(f"{dashboard}rounds/1/closing/")
    page.locator("#confirm-close").click()
    expect(page.locator("h1 [data-state]")).to_have_attribute("data-state", "closed")

    # 2. Archived: gone from my events and the public page; restored from the archive.
    page.goto(dashboard)
    page.locator("#archive-event").click()
    page.locator("#confirm-submit").click()
    page.wait_for_url(re.compile(r"/manage/$"))
    expect(page.locator("body")).to_contain_text("已归档：可在“已归档”中恢复")
    expect(page.locator(".card", has_text="2026 青岛杯")).to_have_count(0)
    assert page.goto(f"{base}/events/{event.pk}/").status == 404
    page.goto(f"{base}/manage/")
    page.locator("#archived-events").click()
    page.locator(".restore-event").first.click()
    page.locator("#confirm-submit").click()
    expect(page.locator("body")).to_contain_text("赛事“2026 青岛杯”已恢复")
    assert page.goto(f"{base}/events/{event.pk}/").status == 200

    # 2. Next year's cup: the settings and stages, no entries.
    shoot(browser, base, signed_in, f"/manage/events/{event.pk}/copy/", "copy-event")
    page.goto(dashboard)
    page.locator("#copy-event").click()
    page.fill("#id_name", "2027 青岛杯")
    page.fill("#id_start_date", "2027-06-01")
    page.locator("#copy-submit").click()
    expect(page.locator("h1")).to_contain_text("2027 青岛杯")
    copy = Event.objects.get(name="2027 青岛杯")
    assert list(copy.stages.values_list("name", "format", "qualifiers")) == [
        ("瑞士制", "swiss", None),
        ("淘汰赛", "single_elimination", 4),
    ]
    assert not copy.registrations.exists() and copy.deals_per_match == event.deals_per_match
