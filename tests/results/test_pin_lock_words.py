"""A locked PIN says one thing about who can help (issue 46, "two wrong-PIN messages disagree on
who can help"): the refusal under the PIN box and the lock's note beside it name the same
people, in Chinese and English; a player's locked PIN is not called a captain's and names who
helps in an event confirmed by players."""

from __future__ import annotations

import html as markup
import re

import pytest
from django.test import Client

from matches.models import DealReport, Event, RefereeLink
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db

FORM = {
    "finish": "1,2,3,4,5,6",
    "point_3": "1",
    "idempotency_key": "k1",
    "burn_rows": "1",
    "suff_rows": "1",
}


def text_of(html: str, css_class: str) -> str:
    found = re.search(rf'<p class="{css_class}[^"]*"[^>]*>(.*?)</p>', html, re.S)
    assert found is not None, css_class
    return " ".join(markup.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def locked_page(setup, language: str) -> str:
    phone = Client()
    phone.cookies["django_language"] = language
    base = f"/ref/{setup.link.token}/"
    assert phone.post(base + "deals/1/submit", FORM).status_code == 302
    report = DealReport.objects.get()
    for _try in range(5):
        html = phone.post(
            base + f"reports/{report.pk}/pin",
            {"side": "B", "pin": "0000", "agrees": "yes"},
            follow=True,
        ).content.decode()
    return html


def test_the_captains_lock_refusal_and_its_note_name_the_same_helpers(setup):
    html = locked_page(setup, "zh-hans")
    refusal, note = text_of(html, "pin-error"), text_of(html, "pin-lock-note")
    assert "输错太多次" in refusal and "输错太多次" in note
    for helper in ("本桌裁判", "组织者可以解锁", "裁判也可以代队长确认"):
        assert helper in refusal and helper in note, helper
    assert "请组织者确认" not in refusal  # the old refusal sent everyone to the organiser


def test_the_same_in_english(setup):
    html = locked_page(setup, "en")
    refusal, note = text_of(html, "pin-error"), text_of(html, "pin-lock-note")
    for helper in (
        "table's referee",
        "an organiser can lift the lock",
        "may also confirm in the captain's place",
    ):
        assert helper in refusal and helper in note, helper


def test_a_players_locked_pin_is_a_players_and_names_who_helps():
    built = EventBuilder(
        players=6,
        deals=2,
        entry_type=Event.EntryType.INDIVIDUAL,
        confirmation=Event.Confirmation.PLAYER,
    ).register()
    table = built.draw().tables.get()
    link = RefereeLink.objects.create(table=table, label="phone")
    phone = Client()
    base = f"/ref/{link.token}/"
    form = {**FORM, "finish": "1,3,5,2,4,6", "point_3": ""}
    assert phone.post(base + "deals/1/submit", form).status_code == 302
    report = DealReport.objects.get()
    assert report.score_a > report.score_b
    for _try in range(5):
        html = phone.post(
            base + f"reports/{report.pk}/player-pin",
            {"seat": "2", "pin": "0000", "agrees": "yes"},
            follow=True,
        ).content.decode()
    refusal = text_of(html, "pin-error")
    assert "这名选手的密码输错太多次" in refusal and "队长" not in refusal
    assert "同桌其他可以确认的选手" in refusal and "待处理的成绩" in refusal
