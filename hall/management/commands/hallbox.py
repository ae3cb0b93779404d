"""The hall box's set-up and its two long-running processes (docs/hall-box.md).

On the box (SITE_ROLE=box):
    manage.py hallbox publish [--replication-user mirror --replication-password ...]
    manage.py hallbox beat                 # the heartbeat row, every HALLBOX_BEAT_SECONDS
On the mirror (SITE_ROLE=mirror), after `migrate`:
    manage.py hallbox subscribe --box-dsn "host=... port=5432 dbname=gouji user=mirror password=..." \\
        [--reader-user gouji_web --reader-password ...]
    manage.py hallbox listen               # reacts to replicated rows
Either side:
    manage.py hallbox status               # the role, the heartbeat, the lag or the subscription
    manage.py hallbox unsubscribe          # the mirror stops following (fallback to one server)
"""

from __future__ import annotations

import json
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError, connection, transaction
from django.utils import timezone
from psycopg import sql

from hall import publication, status
from hall.roles import role


def _postgres() -> None:
    if connection.vendor != "postgresql":
        raise CommandError("the hall box needs PostgreSQL on both sides (DATABASE_URL)")


def _one(sql: str, params=()) -> object:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    return row[0] if row else None


def _login_role(user: str, password: str, replication: bool = False) -> None:
    """Create or update a login role. A utility statement takes no bound parameter (psycopg's
    server-side binding, the project's default, sends `$1`), so the name and the password are
    composed as quoted SQL; the password as its SCRAM verifier, as psql's \\password does, so
    its clear text is neither sent nor written in any log."""
    connection.ensure_connection()
    raw = connection.connection
    exists = bool(_one("SELECT 1 FROM pg_roles WHERE rolname = %s", [user]))
    secret = (
        sql.Literal(
            raw.pgconn.encrypt_password(password.encode(), user.encode(), b"scram-sha-256").decode()
        )
        if password
        else sql.SQL("NULL")
    )
    statement = sql.SQL("{verb} ROLE {user} WITH LOGIN {replication} PASSWORD {secret}").format(
        verb=sql.SQL("ALTER" if exists else "CREATE"),
        user=sql.Identifier(user),
        replication=sql.SQL("REPLICATION" if replication else "NOREPLICATION"),
        secret=secret,
    )
    _run([statement.as_string(raw)])


def _run(statements) -> None:
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


class Command(BaseCommand):
    help = "Set up and run the hall box's replication to the public mirror."

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="action", required=True)
        publish = sub.add_parser("publish", help="box: create or update the publication")
        publish.add_argument("--replication-user", default="")
        publish.add_argument("--replication-password", default="")
        subscribe = sub.add_parser("subscribe", help="mirror: follow the box's publication")
        subscribe.add_argument("--box-dsn", required=True)
        subscribe.add_argument(
            "--reader-user",
            default="",
            help="the mirror's web account: reads every table, writes none",
        )
        subscribe.add_argument("--reader-password", default="")
        subscribe.add_argument(
            "--keep-rows",
            action="store_true",
            help="do not empty the mirror's copies before the first copy",
        )
        listen = sub.add_parser("listen", help="mirror: react to replicated rows")
        listen.add_argument("--once", action="store_true", help="one batch, then exit (tests)")
        beat = sub.add_parser("beat", help="box: write the heartbeat row, forever")
        beat.add_argument("--once", action="store_true")
        sub.add_parser("status", help="what this side knows of the other, as JSON")
        sub.add_parser("unsubscribe", help="mirror: drop the subscription")

    def handle(self, *args, action: str, **options):
        getattr(self, action)(**options)

    # --- the box -------------------------------------------------------------------------

    def publish(self, replication_user: str, replication_password: str, **options) -> None:
        _postgres()
        if role() != "box":
            self.stderr.write(f"warning: SITE_ROLE is {role()!r}, not 'box'")
        level = _one("SHOW wal_level")
        if level != "logical":
            raise CommandError(
                f"wal_level is {level!r}: set wal_level = logical in postgresql.conf and "
                "restart PostgreSQL (docs/hall-box.md, step 2)"
            )
        # All or nothing: the publication, the account and its grants, the first heartbeat
        # (PostgreSQL runs each of these statements inside a transaction).
        try:
            with transaction.atomic():
                exists = bool(
                    _one("SELECT 1 FROM pg_publication WHERE pubname = %s", [status.PUBLICATION])
                )
                _run(publication.publish_sql(exists))
                if replication_user:
                    _login_role(replication_user, replication_password, replication=True)
                    _run(publication.grant_sql(replication_user))
                status.beat()
        except DatabaseError as error:
            raise CommandError(f"publish changed nothing: {error}".strip()) from error
        tables = len(publication.published_models())
        self.stdout.write(
            f"publication {status.PUBLICATION}: {tables} tables "
            f"({'updated' if exists else 'created'}); secret columns left out: "
            + ", ".join(
                f"{m._meta.db_table}.{c}"
                for m in publication.published_models()
                for c in publication.secret_columns(m)
            )
        )

    def beat(self, once: bool = False, **options) -> None:
        every = settings.HALLBOX_BEAT_SECONDS
        while True:
            try:
                status.beat()
            except Exception as exc:  # noqa: BLE001 - the database restarting: beat again
                self.stderr.write(f"heartbeat failed: {exc}")
                connection.close()
            if once:
                return
            time.sleep(every)

    # --- the mirror ----------------------------------------------------------------------

    def subscribe(
        self,
        box_dsn: str,
        keep_rows: bool = False,
        reader_user: str = "",
        reader_password: str = "",
        **options,
    ) -> None:
        _postgres()
        if role() != "mirror":
            self.stderr.write(f"warning: SITE_ROLE is {role()!r}, not 'mirror'")
        exists = bool(
            _one("SELECT 1 FROM pg_subscription WHERE subname = %s", [status.SUBSCRIPTION])
        )
        try:
            with transaction.atomic():
                _run(publication.mirror_prepare_sql())
                _run(publication.trigger_sql())
                if not exists and not keep_rows:
                    _run([publication.truncate_sql()])
                if reader_user:
                    self._reader(reader_user, reader_password)
        except DatabaseError as error:
            raise CommandError(f"subscribe changed nothing: {error}".strip()) from error
        # Not in a transaction: CREATE SUBSCRIPTION makes the slot on the box.
        _run(publication.subscribe_sql(box_dsn, exists))
        self.stdout.write(
            f"subscription {status.SUBSCRIPTION} {'refreshed' if exists else 'created'}; "
            "run `manage.py hallbox listen` beside the web processes"
            + (f"; the web processes sign in as {reader_user!r} (read-only)" if reader_user else "")
        )

    def _reader(self, user: str, password: str) -> None:
        """The mirror's web account: SELECT on every table and nothing else, every transaction
        read-only by default. The grants are what holds (it owns no table, has no other right);
        `default_transaction_read_only` makes a stray write fail loudly even so."""
        if _one(
            "SELECT 1 FROM pg_roles WHERE rolname = %s AND (rolsuper OR rolname = current_user)",
            [user],
        ) or _one("SELECT 1 FROM pg_tables WHERE tableowner = %s", [user]):
            raise CommandError(
                f"{user!r} owns tables or is a superuser: the reader must be an account of its "
                "own (docs/hall-box.md, step 4)"
            )
        _login_role(user, password)
        _run(publication.reader_sql(user))

    def listen(self, once: bool = False, **options) -> None:
        from hall.listener import Listener

        _postgres()
        params = connection.get_connection_params()
        dsn = " ".join(
            f"{k}={v}"
            for k, v in {
                "host": params.get("host"),
                "port": params.get("port"),
                "dbname": params.get("dbname"),
                "user": params.get("user"),
                "password": params.get("password"),
            }.items()
            if v
        )
        Listener().run(dsn, once=once)

    def unsubscribe(self, **options) -> None:
        _postgres()
        if _one("SELECT 1 FROM pg_subscription WHERE subname = %s", [status.SUBSCRIPTION]):
            _run([f"DROP SUBSCRIPTION {status.SUBSCRIPTION}"])
            self.stdout.write(f"subscription {status.SUBSCRIPTION} dropped")
        else:
            self.stdout.write("no subscription")

    # --- either --------------------------------------------------------------------------

    def status(self, **options) -> None:
        """This side's view as JSON, with `says`: the same in a sentence and what to do. The box
        reports the mirror's replication slot, the mirror its subscription; the other side's
        fields are left out (a mirror cannot see the box's slot)."""
        beat = status.last_beat(fresh=True)
        answer: dict = {
            "role": role(),
            "last_beat": beat.isoformat() if beat else None,
            "stale": status.hall_state(fresh=True).stale,
        }
        if connection.vendor == "postgresql" and role() == "box":
            lag = status.mirror_lag()
            answer["mirror"] = {
                "set_up": lag.set_up,
                "connected": lag.connected,
                "behind_bytes": lag.behind_bytes,
                "replay_lag_s": lag.replay_lag,
                "holds_until": lag.holds_until.isoformat() if lag.holds_until else None,
            }
            answer["says"] = _box_says(lag)
        elif connection.vendor == "postgresql" and role() == "mirror":
            sub = status.subscription()
            answer["subscription"] = (
                {
                    "enabled": sub.enabled,
                    "receiving": sub.receiving,
                    "last_message": sub.last_message.isoformat() if sub.last_message else None,
                }
                if sub.set_up
                else None
            )
            answer["says"] = _mirror_says(sub, beat, answer["stale"])
        else:
            answer["says"] = "not a hall box or a mirror (SITE_ROLE is single): nothing to report"
        self.stdout.write(json.dumps(answer, default=str))


def _hhmm(at) -> str:
    return timezone.localtime(at).strftime("%H:%M:%S") if at else "never"


def _box_says(lag: status.MirrorLag) -> str:
    if not lag.set_up:
        return "no mirror has subscribed yet: run `hallbox subscribe` on the mirror (step 4)"
    held = f"the public site shows the box's data up to {_hhmm(lag.holds_until)}"
    if lag.connected:
        return f"the mirror is connected, {lag.behind_bytes} bytes behind; {held}"
    return (
        f"the mirror is not connected ({lag.behind_bytes} bytes kept for it); {held}. Nothing "
        "to do while the uplink is down: it catches up by itself when the link returns"
    )


def _mirror_says(sub: status.Subscription, beat, stale: bool) -> str:
    if not sub.set_up:
        return "no subscription: run `hallbox subscribe --box-dsn ...` (step 4)"
    if not sub.enabled:
        return "the subscription is disabled: `ALTER SUBSCRIPTION gouji_mirror ENABLE`"
    if sub.receiving and not stale:
        return f"following the box; its last heartbeat here is from {_hhmm(beat)}"
    return (
        f"not receiving from the box: the hall's uplink (or the box) is down since about "
        f"{_hhmm(beat)}, the last heartbeat here. The public pages keep answering with what "
        "they have and say so; the subscription tries again every few seconds and catches up "
        "by itself. If the uplink is back and this stays: the box's PostgreSQL log and "
        "`hallbox status` there (docs/hall-box.md, step 8)"
    )
