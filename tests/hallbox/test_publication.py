"""What the box publishes: every table the public pages read, no secret (hall/publication.py).
The drill (test_drill.py) reads the mirror's tables; this holds the list itself, so a secret
column added later is caught on SQLite too."""

from __future__ import annotations

import re

from django.apps import apps

from hall import publication

SECRET_LOOKING = re.compile(r"token|pin|password|secret|key|code|email|digest", re.I)


def _published() -> dict[str, type]:
    return {m._meta.label: m for m in publication.published_models()}


def test_every_secret_looking_column_is_decided():
    undecided = []
    for label, model in _published().items():
        secret = publication.SECRET_FIELDS.get(label, frozenset())
        for field in model._meta.concrete_fields:
            if not SECRET_LOOKING.search(field.name):
                continue
            if field.name in secret or f"{label}.{field.name}" in publication.NOT_SECRET_FIELDS:
                continue
            undecided.append(f"{label}.{field.name}")
    assert undecided == []


def test_secret_columns_are_left_out_of_the_table_list():
    sql = publication.table_list()
    for label, names in publication.SECRET_FIELDS.items():
        model = apps.get_model(label)
        columns = publication.published_columns(model)
        assert columns is not None, label
        for name in names:
            column = model._meta.get_field(name).column
            assert column not in columns, (label, name)
        assert f'"{model._meta.db_table}" (' in sql


def test_kept_tables_and_djangos_own_are_not_published():
    published = {m._meta.db_table for m in publication.published_models()}
    for table in (
        "matches_refereelink",
        "matches_staffinvitation",
        "matches_workerprobe",
        "django_session",
        "authtoken_token",
        "django_admin_log",
        "auth_permission",
    ):
        assert table not in published, table
    # What the public pages read is there.
    for table in (
        "matches_event",
        "matches_dealreport",
        "matches_standingssnapshot",
        "matches_floorpass",
        "hall_hallbeat",
        "seasons_playerrating",
        "matches_ladderseason",  # the ladders app keeps its tables' names
    ):
        assert table in published, table


def test_every_watched_table_gets_an_always_trigger():
    sql = "\n".join(publication.trigger_sql())
    for label in publication.WATCHED:
        table = apps.get_model(label)._meta.db_table
        assert f'ALTER TABLE "{table}" ENABLE ALWAYS TRIGGER hallbox_notify' in sql
    assert sql.count("pg_notify('hallbox'") == len(publication.WATCHED)


def test_the_mirror_takes_rows_without_the_secret_columns():
    statements = publication.mirror_prepare_sql()
    assert 'ALTER TABLE "matches_union" ALTER COLUMN "captain_pin" DROP NOT NULL' in statements
    assert 'ALTER TABLE "auth_user" ALTER COLUMN "password" DROP NOT NULL' in statements
