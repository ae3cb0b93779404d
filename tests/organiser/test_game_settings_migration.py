"""Migration 0015 moves each event's rule set (Gou Ji) or points per place (Giog) into the one
`game_settings` document its game reads, and back."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("matches", "0014_drawedges_undo_and_archive")]
AFTER = [("matches", "0015_types_game_settings")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_existing_events_keep_their_settings_in_game_settings():
    old = migrate(BEFORE)
    Event = old.get_model("matches", "Event")
    day = datetime.date(2026, 5, 1)
    gouji = Event.objects.create(
        name="够级", start_date=day, game="gouji", rules={"preset": "six-decks", "decks": 6}
    )
    giog = Event.objects.create(name="Giog", start_date=day, game="giog", place_points=[5, 3, 1, 0])
    try:
        new = migrate(AFTER)
        Event = new.get_model("matches", "Event")
        assert Event.objects.get(pk=gouji.pk).game_settings == {
            "rules": {"preset": "six-decks", "decks": 6}
        }
        assert Event.objects.get(pk=giog.pk).game_settings == {"place_points": [5, 3, 1, 0]}

        back = migrate(BEFORE)
        Event = back.get_model("matches", "Event")
        assert Event.objects.get(pk=gouji.pk).rules == {"preset": "six-decks", "decks": 6}
        assert Event.objects.get(pk=giog.pk).place_points == [5, 3, 1, 0]
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
