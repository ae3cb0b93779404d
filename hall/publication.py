"""What the box publishes to the mirror, and the SQL of both ends (docs/hall-box.md).

PostgreSQL logical replication, not a home-made sync: a publication on the box, a subscription
on the mirror. Every table of the site's own apps is published, and Django's user table for the
names it shows, except what the public never needs and the secrets:

- whole tables that stay on the box: sessions, API tokens, the admin's log, permissions, staff
  invitations (token and code), referee links (the table phones' tokens), worker probes;
- secret columns of published tables, left out by PostgreSQL 15's column lists: password hashes
  and e-mail addresses, captain PINs, an individual entry's PIN, an entry's private-link token, a player's or union's
  own-page token, the wizard's one-time token. The private pages are found on the mirror by
  the tokens' SHA-256 digests (`matches/models/digest.py`), which are published.

A column added later whose name looks secret (token, pin, password, secret, key, code) fails
tests/hallbox/test_publication.py until it is listed here as secret or as public.
"""

from __future__ import annotations

from django.apps import apps
from django.db import models

from hall.status import PUBLICATION, SUBSCRIPTION

# The apps whose every table is published (less the exceptions below).
PUBLISHED_APPS = ("players", "matches", "seasons", "ladders", "hall")

# Models published although outside those apps: the user names pages show (no password).
EXTRA_MODELS = ("auth.User",)

# Whole tables that never leave the box.
KEPT_MODELS = frozenset(
    {
        "matches.RefereeLink",  # a table phone's token opens the table
        "matches.StaffInvitation",  # a one-time token and code make staff
        "matches.WorkerProbe",  # the box's own health check
    }
)

# Columns of published tables that never leave the box (model label -> field names).
SECRET_FIELDS: dict[str, frozenset[str]] = {
    "auth.User": frozenset({"password", "email"}),
    "matches.Union": frozenset({"captain_pin"}),
    "matches.Registration": frozenset({"private_token", "pin"}),
    "matches.FloorPass": frozenset({"token"}),
    "matches.Event": frozenset({"creation_token"}),
    # A registrant's private link, and the contact they left (personal data: never public).
    "matches.EntryRequest": frozenset({"token", "contact", "contact_key"}),
}

# Names that look secret but are not (why, each).
NOT_SECRET_FIELDS: dict[str, str] = {
    "matches.Registration.private_token_digest": "SHA-256 of the token: finds the page, cannot open it",
    "matches.FloorPass.token_digest": "SHA-256 of the token: finds the page, cannot open it",
    "matches.DealReport.idempotency_key": "a phone's retry key, chosen per deal; opens nothing",
    "matches.DealReport.request_digest": "a digest of the request body, for retries",
    "matches.ResultChainEntry.digest": "the public hash chain of results",
    "matches.ResultChainEntry.prev_digest": "the public hash chain of results",
    "matches.Confirmation.by_pin": "whether a PIN was given, not the PIN",
    "matches.ComputationRun.key": 'which computation ran ("match:12", "standings")',
    "matches.EntryRequest.token_digest": "SHA-256 of the token: finds the page, cannot open it",
    "matches.EntryRequest.code": "the short code read out at the desk; opens nothing",
    "matches.EntryRequest.form_key": "the form's one-time key against double submits; opens nothing",
    "matches.EntryRequest.names_key": "the players' names sorted, to find one union entered twice",
    "seasons.RatedRound.key": "the order of a rated round",
    "seasons.RatingStep.key": "the order of a rating step",
}

# The tables whose changes the mirror reacts to (public stamps, standings files, live notices),
# with the SQL that names the row's event, its match and its round where the row knows them.
WATCHED: dict[str, dict[str, str]] = {
    "matches.Event": {"e": "NEW.id"},
    "matches.Stage": {"e": "NEW.event_id"},
    "matches.Round": {"e": "NEW.event_id", "r": "NEW.id"},
    "matches.Match": {"r": "NEW.round_id", "m": "NEW.id"},
    "matches.DealReport": {"d": "NEW.deal_id"},
    "matches.DealTally": {"m": "NEW.match_id"},
    "matches.StandingsSnapshot": {"e": "NEW.event_id"},
    "matches.Registration": {"e": "NEW.event_id"},
    "matches.Union": {"e": "NEW.event_id"},
    "matches.UnionMember": {"e": "NEW.event_id"},
    "matches.SearchTerm": {"e": "NEW.event_id"},
    "matches.RefereeZone": {"e": "NEW.event_id"},
    "matches.RoundLog": {"e": "NEW.event_id"},
    "matches.RoundClock": {"r": "NEW.round_id"},
    "matches.TableSeat": {"r": "NEW.round_id"},
    "hall.HallBeat": {},
}
CHANNEL = "hallbox"


def _label(model) -> str:
    return model._meta.label


def published_models() -> list[type[models.Model]]:
    chosen = [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.app_label in PUBLISHED_APPS
        and not model._meta.proxy
        and model._meta.managed
        and _label(model) not in KEPT_MODELS
    ]
    # Many-to-many tables between published models (an event's organisers are users).
    chosen += [apps.get_model(label) for label in EXTRA_MODELS]
    return sorted(set(chosen), key=lambda m: m._meta.db_table)


def secret_columns(model) -> list[str]:
    names = SECRET_FIELDS.get(_label(model), frozenset())
    return [f.column for f in model._meta.concrete_fields if f.name in names]


def published_columns(model) -> list[str] | None:
    """The columns published of a table; None: all of them."""
    secret = set(secret_columns(model))
    if not secret:
        return None
    return [f.column for f in model._meta.concrete_fields if f.column not in secret]


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def table_list() -> str:
    parts = []
    for model in published_models():
        columns = published_columns(model)
        table = _q(model._meta.db_table)
        parts.append(table + (f" ({', '.join(_q(c) for c in columns)})" if columns else ""))
    return ", ".join(parts)


def publish_sql(exists: bool) -> list[str]:
    verb = (
        f"ALTER PUBLICATION {PUBLICATION} SET TABLE"
        if exists
        else (f"CREATE PUBLICATION {PUBLICATION} FOR TABLE")
    )
    return [f"{verb} {table_list()}"]


def grant_sql(user: str) -> list[str]:
    """What the mirror's replication account may read: the published columns only (the initial
    copy selects them), so even its password opens no secret."""
    statements = []
    for model in published_models():
        table = _q(model._meta.db_table)
        columns = published_columns(model)
        if columns:
            statements.append(f"REVOKE SELECT ON {table} FROM {_q(user)}")
            statements.append(
                f"GRANT SELECT ({', '.join(_q(c) for c in columns)}) ON {table} TO {_q(user)}"
            )
        else:
            statements.append(f"GRANT SELECT ON {table} TO {_q(user)}")
    return statements


def mirror_prepare_sql() -> list[str]:
    """The mirror's tables take rows without the secret columns: those may be empty there."""
    statements = []
    for model in published_models():
        for field in model._meta.concrete_fields:
            if field.column in secret_columns(model) and not field.null:
                statements.append(
                    f"ALTER TABLE {_q(model._meta.db_table)} ALTER COLUMN {_q(field.column)} "
                    "DROP NOT NULL"
                )
    return statements


def truncate_sql() -> str:
    """The mirror's copies start empty (migrations may have written rows): the box's copy
    fills them."""
    tables = ", ".join(_q(m._meta.db_table) for m in published_models())
    return f"TRUNCATE {tables} CASCADE"


def trigger_sql() -> list[str]:
    """A row trigger per watched table that tells the listener (`manage.py hallbox listen`)
    which event, round, match or deal changed. ENABLE ALWAYS: the subscription's apply worker
    runs as a replica, where ordinary triggers (and Django's signals) do not fire."""
    statements = []
    for label, keys in WATCHED.items():
        model = apps.get_model(label)
        table = model._meta.db_table
        function = f"hallbox_notify_{table}"
        pairs = "".join(f", '{k}', {v.replace('NEW.', 'rec.')}" for k, v in keys.items())
        body = f"""
CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE rec record;
BEGIN
  IF TG_OP = 'DELETE' THEN rec := OLD; ELSE rec := NEW; END IF;
  PERFORM pg_notify('{CHANNEL}', json_build_object('t', '{label}'{pairs})::text);
  RETURN NULL;
END $$"""
        statements += [
            body,
            f"DROP TRIGGER IF EXISTS hallbox_notify ON {_q(table)}",
            f"CREATE TRIGGER hallbox_notify AFTER INSERT OR UPDATE OR DELETE ON {_q(table)} "
            f"FOR EACH ROW EXECUTE FUNCTION {function}()",
            f"ALTER TABLE {_q(table)} ENABLE ALWAYS TRIGGER hallbox_notify",
        ]
    return statements


def subscribe_sql(box_dsn: str, exists: bool) -> list[str]:
    if exists:
        return [f"ALTER SUBSCRIPTION {SUBSCRIPTION} REFRESH PUBLICATION"]
    dsn = box_dsn.replace("'", "''")
    return [
        f"CREATE SUBSCRIPTION {SUBSCRIPTION} CONNECTION '{dsn}' PUBLICATION {PUBLICATION} "
        "WITH (copy_data = true)"
    ]
