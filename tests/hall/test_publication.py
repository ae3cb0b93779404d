"""What the box publishes: every table the public pages read, no secret and no personal data
(hall/publication.py). The drill (test_drill.py) and the doc's walk (test_doc_commands.py) read
the mirror's tables; this holds the list itself, so a column added later by anyone, in any
published app, is caught on SQLite too."""

from __future__ import annotations

import re

from django.apps import apps

from hall import publication
from matches.public import forgets

SECRET_LOOKING = re.compile(r"token|pin|password|secret|key|code|email|digest", re.I)
# What a person gives the organiser and nobody else: never on the public mirror.
PERSONAL_LOOKING = re.compile(
    r"id_?(number|no|card)|identity|passport|contact|phone|mobile|tel(ephone)?$|address|addr$"
    r"|birth|born|dob$|e_?mail|wechat|weixin|(^|_)qq($|_)|guardian|emergency|gender|sex$",
    re.I,
)


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


def test_every_personal_looking_column_is_left_out():
    """Over every published table, whoever added it: a column named like an identity number,
    contact details, a phone, an address or a birth date is private, never "public with a
    reason"."""
    undecided = []
    for label, model in _published().items():
        private = publication.SECRET_FIELDS.get(label, frozenset())
        for field in model._meta.concrete_fields:
            if PERSONAL_LOOKING.search(field.name) or PERSONAL_LOOKING.search(field.column):
                if field.name not in private:
                    undecided.append(f"{label}.{field.name}")
    assert undecided == []


def test_the_personal_pattern_knows_the_names_people_use():
    for name in (
        "id_number",
        "idcard",
        "contact",
        "contact_phone",
        "phone",
        "mobile",
        "address",
        "home_address",
        "birth_date",
        "date_of_birth",
        "email",
        "wechat",
        "emergency_contact",
    ):
        assert PERSONAL_LOOKING.search(name), name
    for name in ("name", "club", "stage", "seat", "member_number", "published", "telemetry"):
        assert not PERSONAL_LOOKING.search(name), name


def test_players_identity_numbers_and_contacts_stay_on_the_box():
    from players.models import Player

    columns = publication.published_columns(Player)
    assert columns is not None
    assert "id_number" not in columns and "contact" not in columns
    assert "name" in columns and "club_id" in columns
    assert '"players_player" (' in publication.table_list()


def test_every_published_json_column_is_decided():
    """A JSON column can hold a copy of a whole record (the merge log held a player's identity
    number and contact): each is private or says what it holds."""
    from django.db import models

    undecided = []
    for label, model in _published().items():
        private = publication.SECRET_FIELDS.get(label, frozenset())
        for field in model._meta.concrete_fields:
            if not isinstance(field, models.JSONField) or field.name in private:
                continue
            if f"{label}.{field.name}" not in publication.PUBLIC_JSON_FIELDS:
                undecided.append(f"{label}.{field.name}")
    assert undecided == []
    merge = apps.get_model("seasons.PlayerMerge")
    assert "merged_fields" not in (publication.published_columns(merge) or [])


def test_every_decision_names_a_real_column():
    """A renamed column must not leave its old decision behind while the new name goes out."""
    for label, names in publication.SECRET_FIELDS.items():
        model = apps.get_model(label)
        for name in names:
            model._meta.get_field(name)
    for dotted in [*publication.NOT_SECRET_FIELDS, *publication.PUBLIC_JSON_FIELDS]:
        label, name = dotted.rsplit(".", 1)
        apps.get_model(label)._meta.get_field(name)


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
    for label in publication.watched():
        table = apps.get_model(label)._meta.db_table
        assert f'ALTER TABLE "{table}" ENABLE ALWAYS TRIGGER hallbox_notify' in sql
    assert sql.count("pg_notify('hallbox'") == len(publication.watched())


def test_subscribe_puts_triggers_on_exactly_the_freshness_maps_tables():
    """The mirror hears of the tables the box forgets by (matches/public/forgets.py), the
    heartbeat and the feature tables' rows: a table added to the map gets its trigger, one
    taken out loses it."""
    sql = "\n".join(publication.trigger_sql())
    triggered = set(re.findall(r"CREATE TRIGGER hallbox_notify .* ON \"(\w+)\"", sql))
    tables = {apps.get_model(label)._meta.db_table for label in forgets.MAP}
    tables |= {apps.get_model(label)._meta.db_table for label in publication.LIVE_ROWS}
    assert triggered == tables | {apps.get_model(publication.HEARTBEAT)._meta.db_table}
    # Each names its event the way the listener resolves it (no row keys left over either).
    assert set(publication.ROW_KEYS) == set(forgets.MAP) | {publication.HEARTBEAT} | set(
        publication.LIVE_ROWS
    )


def test_the_mirror_takes_rows_without_the_secret_columns():
    statements = publication.mirror_prepare_sql()
    assert 'ALTER TABLE "matches_union" ALTER COLUMN "captain_pin" DROP NOT NULL' in statements
    assert 'ALTER TABLE "auth_user" ALTER COLUMN "password" DROP NOT NULL' in statements
    assert 'ALTER TABLE "players_player" ALTER COLUMN "id_number" DROP NOT NULL' in statements
    assert 'ALTER TABLE "players_player" ALTER COLUMN "contact" DROP NOT NULL' in statements


def test_the_mirrors_web_account_may_read_and_never_write():
    statements = publication.reader_sql('web"; DROP TABLE x; --')
    who = '"web""; DROP TABLE x; --"'  # a name is always a quoted identifier
    assert f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {who}" in statements
    assert f"ALTER ROLE {who} SET default_transaction_read_only = on" in statements
    assert not any(s.startswith("GRANT") and "INSERT" in s for s in statements)
