"""A 擂台赛 ladder season in the browser: an organiser seeds the eight titles, opens a session,
enters every challenge's 局 on the phone-sized page, closes the session, and the public ladder
shows the challenger that beat everyone as the new 主将 (docs/ladder.md)."""

from __future__ import annotations

import os

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from matches.models import LadderSeason

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]

SCREENS = os.environ.get("SCREENSHOTS_DIR", "")
WIN = "10:0 10:0 10:0 10:0\n10:0 10:0 10:0 10:0"
LOSE = "0:10 0:10 0:10 0:10\n0:10 0:10 0:10 0:10"
DEFENDERS = [f"守擂{i}队" for i in range(1, 9)]


def shoot(browser, base, path: str, name: str, sign_in=None) -> None:
    if not SCREENS:
        return
    os.makedirs(SCREENS, exist_ok=True)
    for locale, lang in (("zh-CN", "zh"), ("en-US", "en")):
        for width in (390, 1280):
            context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
            page = context.new_page()
            if sign_in:
                sign_in(page, "laoli")
            page.goto(base + path)
            page.screenshot(
                path=os.path.join(SCREENS, f"{name}-{lang}-{width}.png"), full_page=True
            )
            context.close()


def test_a_ladder_season_from_seeding_to_a_new_chief(live_server, browser, phone_page, signed_in):
    get_user_model().objects.create_user("laoli", password="pw-laoli")
    page, base = phone_page, live_server.url
    signed_in(page, "laoli")

    page.goto(f"{base}/manage/")
    page.locator("#ladders").click()
    page.fill("#ladder-name", "2027 青岛擂台赛")
    page.locator("#new-ladder button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("2027 青岛擂台赛")

    teams = DEFENDERS + ["黄岛攻擂队", "市南攻擂队"]
    page.fill("#teams-text", "\n".join(f"{name} / 黄岛 / 甲、乙、丙" for name in teams))
    page.locator("#teams-form button[type=submit]").click()
    for rank, name in enumerate(DEFENDERS, start=1):
        page.locator(f"select[data-rank='{rank}']").select_option(label=name)
    page.locator("#seed-save").click()
    expect(page.locator("#ladder-titles tr[data-slot='chief-1'] .name")).to_contain_text("守擂1队")

    page.locator("#start-session").click()
    cards = page.locator("article.ladder-challenge")
    expect(cards).to_have_count(10)  # two challengers x five 先锋, no knockout for two
    # 黄岛攻擂队 wins every challenge, 市南攻擂队 loses every one: five 先锋, two 副将, the 主将.
    entered = 0
    while cards.count():
        card = cards.first
        heading = card.locator("h3").inner_text()
        card.locator("textarea[name=games]").fill(
            WIN if "黄岛攻擂队" in heading.split("–")[0] else LOSE
        )
        card.locator("button.primary").click()
        entered += 1
        assert entered < 20
    assert entered == 5 + 5 + 2 + 1
    page.locator("#close-session").click()
    expect(page.locator("#ladder-titles tr[data-slot='chief-1'] .name")).to_contain_text(
        "黄岛攻擂队"
    )
    page.locator("#ladder-publish").click()

    season = LadderSeason.objects.get()
    page.goto(f"{base}/")
    page.locator("#home-ladders a", has_text="2027 青岛擂台赛").click()
    expect(page.locator("#ladder-titles tr[data-slot='chief-1'] .name")).to_contain_text(
        "黄岛攻擂队"
    )
    first = page.locator("#ladder-points tbody tr").first
    expect(first).to_contain_text("黄岛攻擂队")
    expect(first).to_contain_text(str(5 * 1 + 2 * 3 + 6))
    expect(page.locator("#ladder-history tbody tr")).to_have_count(13)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the public ladder scrolls sideways on a phone ({width} px)"

    shoot(browser, base, f"/manage/ladders/{season.pk}/", "ladder-manage", sign_in=signed_in)
    shoot(browser, base, f"/events/ladders/{season.pk}/", "ladder-public")


def test_an_unpublished_ladder_is_not_public_and_another_account_cannot_run_it(
    live_server, page, signed_in
):
    owner = get_user_model().objects.create_user("laoli", password="pw-laoli")
    get_user_model().objects.create_user("xiaowang", password="pw-xiaowang")
    from matches.ladder import service

    season = service.create_season(owner, "内部擂台赛")
    response = page.goto(f"{live_server.url}/events/ladders/{season.pk}/")
    assert response.status == 404
    signed_in(page, "xiaowang")
    response = page.goto(f"{live_server.url}/manage/ladders/{season.pk}/")
    assert response.status == 403
