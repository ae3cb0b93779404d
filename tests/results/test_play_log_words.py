"""What a refused or disagreeing play log says on the table phone: the rule broken with the cards
it is about (R52 names both joker groups and their weights), no bare "成绩与牌谱回放不符" after a
replay that stopped, and each real disagreement naming its field and both values."""

from __future__ import annotations

import copy
import json

import pytest
from django.test import Client
from django.utils import translation

from matches.games.gouji import messages
from matches.games.gouji.engine.selfplay import selfplay
from matches.models import DealReport, Event
from tests.builder import EventBuilder

pytestmark = pytest.mark.django_db

#: the self-played six-pack deal (seed 2, the third) whose step 12 is seat 6's R, answered by
#: seat 3 with BR at step 13; seat 3 also holds a second B
LEAD, ANSWER = 12, 13


def six_pack_log() -> dict:
    record = copy.deepcopy(list(selfplay(3, 2, "six-decks"))[2])
    assert record["actions"][LEAD - 1] == {"seat": 6, "cards": "R"}
    assert record["actions"][ANSWER - 1] == {"seat": 3, "cards": "BR"}
    return record


def light_group_log() -> dict:
    """Seat 3 answers R (weight 2) with BB (weight 2): R52 refuses it."""
    record = six_pack_log()
    record["actions"][ANSWER - 1] = {"seat": 3, "cards": "BB"}
    return record


@pytest.fixture
def six_decks():
    b = EventBuilder(
        unions=2, deals=2, rules={"preset": "six-decks"}, confirmation=Event.Confirmation.NONE
    ).register()
    b.round([(0, 1)])
    return f"/ref/{b.people.referee_link.token}/"


def check(url: str, log: dict, language: str = "zh-hans") -> str:
    form = {"play_log": json.dumps(log), "idempotency_key": "k"}
    response = Client().post(
        url + "deals/1/check", form, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE=language
    )
    return response.content.decode()


def test_r52_names_both_joker_groups_and_their_weights(six_decks):
    html = check(six_decks, light_group_log())
    assert 'data-rule="R52"' in html
    assert "小王×2（重 2）管不上 大王（重 2）" in html
    # The replay stopped at step 13: nothing the log claims is held against what it reached.
    assert "成绩与牌谱回放不符" not in html and "play_log_mismatch" not in html
    assert html.count('class="problem"') == 1
    with translation.override("en"):
        error = {
            "rule": "R52",
            "code": "does_not_beat",
            "params": {"weight": 2, "top": 2, "cards": "BB", "top_cards": "R"},
        }
        assert (
            messages.describe(error)
            == "small joker×2 (weight 2) does not beat big joker (weight 2)"
        )
    assert not DealReport.objects.exists()


def test_a_disagreement_names_its_field_and_both_values(six_decks):
    record = six_pack_log()
    record["claimed"]["points"] = [2, 6]  # the log's own claim leaves out seats 1, 5 and 3
    html = check(six_decks, record)
    assert 'data-code="play_log_mismatch"' in html
    assert "成绩与牌谱回放不符：开点，成绩写的是 2, 6，牌谱回放得出 " in html
    html = check(six_decks, record, "en")
    assert "the result says 2, 6, the replay gives " in html


def test_a_mismatch_stored_before_it_named_its_field_still_reads():
    # Verdicts stored earlier carry no params: the short sentence, never a "?" in its place.
    error = {"rule": None, "code": "play_log_mismatch", "message": "points: …"}
    assert messages.describe(error) == "成绩与牌谱回放不符"
