"""What the box publishes to the mirror, and the SQL of both ends (docs/hall-box.md).

PostgreSQL logical replication, not a home-made sync: a publication on the box, a subscription
on the mirror. Every table of the site's own apps is published, and Django's user table for the
names it shows, except what the public never needs and the secrets:

- whole tables that stay on the box: sessions, API tokens, the admin's log, permissions, staff
  invitations (token and code), referee links (the table phones' tokens), worker probes;
- private columns of published tables, left out by PostgreSQL 15's column lists: secrets
  (password hashes, captain PINs, an individual entry's PIN, an entry's private-link token, a
  player's or union's own-page token, the wizard's one-time token) and personal data (e-mail
  addresses, a player's identity number and contact details, the merge log's copy of them).
  The private pages are found on the mirror by the tokens' SHA-256 digests
  (`matches/models/digest.py`), which are published.

This file is the one place that decides. tests/hall/test_publication.py fails when a
published column's name looks secret (token, pin, password, key, code, ...) or personal (id
number, contact, phone, address, birth, ...), or a published JSON column (a copy of anything) is
added, until it is listed here: private, or public with a reason.
"""

from __future__ import annotations

from django.apps import apps
from django.db import models

from hall.status import PUBLICATION, SUBSCRIPTION
from matches.public import forgets

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
        "hall.BeatMark",  # where the box's heartbeats are in its own WAL
        "matches.SheetPhoto",  # a photographed score sheet: evidence for staff, never public
        "matches.StackSheet",  # a desk stack's photographed sheet: like SheetPhoto
        # The organisers' check of the derived rows: staff read it on the box's chain page only.
        "matches.DerivedCheck",
    }
)

# Columns of published tables that never leave the box (model label -> field names): secrets,
# and a person's data that only the organiser needs (docs/security.md: never on the mirror).
SECRET_FIELDS: dict[str, frozenset[str]] = {
    "auth.User": frozenset({"password", "email"}),
    "players.Player": frozenset({"id_number", "contact"}),
    # A merge keeps the merged record's fields to give them back on a split: its identity
    # number and contact too. Only the box's players page shows the log.
    "seasons.PlayerMerge": frozenset({"merged_fields"}),
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

# Published JSON columns: a JSON copy of a record would carry its private fields past the column
# list, so each says what it holds (none holds a person's identity number or contact).
PUBLIC_JSON_FIELDS: dict[str, str] = {
    "matches.ComputationRun.args": "a computation's ids",
    "matches.Deal.tributes_owed": "seats and cards of the tributes",
    "matches.DealReport.summary": "the referee's deal summary: seats, order, scores",
    "matches.DealReport.play_log": "the cards played, by seat",
    "matches.DealReport.verdict": "the rules engine's findings (rule ids)",
    "matches.DealTally.places": "finishing places by seat",
    "matches.LiveDeal.setup": "a feature table's hands at the start (shown only after its delay)",
    "matches.LiveAction.action": "a feature table's play: seat and cards (shown only after its delay)",
    "matches.LiveDeal.summary": "a deal of plays without hands: its outcome summary (seats, order, scores)",
    "matches.DealTally.detail": "a deal's scores and tributes",
    "matches.EntryRequest.players": "a registrant's names and member numbers, in seat order (read on the mirror only through its private link)",
    "matches.Event.game_settings": "the rule set",
    "matches.Event.tie_breaks": "the standings' tie-break order",
    "matches.Event.labels": "the event's own words (titles)",
    "matches.SignupSettings.payment_ways": "the ways a fee may be paid",
    "matches.Match.flags": "why the draw paired it (pulled up, rematch, club clash)",
    "matches.Match.details": "the draw's notes on the pairing",
    "matches.Round.quality": "the draw's figures (repeat pairings, colour balance)",
    "matches.RoundLog.details": "what happened in the round: ids, names, seats",
    "matches.Stage.break_unions": "union ids",
    "matches.StandingsSnapshot.rows": "the public standings' rows: names, clubs, scores",
    "ladders.LadderChallenge.games": "a challenge's game results",
    "ladders.LadderLog.data": "a ladder change: ids, names, places",
    "ladders.LadderSession.challengers": "team ids",
    "ladders.LadderSession.titles_before": "title slots and team ids",
    "seasons.MergeRequest.waiting": "event ids",
    "seasons.MergeRequest.answers": "event and user ids, yes or no, when",
    "seasons.PlayerMerge.moved": "row ids",
    "seasons.PlayerMerge.events": "event ids",
    "seasons.PlayerMerge.touched": "event ids: whose organisers may split the merge",
    "seasons.Series.place_points": "points by place",
    "seasons.SeriesLog.snapshot": "a deleted series' settings and event ids",
}

# How a row of each table the mirror reacts to names its event, its match and its round where the
# row knows them (SQL). Which tables get a trigger is the freshness map's business
# (`matches.public.forgets.MAP`, plus the hall's heartbeat): `watched()`.
ROW_KEYS: dict[str, dict[str, str]] = {
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
    # A feature table's deal, action and commentary: the live deal or the feature, the moment
    # the row arrived on the box (an action's, a note's) and whether it was taken back.
    "matches.LiveDeal": {"ld": "NEW.id", "op": "TG_OP"},
    "matches.LiveAction": {"ld": "NEW.deal_id", "at": "extract(epoch from NEW.at)", "op": "TG_OP"},
    "matches.LiveNote": {"lf": "NEW.feature_id", "at": "extract(epoch from NEW.at)", "op": "TG_OP"},
}
CHANNEL = "hallbox"
HEARTBEAT = "hall.HallBeat"
# A feature table's rows (docs/live-tables.md): they feed no stamp (its pages read the rows
# behind the delay themselves), but the mirror's spectators' streams hear of each one, held
# until the moment it may be seen, as the box's do (hall/listener.py `announce_live`).
LIVE_ROWS = ("matches.LiveDeal", "matches.LiveAction", "matches.LiveNote")


def watched() -> list[str]:
    """The tables whose changes the mirror hears of: exactly the freshness map's (public
    stamps, standings files, live notices), the heartbeat (the hall's staleness) and the
    feature tables' rows."""
    return [*forgets.MAP, HEARTBEAT, *LIVE_ROWS]


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


def reader_sql(user: str) -> list[str]:
    """The mirror's web account (`hallbox subscribe --reader-user`): it reads every table of
    the schema and writes none. Run again after a `migrate` (new tables)."""
    who = _q(user)
    return [
        f"GRANT USAGE ON SCHEMA public TO {who}",
        f"REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER "
        f"ON ALL TABLES IN SCHEMA public FROM {who}",
        f"REVOKE CREATE ON SCHEMA public FROM {who}",
        f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {who}",
        f"ALTER ROLE {who} SET default_transaction_read_only = on",
    ]


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
    for label in watched():
        keys = ROW_KEYS[label]  # a table added to the map says here how it names its event
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
