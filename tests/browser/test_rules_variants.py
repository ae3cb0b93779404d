"""The rule-set step of the wizard with the variants (gouji-rules.md §13): the eight-players
preset refills the form (eight place points, §10 group with R44), players = 8 with six packs and
six place points is refused with R46 and R47/D28 on the fields, in Chinese and in English, at
390 and 1280 px (with SHOTS_DIR set, screenshots of each into that folder)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "pw-fresh-organiser"
SHOTS = Path(os.environ.get("SHOTS_DIR", "")) if os.environ.get("SHOTS_DIR") else None


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def to_rules_step(page, base):
    page.goto(f"{base}/manage/new/?restart=1")
    page.locator("input[name='game'][value='gouji']").check()
    page.fill("#id_name", "八人够级杯")
    page.fill("#id_start_date", "2026-06-01")
    page.locator("input[name='entry_type']").first.check()
    page.locator("#wizard-next").click()
    expect(page.locator("#id_stage1_format")).to_be_visible()
    page.fill("#id_stage1_rounds", "5")
    page.locator("input[name='result_confirmation']").first.check()
    page.locator("#wizard-next").click()
    expect(page.locator("input[name='step'][value='rules']")).to_have_count(1)


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_eight_players_preset_and_its_checks_in_the_wizard(
    live_server, page, signed_in, language
):
    get_user_model().objects.create_user("fresh", password=PASSWORD)
    base = live_server.url
    signed_in(page, "fresh", PASSWORD)
    page.goto(f"{base}/lang/?language={language}&next=/manage/")
    to_rules_step(page, base)
    page.locator("#preset-eight-players").check()
    expect(page.locator("#id_place_points")).to_have_value("3, 2, 1, 0, 0, -1, -2, -3")
    expect(page.locator("#group-eight")).to_contain_text("R44")
    expect(page.locator("#group-sixpacks")).to_contain_text("R52")
    expect(page.locator("#group-local")).to_contain_text("R55")
    expect(page.locator("#group-local")).to_contain_text("R56")
    shots = SHOTS is not None and SHOTS.is_dir()
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        if shots:
            page.screenshot(
                path=str(SHOTS / f"wizard-eight-{language}-{width}.png"), full_page=True
            )
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, width
    page.locator("#id_decks").select_option("6")
    page.fill("#id_place_points", "2, 1, 0, 0, -1, -2")
    page.locator("#wizard-next").click()
    errors = page.locator(".field.has-errors")
    expect(errors.first).to_be_visible()
    text = page.locator("main").inner_text()
    if language == "zh-hans":
        assert "R46：八人够级只用四副牌" in text and "R47/D28：八人够级的名次分须是八个整数" in text
    else:
        assert "R46: eight players play four packs" in text
        assert "R47/D28: eight players need eight place points" in text
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        if shots:
            page.screenshot(
                path=str(SHOTS / f"wizard-eight-errors-{language}-{width}.png"), full_page=True
            )
