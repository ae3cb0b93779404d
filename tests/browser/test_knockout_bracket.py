"""Issue 25, problem 4, in Chromium: Swiss rounds, then the wizard's top-8 knockout.

Twelve unions in four clubs play two Swiss rounds. The organiser opens the break page: it
proposes the wizard's eight, confirming fills the wizard's knockout stage (no second stage).
The quarter-finals are drawn from the dashboard (clubmates kept apart where the bracket allows,
the summary's count the real one), published, played; the bracket (对阵图) shows the winners
advancing and the round names, for the organiser and the public, in Chinese and English; the
semi-finals and the final follow until the champion stands at the end of the bracket.

Deal results come in through the results service (`tests.builder`), as the referee pages store
them. With SHOTS_DIR set, the bracket pages are saved at 390 and 1280 px in both languages.
"""

from __future__ import annotations

import datetime
import os

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from matches.draw import service as draw
from matches.models import Round, Stage
from matches.standings import service as standings

pytestmark = pytest.mark.django_db(transaction=True)

CLUBS = ["崂山俱乐部", "市北俱乐部", "黄岛俱乐部", "李沧俱乐部"]
A_WINS = [1, 2, 3, 4, 5, 6]
B_WINS = [2, 1, 4, 3, 6, 5]
SCREENS = os.environ.get("SHOTS_DIR")


@pytest.fixture(autouse=True)
def patient_expectations():
    expect.set_options(timeout=20_000)
    yield
    expect.set_options(timeout=5_000)


@pytest.fixture
def cup(transactional_db):
    """Twelve unions in four clubs, two Swiss rounds played and closed, and the knockout stage
    as the wizard makes it (single elimination of 8)."""
    from tests.builder import EventBuilder

    b = EventBuilder(
        unions=12,
        deals=1,
        planned_rounds=2,
        clubs=CLUBS,
        name="青岛俱乐部杯",
        start_date=datetime.date(2026, 6, 1),
        names=[f"{club[:2]}{k}队" for k in "一二三" for club in CLUBS],
    ).register()
    b.knockout = b.add_stage(format=Stage.Format.SINGLE_ELIMINATION, qualifiers=8, planned_rounds=3)
    b.play_rounds(2)
    b.event.organisers.add(get_user_model().objects.create_user("org", password="pw-org"))
    return b


def play(b, round_: Round) -> dict:
    """Every table's deal final (side A wins on odd tables, B on even ones); the round closed.
    Returns {table: winner's name}."""
    winners = {}
    for match in round_.matches.played().with_sides().select_related("table"):
        a_wins = match.table.number % 2 == 1
        b.final(match, 1, A_WINS if a_wins else B_WINS)
        standings.settle_match(match.pk)
        winners[match.table.number] = (match.union_a if a_wins else match.union_b).name
    draw.close_round(round_)
    return winners


def shoot(browser, base, path: str, name: str, *, sign_in=None) -> None:
    """The page at 390 and 1280 px in both languages; `sign_in`: the `signed_in` fixture, for
    organiser pages."""
    if not SCREENS:
        return
    os.makedirs(SCREENS, exist_ok=True)
    for locale, lang in (("zh-CN", "zh"), ("en-US", "en")):
        for width in (390, 1280):
            context = browser.new_context(locale=locale, viewport={"width": width, "height": 900})
            page = context.new_page()
            page.set_default_timeout(30_000)
            if sign_in:
                sign_in(page, "org")
            page.goto(base + path)
            page.screenshot(
                path=os.path.join(SCREENS, f"{name}-{lang}-{width}.png"), full_page=True
            )
            context.close()


def test_swiss_then_the_wizards_top_eight_knockout_with_its_bracket(
    live_server, browser, page, cup, signed_in
):
    base, event = live_server.url, cup.event
    manage = f"{base}/manage/events/{event.pk}"
    signed_in(page, "org")

    # --- the break: the wizard's eight, confirmed into the wizard's stage ----------------------
    page.goto(f"{manage}/break/")
    expect(page.locator("#break-form input[name='size']")).to_have_value("8")
    expect(page.locator(".break-table tbody tr")).to_have_count(12)
    expect(page.locator(".break-table tbody tr:not(.out)")).to_have_count(8)
    expect(page.locator(".break-table tbody tr").first.locator("[data-reason]")).not_to_be_empty()
    shoot(browser, base, f"/manage/events/{event.pk}/break/", "break", sign_in=signed_in)
    page.locator("#confirm-break").click()
    expect(page.locator(".messages")).to_contain_text("晋级名单已确认")
    assert event.stages.count() == 2
    cup.knockout.refresh_from_db()
    assert len(cup.knockout.break_unions) == 8

    # --- the quarter-finals, drawn from the dashboard -----------------------------------------
    page.goto(f"{manage}/")
    page.locator("select#stage").select_option(str(cup.knockout.pk))
    page.locator("#draw-round").click()
    expect(page.locator("tr[data-round='3']")).to_contain_text("草稿")
    quarter = Round.objects.get(event=event, number=3)
    real = sum(1 for m in quarter.matches.with_sides() if m.union_a.club_id == m.union_b.club_id)
    assert quarter.quality["club_clashes"] == real == 0
    page.goto(f"{manage}/rounds/3/")
    expect(page.locator("[data-quality]")).to_contain_text("同俱乐部相遇 0")
    expect(page.locator(".round-tables")).not_to_contain_text("跨分组")
    page.locator("#publish-round").click()
    expect(page.locator("h1 [data-state]")).to_have_attribute("data-state", "published")

    # The organiser's bracket: three rounds, named; nobody has won yet.
    page.goto(f"{manage}/bracket/")
    names = page.locator(".bracket-name")
    expect(names.nth(0)).to_contain_text("1/4决赛")
    expect(names.nth(1)).to_contain_text("半决赛")
    expect(names.nth(2)).to_contain_text("决赛")
    expect(page.locator(".bracket-side.winner")).to_have_count(0)

    # --- results: the winners move into the semi-finals ---------------------------------------
    quarter_winners = play(cup, quarter)
    page.reload()
    semi_column = page.locator(".bracket-round[data-stage-round='2']")
    for name in quarter_winners.values():
        expect(semi_column).to_contain_text(name)
    expect(page.locator(".bracket-round[data-stage-round='1'] .bracket-side.winner")).to_have_count(
        4
    )

    # The public sees the same bracket, in Chinese and in English.
    page.goto(f"{base}/events/{event.pk}/")
    page.locator("#bracket-link").click()
    expect(page.locator(".bracket-round[data-stage-round='2']")).to_contain_text(quarter_winners[1])
    expect(page.locator(".bracket-name").nth(0)).to_contain_text("1/4决赛")
    english = browser.new_context(locale="en-US")
    reader = english.new_page()
    reader.goto(f"{base}/events/{event.pk}/bracket/")
    for k, name in enumerate(["Quarter-final", "Semi-final", "Final"]):
        expect(reader.locator(".bracket-name").nth(k)).to_contain_text(name)

    # --- semi-finals and the final: the champion at the end of the bracket --------------------
    semis = draw.create_round(cup.knockout)
    draw.publish_round(semis)
    semi_winners = play(cup, semis)
    final = draw.create_round(cup.knockout)
    assert {final.matches.get().union_a.name, final.matches.get().union_b.name} == set(
        semi_winners.values()
    )
    draw.publish_round(final)
    champion = play(cup, final)[1]
    reader.reload()
    expect(reader.locator(".bracket-round.champion")).to_contain_text(champion)
    expect(reader.locator(".bracket-round.champion .bracket-name")).to_contain_text("Champion")
    english.close()
    page.goto(f"{manage}/bracket/")
    expect(page.locator(".bracket-round.champion")).to_contain_text(champion)
    expect(page.locator(".bracket-round.champion .bracket-name")).to_contain_text("冠军")
    shoot(browser, base, f"/manage/events/{event.pk}/bracket/", "bracket-manage", sign_in=signed_in)
    shoot(browser, base, f"/events/{event.pk}/bracket/", "bracket-public")
