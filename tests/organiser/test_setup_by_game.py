"""The wizard and the settings pages ask the game and the entry type, never a game's name or the
shape of its settings (issue 24): a knockout only where entrants are registered unions (the break
takes nobody else), a preset through the game's settings form."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from matches.games.giog.settings_form import GiogSettingsForm
from matches.models import Event

pytestmark = pytest.mark.django_db

KNOCKOUT = 'value="single_elimination"'


@pytest.fixture
def organiser(client):
    user = get_user_model().objects.create_user("org", password="pw")
    client.force_login(user)
    return user


def basics(game: str, entry_type: str) -> dict:
    return {
        "step": "basics",
        "game": game,
        "name": f"{game} {entry_type}",
        "start_date": "2026-06-01",
        "entry_type": entry_type,
    }


FORMAT = {
    "step": "format",
    "stage1_format": "swiss",
    "stage1_rounds": "2",
    "stage2_format": "single_elimination",
    "stage2_qualifiers": "4",
    "deals_per_match": "2",
    "result_confirmation": "referee",
}


@pytest.mark.parametrize("game", ["giog", "gouji"])
def test_an_event_of_individual_entries_is_offered_no_knockout(client, organiser, game):
    url = reverse("manage:new-event")
    client.get(url + "?restart=1")
    step2 = client.post(url, basics(game, "individual"))
    assert 'name="step" value="format"' in step2.content.decode()
    assert KNOCKOUT not in step2.content.decode()
    # Nor a round robin: the individual draw pairs by standings whatever the stage says.
    assert 'value="round_robin"' not in step2.content.decode()
    assert 'value="swiss"' in step2.content.decode()
    # Posted anyway, it is refused on the page, not kept for a break the event cannot make.
    refused = client.post(url, FORMAT)
    assert refused.status_code == 400 and 'name="step" value="format"' in refused.content.decode()
    assert not Event.objects.exists()


def test_a_team_event_is_offered_the_knockout(client, organiser):
    url = reverse("manage:new-event")
    client.get(url + "?restart=1")
    step2 = client.post(url, basics("gouji", "team"))
    assert KNOCKOUT in step2.content.decode()
    step3 = client.post(url, FORMAT)
    assert step3.status_code == 200 and 'name="step" value="rules"' in step3.content.decode()


def test_the_settings_page_offers_an_individual_event_no_knockout(client, organiser):
    event = Event.objects.create(
        name="Giog 杯", start_date=datetime.date(2026, 9, 1), game="giog", entry_type="individual"
    )
    event.organisers.add(organiser)
    url = reverse("manage:settings", args=[event.pk])
    assert KNOCKOUT not in client.get(url).content.decode()
    refused = client.post(url, {"stages": "1", **FORMAT})
    assert refused.status_code == 400
    assert not event.stages.filter(format="single_elimination").exists()


def test_a_preset_is_applied_through_the_games_settings_form(client, organiser, monkeypatch):
    """The wizard hands the picked preset to the game's form, whatever its shape."""
    asked = []

    class PresetForm(GiogSettingsForm):
        @classmethod
        def preset_values(cls, preset):
            asked.append(preset)
            return {"place_points": [9, 5, 2, 0]}

    monkeypatch.setattr(
        "matches.views.organiser.events.settings_form_class", lambda game: PresetForm
    )
    url = reverse("manage:new-event")
    client.get(url + "?restart=1")
    client.post(url, basics("giog", "individual"))
    client.post(url, {**FORMAT, "stage2_format": "", "stage2_qualifiers": ""})
    page = client.post(url, {"step": "rules", "apply_preset": "1", "preset": "fast"})
    assert asked == ["fast"]
    assert 'name="place_1" value="9"' in page.content.decode()


def test_an_individual_event_speaks_of_players_not_captains(client, organiser):
    """Who checks an entry in follows the entry type: a player, where there is no union."""
    from matches.events import registration
    from players.models import Player

    event = Event.objects.create(
        name="Giog 杯",
        start_date=datetime.date(2026, 9, 1),
        game="giog",
        entry_type="individual",
        self_check_in=True,
    )
    event.organisers.add(organiser)
    entry = registration.register_player(event, Player.objects.create(name="棋手"))
    for url in (
        reverse("manage:settings", args=[event.pk]),
        reverse("manage:entry-link", args=[event.pk, entry.pk]),
    ):
        page = client.get(url).content.decode()
        assert "队长" not in page and "联邦" not in page, url
        assert "选手" in page, url


def test_a_draw_with_too_few_entrants_is_refused_in_the_organisers_language():
    """The pairing code's reasons are English; the organiser reads them in zh-hans or English."""
    from django.utils import translation

    from matches.draw.refusals import seating_reason
    from matches.kernel.pairing.types import SeatingError

    too_few = SeatingError("a round needs at least two unions", code="too_few", at_least=2)
    with translation.override("zh-hans"):
        assert seating_reason(too_few) == "参赛方太少，无法编排：至少需要 2 个（联邦或选手）"
    with translation.override("en"):
        english = seating_reason(too_few)
    assert "2" in english and "至少" not in english and "too few" in english.lower()
