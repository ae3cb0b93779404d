"""A Giog event has no unions (issue 24): set up through the wizard, drawn, its hands entered on
the table's phones and its standings published, in every confirmation mode the form offers for
Giog, and no `Union` row is ever written. Captain confirmation is not offered (a Giog side is a
single player, with no captain)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from matches.events import registration
from matches.events.forms import confirmation_choices
from matches.kernel.games.registry import adapter_named
from matches.models import DealReport, Event, MatchSide, RefereeLink, Round, Union
from players.models import Player

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "Giog-organiser-2026"
WON = {1: 15, 2: 9, 3: 6}  # a table of three: 30 pieces, multiples of 3 (G10)
GIOG_MODES = [value for value, _label in confirmation_choices(adapter_named("giog"))]


def test_the_form_offers_giog_no_captain_confirmation():
    assert Event.Confirmation.CAPTAIN not in GIOG_MODES
    assert set(GIOG_MODES) == {Event.Confirmation.REFEREE, Event.Confirmation.NONE}


def phone(browser):
    context = browser.new_context(
        locale="zh-CN", viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(30_000)
    return context, page


def enter_hand(browser, base, token):
    context, page = phone(browser)
    page.goto(f"{base}/ref/{token}/")
    expect(page.locator("#hand-title")).to_contain_text("第1手")
    for seat, won in WON.items():
        page.fill(f"#won_{seat}", str(won))
    page.locator("#won_3").blur()
    expect(page.locator("#verdict-ok")).to_be_visible()
    page.locator("#submit-hand").click()
    return context, page


@pytest.mark.parametrize("mode", GIOG_MODES)
def test_a_giog_event_runs_from_the_wizard_to_standings_without_unions(
    live_server, browser, page, mode, signed_in
):
    base = live_server.url
    unions_before = Union.objects.count()
    get_user_model().objects.create_user("giog-organiser", password=PASSWORD)
    signed_in(page, "giog-organiser", PASSWORD)

    # The wizard: Giog, individual entries; captain confirmation is not on offer.
    page.goto(f"{base}/manage/new/?restart=1")
    page.locator("input[name='game'][value='giog']").check()
    page.fill("#id_name", f"Giog 无联邦 {mode}")
    page.fill("#id_start_date", "2026-06-01")
    page.locator("input[name='entry_type'][value='individual']").check()
    page.locator("#wizard-next").click()
    expect(page.locator("#id_stage1_format")).to_be_visible()
    expect(page.locator("input[name='result_confirmation'][value='captain']")).to_have_count(0)
    page.select_option("#id_stage1_format", "swiss")
    page.fill("#id_stage1_rounds", "1")
    page.fill("#id_deals_per_match", "1")
    page.locator(f"input[name='result_confirmation'][value='{mode}']").check()
    page.locator("#wizard-next").click()
    expect(page.locator(".steps [aria-current='step']")).to_contain_text("规则")
    page.locator("#wizard-next").click()
    page.wait_for_url(re.compile(r"/manage/events/\d+/$"))
    event = Event.objects.get(name=f"Giog 无联邦 {mode}")
    assert (event.game, event.result_confirmation) == ("giog", mode)

    # The settings page offers the same modes.
    page.goto(f"{base}/manage/events/{event.pk}/settings/")
    expect(page.locator("input[name='result_confirmation'][value='captain']")).to_have_count(0)
    expect(page.locator(f"input[name='result_confirmation'][value='{mode}']")).to_be_checked()

    for k in range(1, 7):
        entry = registration.register_player(event, Player.objects.create(name=f"棋手{k}"))
        registration.check_in(entry)

    page.goto(f"{base}/manage/events/{event.pk}/")
    page.locator("#toggle-published").click()
    page.locator("#draw-round").click()
    expect(page.locator("tr[data-round='1']")).to_contain_text("草稿")
    page.locator("tr[data-round='1'] button", has_text="公布").click()
    expect(page.locator("tr[data-round='1']")).to_contain_text("已公布")
    round_ = Round.objects.get(event=event, number=1)
    assert sorted(t.seats.count() for t in round_.tables.all()) == [3, 3]
    # One side per seated player, and no union behind them.
    assert MatchSide.objects.filter(round=round_, player__isnull=False).count() == 6
    assert not MatchSide.objects.filter(round=round_, union__isnull=False).exists()

    for table in round_.tables.order_by("number"):
        reporter = RefereeLink.objects.create(table=table, label="reporter")
        context, table_phone = enter_hand(browser, base, reporter.token)
        if mode == Event.Confirmation.REFEREE:
            expect(table_phone.locator("tr[data-hand='1']")).to_contain_text("待确认")
            context.close()
            # A second referee's phone confirms it.
            second = RefereeLink.objects.create(table=table, label="second")
            context, table_phone = phone(browser)
            table_phone.goto(f"{base}/ref/{second.token}/")
            expect(table_phone.locator("#confirm-title")).to_be_visible()
            table_phone.locator(".confirm-form button[name='agrees'][value='yes']").click()
        expect(table_phone.locator("main")).to_contain_text("本桌所有手均已确认")
        context.close()
    assert DealReport.objects.final().filter(deal__match__round=round_).count() == 2
    assert all(m.is_complete for m in round_.matches.all())
    assert not round_.matches.exclude(points_a=None).exists()  # no score it did not play

    page.goto(f"{base}/manage/events/{event.pk}/rounds/1/closing/")
    expect(page.locator("#all-final")).to_be_visible()
    page.locator("#confirm-close").click()
    expect(page.locator("body")).to_contain_text("第 1 轮已结束")

    spectator = browser.new_context(locale="zh-CN").new_page()
    spectator.goto(f"{base}/events/{event.pk}/standings/")
    rows = spectator.locator("table.standings[data-game='giog'] tbody tr")
    expect(rows).to_have_count(6, timeout=20_000)
    expect(rows.locator("td:nth-child(3)")).to_have_text(
        ["3", "3", "2", "2", "0", "0"], timeout=20_000
    )
    spectator.context.close()
    assert not Union.objects.filter(event=event).exists()
    assert Union.objects.count() == unions_before
