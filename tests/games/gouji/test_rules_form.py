"""The rule-set form's variant flags (gouji-rules.md §13): the eight-players preset, the four
new flags grouped like the spec with their rule ids, and players = 8 checked against the deck
and the place points (R46, R47, D18, D28)."""

from __future__ import annotations

import pytest
from django.utils import translation

from matches.games.gouji.engine.ruleset import PRESETS
from matches.games.gouji.settings_form import RulesForm


def bound(preset: str, **changes) -> RulesForm:
    data = {k: v for k, v in RulesForm.initial_for(PRESETS[preset]).items() if v is not False}
    data.update(changes)
    data = {k: v for k, v in data.items() if v is not None}
    return RulesForm(data)


def test_the_new_flags_sit_in_the_spec_sections_with_their_rule_ids():
    form = RulesForm()
    groups = {g["key"]: [f.name for f in g["fields"]] for g in form.groups()}
    assert groups["eight"] == ["players"]
    assert groups["sixpacks"] == ["joker_groups"]
    assert groups["local"] == ["point_tributes_cancel", "two_revolutions"]
    rule_ids = {name: form.fields[name].rule_id for name in groups["eight"] + groups["local"]}
    assert rule_ids == {"players": "R44", "point_tributes_cancel": "R55", "two_revolutions": "R56"}
    assert form.fields["joker_groups"].rule_id == "R52"
    assert "eight-players" in [row["name"] for row in form.preset_rows()]


def test_the_eight_players_preset_is_stored_by_name():
    form = bound("eight-players")
    assert form.is_valid(), form.errors
    assert form.to_json() == {"preset": "eight-players"}
    assert form.rule_set().players == 8


def test_six_decks_offers_joker_groups_on():
    assert RulesForm.initial_for(PRESETS["six-decks"])["joker_groups"] is True


@pytest.mark.parametrize(
    "preset, changes, field, words_zh, words_en",
    [
        ("eight-players", {"decks": "6"}, "decks", "R46：八人够级只用四副牌", "R46: eight players"),
        (
            "eight-players",
            {"short_deck": "on"},
            "short_deck",
            "R46：八人够级不用短牌",
            "short deck",
        ),
        (
            "eight-players",
            {"place_points": "2, 1, 0, 0, -1, -2"},
            "place_points",
            "R47/D28：八人够级的名次分须是八个整数",
            "R47/D28: eight players need eight place points",
        ),
        ("standard", {"players": "8"}, "place_points", "R47/D28", "R47/D28"),
        (
            "standard",
            {"place_points": "3, 2, 1, 0, 0, -1, -2, -3"},
            "place_points",
            "R31：名次分须是六个整数",
            "R31",
        ),
    ],
)
def test_players_8_is_checked_with_clear_errors(preset, changes, field, words_zh, words_en):
    with translation.override("zh-hans"):
        form = bound(preset, **changes)
        assert not form.is_valid()
        assert any(words_zh in str(e) for e in form.errors[field]), form.errors
    with translation.override("en"):
        form = bound(preset, **changes)
        assert not form.is_valid()
        assert any(words_en in str(e) for e in form.errors[field]), form.errors


def test_standard_with_eight_players_and_eight_place_points_is_accepted():
    form = bound("standard", players="8", place_points="3, 2, 1, 0, 0, -1, -2, -3")
    assert form.is_valid(), form.errors
    assert form.to_json() == {
        "preset": "standard",
        "players": 8,
        "place_points": [3, 2, 1, 0, 0, -1, -2, -3],
    }
