"""Issue 46, problem 6: the wizard's step 3 keeps the rule set chosen through a reload, and the
event's rule set is named in one line (the game's own words) on the dashboard, the entries and
check-in pages and the table card; the table card draws the seats around the table."""

from __future__ import annotations

import re
import subprocess

import pytest
from django.urls import reverse

from matches.models import Event
from tests.organiser.test_setup import BASICS, FORMAT
from tests.personas import english, signed_in_organiser
from tests.standings.test_manage import pdf_text

pytestmark = pytest.mark.django_db

EIGHT = {"preset": "eight-players"}


@pytest.fixture
def organiser(client):
    return signed_in_organiser(client)


def _to_step_3(client):
    url = reverse("manage:new-event")
    client.get(url + "?restart=1")
    client.post(url, BASICS)
    client.post(url, FORMAT)
    return url


def _checked_preset(page: str) -> str:
    found = re.search(r'name="preset" value="([\w-]+)" checked', page)
    return found.group(1) if found else ""


def test_a_reload_of_step_3_keeps_the_preset_picked(client, organiser):
    url = _to_step_3(client)
    client.post(url, {"step": "rules", "apply_preset": "1", "preset": "eight-players"})
    reloaded = client.get(url).content.decode()  # a reload: GET without ?step
    assert 'name="step" value="rules"' in reloaded
    assert _checked_preset(reloaded) == "eight-players"
    assert 'name="players" value="8"' not in reloaded  # a select: the option chosen instead
    assert re.search(r'<option value="8" selected>', reloaded)


def test_a_changed_rule_is_kept_as_it_is_changed_and_on_the_way_back(client, organiser):
    from matches.games.gouji.engine.ruleset import PRESETS
    from matches.games.gouji.settings_form import RulesForm

    url = _to_step_3(client)
    client.post(url, {"step": "rules", "apply_preset": "1", "preset": "eight-players"})
    data = {k: v for k, v in RulesForm.initial_for(PRESETS["eight-players"]).items() if v}
    data = {k: ", ".join(map(str, v)) if isinstance(v, tuple) else v for k, v in data.items()}
    data.update(step="rules", string_three_score="30")
    kept = client.post(url, {**data, "keep_rules": "1"})
    assert kept.status_code == 204
    assert 'name="string_three_score" value="30"' in client.get(url).content.decode()
    # A refused value is not kept: the last good one stays.
    client.post(url, {**data, "string_three_score": "abc", "keep_rules": "1"})
    assert 'name="string_three_score" value="30"' in client.get(url).content.decode()
    # Back to step 2 and on again: step 3 as left.
    client.post(url, {**data, "string_three_score": "28", "back": "1"})
    again = client.post(url, FORMAT).content.decode()
    assert 'name="string_three_score" value="28"' in again
    assert _checked_preset(again) == "eight-players"


def test_the_event_made_after_a_reload_has_the_rules_picked(client, organiser):
    url = _to_step_3(client)
    client.post(url, {"step": "rules", "apply_preset": "1", "preset": "eight-players"})
    page = client.get(url).content.decode()
    # Post step 3 as the reloaded page holds it (every field at the value shown).
    from matches.games.gouji.engine.ruleset import PRESETS
    from matches.games.gouji.settings_form import RulesForm

    data = {k: v for k, v in RulesForm.initial_for(PRESETS["eight-players"]).items() if v}
    data = {k: ", ".join(map(str, v)) if isinstance(v, tuple) else v for k, v in data.items()}
    assert _checked_preset(page) == data["preset"]
    assert client.post(url, {**data, "step": "rules"}).status_code == 302
    event = Event.objects.get(name=BASICS["name"])
    assert event.game_rules.rules.players == 8


PAGES = ("manage:dashboard", "manage:entries", "manage:checkin")


@pytest.mark.parametrize(
    "rules, line",
    [
        (EIGHT, "八人够级 · 四副牌 · 串四户 24"),
        (None, "六人够级 · 四副牌 · 串三户 12"),
        ({"preset": "qingdao-hold3"}, "六人够级 · 四副牌 · 串三户 12 · 憋三"),
    ],
)
def test_the_rule_line_on_the_dashboard_entries_and_checkin(client, build, rules, line):
    b = build(unions=2, deals=1, rules=rules)
    client.force_login(b.organiser)
    for name in PAGES:
        page = client.get(reverse(name, args=[b.event.pk])).content.decode()
        found = re.search(r'id="rules-line">.*?<strong>(.*?)</strong>', page, re.S)
        assert found and found.group(1) == line, name


def test_the_rule_line_in_english(client, build):
    b = build(unions=2, deals=1, rules={"preset": "six-decks"})
    client.force_login(b.organiser)
    english(client)
    page = client.get(reverse("manage:dashboard", args=[b.event.pk])).content.decode()
    found = re.search(r'id="rules-line">.*?<strong>(.*?)</strong>', page, re.S)
    assert found and "Six players" in found.group(1) and "six decks" in found.group(1)
    assert not re.search(r"[\u4e00-\u9fff]", found.group(1))


def test_a_giog_event_names_its_own_rules(client, giog):
    client.force_login(giog.organiser)
    page = client.get(reverse("manage:dashboard", args=[giog.event.pk])).content.decode()
    found = re.search(r'id="rules-line">.*?<strong>(.*?)</strong>', page, re.S)
    assert found and found.group(1) == "Giog · 2-4 人一桌 · 名次分 3/2/1/0"
    assert "够级" not in found.group(1)


def test_the_table_card_names_the_rules_and_draws_eight_seats(client, build):
    b = build(unions=2, deals=2, rules=EIGHT)
    client.force_login(b.organiser)
    b.round([(0, 1)])
    data = client.get(reverse("manage:table-cards", args=[b.event.pk, 1])).content
    text = pdf_text(data)
    assert "规则：八人够级 · 四副牌 · 串四户 24" in text
    # The drawing: each seat's box holds "seat · side · name", head rivals across the table.
    for union in b.unions:
        for player in union.players_in_order():
            assert re.search(rf"\d · [AB] · {re.escape(player.name)}", text), player.name
    assert "虚线连起对头" in text
    layout = subprocess.run(
        ["pdftotext", "-q", "-layout", "-f", "1", "-l", "1", "-", "-"],
        input=data,
        capture_output=True,
        check=True,
    ).stdout.decode()
    lines = layout.splitlines()

    def row_of(seat: int) -> int:
        return next(k for k, line in enumerate(lines) if re.search(rf"\b{seat} · [AB] · ", line))

    # Seat 1 at the bottom, seat 5 (its head rival, R45) at the top; 3 and 7 on one level.
    assert row_of(5) < row_of(3) < row_of(1) and row_of(3) == row_of(7)


def test_a_six_seat_card_faces_head_rivals(client, build):
    b = build(unions=2, deals=1)
    client.force_login(b.organiser)
    b.round([(0, 1)])
    data = client.get(reverse("manage:table-cards", args=[b.event.pk, 1])).content
    text = pdf_text(data)
    assert "规则：六人够级 · 四副牌 · 串三户 12" in text
    layout = subprocess.run(
        ["pdftotext", "-q", "-layout", "-f", "1", "-l", "1", "-", "-"],
        input=data,
        capture_output=True,
        check=True,
    ).stdout.decode()
    lines = layout.splitlines()

    def row_of(seat: int) -> int:
        return next(k for k, line in enumerate(lines) if re.search(rf"\b{seat} · [AB] · ", line))

    assert row_of(4) < row_of(1)  # 1 and 4 face each other (R2)
    assert row_of(2) == row_of(6) and row_of(3) == row_of(5)
