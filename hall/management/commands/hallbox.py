"""The hall box's set-up and its two long-running processes (docs/hall-box.md).

On the box (SITE_ROLE=box):
    manage.py hallbox publish [--replication-user mirror --replication-password ...]
    manage.py hallbox beat                 # the heartbeat row, every HALLBOX_BEAT_SECONDS
On the mirror (SITE_ROLE=mirror), after `migrate`:
    manage.py hallbox subscribe --box-dsn "host=... port=5432 dbname=gouji user=mirror password=..."
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
from django.db import connection

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
        exists = bool(_one("SELECT 1 FROM pg_publication WHERE pubname = %s", [status.PUBLICATION]))
        _run(publication.publish_sql(exists))
        if replication_user:
            user = replication_user
            found = _one("SELECT 1 FROM pg_roles WHERE rolname = %s", [user])
            with connection.cursor() as cursor:
                verb = "ALTER" if found else "CREATE"
                cursor.execute(
                    f'{verb} ROLE "{user}" WITH LOGIN REPLICATION PASSWORD %s',
                    [replication_password or None],
                )
            _run(publication.grant_sql(user))
        status.beat()
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

    def subscribe(self, box_dsn: str, keep_rows: bool = False, **options) -> None:
        _postgres()
        if role() != "mirror":
            self.stderr.write(f"warning: SITE_ROLE is {role()!r}, not 'mirror'")
        exists = bool(
            _one("SELECT 1 FROM pg_subscription WHERE subname = %s", [status.SUBSCRIPTION])
        )
        _run(publication.mirror_prepare_sql())
        _run(publication.trigger_sql())
        if not exists and not keep_rows:
            _run([publication.truncate_sql()])
        _run(publication.subscribe_sql(box_dsn, exists))
        self.stdout.write(
            f"subscription {status.SUBSCRIPTION} {'refreshed' if exists else 'created'}; "
            "run `manage.py hallbox listen` beside the web processes"
        )

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
        state = status.hall_state(fresh=True)
        answer: dict = {"role": role(), "last_beat": None, "stale": state.stale}
        beat = status.last_beat(fresh=True)
        answer["last_beat"] = beat.isoformat() if beat else None
        if connection.vendor == "postgresql":
            lag = status.mirror_lag()
            answer["mirror"] = {
                "set_up": lag.set_up,
                "connected": lag.connected,
                "behind_bytes": lag.behind_bytes,
                "replay_lag_s": lag.replay_lag,
            }
            answer["subscription"] = _one(
                "SELECT json_build_object('enabled', subenabled) FROM pg_subscription "
                "WHERE subname = %s",
                [status.SUBSCRIPTION],
            )
        self.stdout.write(json.dumps(answer, default=str))
