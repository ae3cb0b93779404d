"""The line under a table's last deal: "all confirmed" only once no report of the table still
waits for a confirmation (a Giog table whose last hand waits for another player's PIN said
every hand was final)."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.models import DealReport, Event
from tests.builder import GIOG, EventBuilder

pytestmark = pytest.mark.django_db


def table_page(built) -> str:
    link = built.people.referee_link
    return Client().get(f"/ref/{link.token}/").content.decode()


def test_a_giog_table_whose_hands_wait_for_a_players_pin_does_not_say_all_final():
    built = EventBuilder(GIOG, players=8, deals=2, confirmation=Event.Confirmation.PLAYER)
    built.register().draw()
    built.report_all(confirm=False)  # every hand reported by the organiser, none confirmed
    match = built.first_match()
    assert DealReport.objects.filter(deal__match=match, state="pending").count() == 2
    page = table_page(built)
    assert "本桌所有手均已报告，尚有手等待确认。" in page
    assert "本桌所有手均已确认。" not in page


def test_a_giog_table_whose_hands_are_final_at_submission_says_all_final():
    built = EventBuilder(GIOG, players=8, deals=2, confirmation=Event.Confirmation.NONE)
    built.register().draw()
    built.report_all(confirm=False)
    match = built.first_match()
    assert not DealReport.objects.filter(deal__match=match, state="pending").exists()
    page = table_page(built)
    assert "本桌所有手均已确认。" in page
    assert "尚有手等待确认" not in page
