"""The hall box drill (docs/hall-box.md): the hall's uplink drops in the middle of a round.

    .venv/bin/python bench/hallbox.py --quick          # 40 tables, a 15 s cut (CI: tests/hall)
    .venv/bin/python bench/hallbox.py                  # 300 tables, a 30-minute cut
    .venv/bin/python bench/hallbox.py --cut 300        # 300 tables, a 5-minute cut

Two private PostgreSQL clusters on this machine (`wal_level = logical`), one redis-server, and
- the box: gunicorn, two Celery workers and the heartbeat (`manage.py hallbox beat`) on the
  first cluster, which publishes (`manage.py hallbox publish`);
- the mirror: gunicorn with SITE_ROLE=mirror and the listener (`manage.py hallbox listen`) on the
  second, which subscribes (`manage.py hallbox subscribe`) through a TCP relay in this process:
  the hall's uplink, which the drill cuts.

It publishes round 1 of a Swiss event, referee clients report and confirm every deal of every
table on the box over HTTP (two referee links a table), and once a third of the deals are in,
the link is cut for `--cut` seconds; readers keep reading the mirror's public pages all along.
When the link is back it reports: deals acknowledged on the box, deals on the mirror (lost,
duplicated), the seconds until the mirror's standings equal the box's, the mirror's page errors
during the cut (5xx), when the mirror said the hall was out of reach, the box's view of the
lag, and whether any secret reached the mirror (its tables read, and a dump of its data searched
for every token, PIN and password hash of the box). `--json` prints the figures as JSON last.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
PYTHON = sys.executable
BIN = Path(PYTHON).parent
# This script's folder comes first on sys.path when it runs: there `import hall...` is the app,
# and festival.py is found after the project's own packages.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != BENCH]
sys.path.insert(0, str(ROOT))
sys.path.append(str(BENCH))

from festival import Referees, documents, free_port, wait_port  # noqa: E402

from tests.faults.cluster import Link, LogicalCluster, PrivateCluster  # noqa: E402


class Side:
    """One side's processes (box or mirror); `stop()` ends exactly those."""

    def __init__(self, name: str, env: dict, workdir: Path):
        self.name = name
        self.env = env
        self.workdir = workdir
        self.procs: list[subprocess.Popen] = []
        self.http_port = free_port()

    def manage(self, *args: str, check: bool = True) -> str:
        done = subprocess.run(
            [PYTHON, "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
        )
        if check and done.returncode:
            raise RuntimeError(f"{self.name}: manage.py {' '.join(args)}: {done.stderr[-2000:]}")
        return done.stdout

    def start(self, label: str, cmd: list[str]) -> None:
        log = open(self.workdir / f"{self.name}-{label}.log", "a")
        self.procs.append(
            subprocess.Popen(
                cmd,
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )

    def gunicorn(self, workers: int, threads: int) -> None:
        self.start(
            "gunicorn",
            [
                str(BIN / "gunicorn"),
                "gouji_tournament.wsgi",
                "-b",
                f"127.0.0.1:{self.http_port}",
                "-w",
                str(workers),
                "-k",
                "gthread",
                "--threads",
                str(threads),
                "--keep-alive",
                "75",
            ],
        )

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in reversed(self.procs):
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        self.procs.clear()


def env_for(base: dict, db_url: str, redis: int, dbs: tuple[int, ...], **extra) -> dict:
    env = dict(base)
    env.update(
        {
            "DATABASE_URL": db_url,
            "CACHE_URL": f"redis://127.0.0.1:{redis}/{dbs[0]}",
            "LIVE_REDIS_URL": f"redis://127.0.0.1:{redis}/{dbs[1]}",
            "DEBUG": "False",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECRET_KEY": "hallbox-drill-" + os.urandom(8).hex(),
            "DJANGO_SETTINGS_MODULE": "gouji_tournament.settings",
            "PYTHONPATH": str(ROOT),
            "LOG_LEVEL": "WARNING",
        }
    )
    env.update(extra)
    return env


# --- the event on the box ----------------------------------------------------------------------


def build_event(tables: int, deals: int):
    from django.contrib.auth.models import User
    from festival import build_event as festival_event

    from matches.events import checkin
    from matches.models import Event, Registration, StaffInvitation, StaffRole
    from matches.public import floor_passes

    event, stage = festival_event(2 * tables, 1, deals)
    organiser = User.objects.get(username="festival-organiser")
    organiser.set_password("drill-" + os.urandom(6).hex())
    organiser.email = "organiser@example.org"
    organiser.save()
    # Private links handed out before the round: they must open on the mirror (by digest), and
    # their tokens must not reach it.
    floor_passes.ensure_passes(event)
    for entry in Registration.objects.filter(event=event)[:50]:
        checkin.private_token(entry)
    Event.objects.filter(pk=event.pk).update(creation_token="wizard-" + os.urandom(8).hex())
    StaffInvitation.objects.create(event=event, role=StaffRole.REFEREE, created_by=organiser)
    return event, stage


def private_links(event_id: int) -> list[str]:
    """A few private pages' paths, as their owners hold them (badges, the entry's link)."""
    from matches.models import FloorPass, Registration

    passes = FloorPass.objects.filter(event_id=event_id).values_list("token", flat=True)[:5]
    entries = Registration.objects.filter(event_id=event_id, private_token__isnull=False)
    return [f"/me/{t}/" for t in passes] + [
        f"/entry/{t}/" for t in entries.values_list("private_token", flat=True)[:5]
    ]


def box_secrets(event_id: int) -> dict[str, list[str]]:
    """Every secret value the box holds, by kind: none may appear in the mirror's data."""
    from django.contrib.auth.models import User

    from matches.models import Event, FloorPass, RefereeLink, Registration, StaffInvitation, Union

    return {
        "password hashes": [p for p in User.objects.values_list("password", flat=True) if p],
        "e-mail addresses": [e for e in User.objects.values_list("email", flat=True) if e],
        "referee link tokens": list(RefereeLink.objects.values_list("token", flat=True)),
        "private-link tokens": [
            t for t in Registration.objects.values_list("private_token", flat=True) if t
        ],
        "own-page tokens": list(FloorPass.objects.values_list("token", flat=True)),
        "staff invitation tokens": list(StaffInvitation.objects.values_list("token", flat=True)),
        "wizard tokens": [t for t in Event.objects.values_list("creation_token", flat=True) if t],
        # Four digits: searched in their own column only (a dump is full of four-digit numbers).
        "captain PINs": list(Union.objects.values_list("captain_pin", flat=True)),
    }


# --- reading the mirror ------------------------------------------------------------------------


def mirror_sql(url: str, sql: str, params=()) -> list[tuple]:
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


SECRET_COLUMNS_SQL = {
    "auth_user.password": "SELECT count(*) FROM auth_user WHERE password IS NOT NULL",
    "auth_user.email": "SELECT count(*) FROM auth_user WHERE email IS NOT NULL",
    "matches_union.captain_pin": "SELECT count(*) FROM matches_union WHERE captain_pin IS NOT NULL",
    "matches_registration.private_token": (
        "SELECT count(*) FROM matches_registration WHERE private_token IS NOT NULL"
    ),
    "matches_floorpass.token": "SELECT count(*) FROM matches_floorpass WHERE token IS NOT NULL",
    "matches_registration.pin": "SELECT count(*) FROM matches_registration WHERE pin <> ''",
    "matches_event.creation_token": (
        "SELECT count(*) FROM matches_event WHERE creation_token IS NOT NULL"
    ),
    "matches_refereelink (rows)": "SELECT count(*) FROM matches_refereelink",
    "matches_staffinvitation (rows)": "SELECT count(*) FROM matches_staffinvitation",
    "django_session (rows)": "SELECT count(*) FROM django_session",
    "authtoken_token (rows)": "SELECT count(*) FROM authtoken_token",
}


def secrets_on_mirror(url: str, secrets: dict) -> dict:
    """The mirror's secret columns (all empty?), then every row of every table of the mirror,
    searched for each secret value of the box."""
    import psycopg

    columns = {name: mirror_sql(url, sql)[0][0] for name, sql in SECRET_COLUMNS_SQL.items()}
    chunks: list[str] = []
    with psycopg.connect(url, autocommit=True) as conn:
        tables = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        ).fetchall()
        for (table,) in tables:
            with conn.cursor().copy(f'COPY "{table}" TO STDOUT') as copy:
                chunks.extend(bytes(block).decode() for block in copy)
    data = "".join(chunks)
    found = {
        kind: sum(1 for value in values if value and value in data)
        for kind, values in secrets.items()
        if kind != "captain PINs"
    }
    digests = mirror_sql(url, "SELECT count(*) FROM matches_floorpass WHERE token_digest <> ''")
    return {
        "non-empty secret columns": columns,
        "box secrets found in the mirror's rows": found,
        "own-page digests on the mirror": digests[0][0],
        "mirror_rows_bytes": len(data),
    }


def pg_tool(name: str) -> str:
    from tests.faults.cluster import pg_bin

    return str(Path(os.path.realpath(pg_bin() / "pg_ctl")).parent / name)


def copy_schema(box: PrivateCluster, mirror_url: str) -> None:
    """The mirror's schema as `migrate` makes it, copied from the box (`pg_dump`): the same
    tables and the migrations' bookkeeping rows, in seconds rather than a second `migrate`."""
    import psycopg

    def dump(*args: str) -> str:
        text = subprocess.run(
            [
                *box.as_postgres,
                pg_tool("pg_dump"),
                "-h",
                "127.0.0.1",
                "-p",
                str(box.port),
                "-U",
                "postgres",
                "--no-owner",
                "--no-privileges",
                *args,
                "gouji",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        # psql's own commands (`\\restrict`, `\\.` of COPY) are not SQL: data as INSERTs below.
        return "\n".join(line for line in text.splitlines() if not line.startswith("\\"))

    schema = dump("--schema-only")
    kept = dump(
        "--data-only",
        "--inserts",
        *[
            arg
            for table in ("django_migrations", "django_content_type", "auth_permission")
            for arg in ("-t", table)
        ],
    )
    with psycopg.connect(mirror_url, autocommit=True) as conn:
        conn.execute(schema)
        conn.execute(kept)


class Readers(threading.Thread):
    """Public readers of the mirror: every answer's status counted, the banner watched."""

    def __init__(self, base: str, event_id: int, threads: int = 4):
        super().__init__(daemon=True)
        self.base = base
        self.paths = [
            f"/events/{event_id}/",
            f"/events/{event_id}/standings/",
            f"/events/{event_id}/rounds/1/",
            f"/api/v1/public/events/{event_id}/standings/",
            f"/api/v1/events/{event_id}/find?q=lb1",
            f"/events/{event_id}/find/?q=%E8%81%94%E9%82%A6",
            "/hall/status/",
        ]
        self.threads = threads
        self.running = True
        self.lock = threading.Lock()
        self.log: list[tuple[float, int]] = []  # (time, status)
        self.stale_seen: list[float] = []  # times /hall/status/ said the hall is out of reach

    def run(self) -> None:
        import requests

        def read(k: int) -> None:
            session = requests.Session()
            i = k
            while self.running:
                path = self.paths[i % len(self.paths)]
                i += 1
                try:
                    response = session.get(self.base + path, timeout=30)
                    status = response.status_code
                    stale = path == "/hall/status/" and "赛场网络中断" in response.text
                except requests.RequestException:
                    status, stale = 599, False
                with self.lock:
                    self.log.append((time.time(), status))
                    if stale:
                        self.stale_seen.append(time.time())
                time.sleep(0.05)

        workers = [
            threading.Thread(target=read, args=(k,), daemon=True) for k in range(self.threads)
        ]
        for w in workers:
            w.start()
        for w in workers:
            w.join()

    def between(self, start: float, end: float) -> dict:
        with self.lock:
            rows = [s for t, s in self.log if start <= t <= end]
        return {
            "requests": len(rows),
            "5xx": sum(1 for s in rows if s >= 500),
            "by_status": {str(s): rows.count(s) for s in sorted(set(rows))},
        }


def fetch_json(url: str):
    import requests

    response = requests.get(url, timeout=30)
    return response.status_code, (response.json() if response.status_code == 200 else None)


def wait_initial_copy(url: str, timeout: float) -> float:
    started = time.time()
    while time.time() < started + timeout:
        rows = mirror_sql(url, "SELECT srsubstate FROM pg_subscription_rel")
        if rows and all(state == "r" for (state,) in rows):
            return time.time() - started
        time.sleep(0.5)
    raise RuntimeError("the mirror's initial copy did not finish")


def final_deals(url: str, event_id: int) -> dict:
    """Deals of the event with a final report, and reports stored more than once, read from a
    database directly (the box's or the mirror's)."""
    rows = mirror_sql(
        url,
        """
        SELECT count(DISTINCT d.id) FILTER (WHERE r.state = 'final'),
               count(r.id) FILTER (WHERE r.state = 'final'),
               count(r.id), count(DISTINCT r.id)
        FROM matches_deal d JOIN matches_match m ON m.id = d.match_id
        JOIN matches_round rd ON rd.id = m.round_id
        LEFT JOIN matches_dealreport r ON r.deal_id = d.id
        WHERE rd.event_id = %s
        """,
        [event_id],
    )[0]
    return {
        "final_deals": rows[0],
        "final_reports": rows[1],
        "reports": rows[2],
        "distinct_reports": rows[3],
    }


def report_ids(url: str, event_id: int) -> set[int]:
    return {
        r[0]
        for r in mirror_sql(
            url,
            "SELECT r.id FROM matches_dealreport r JOIN matches_deal d ON d.id = r.deal_id "
            "JOIN matches_match m ON m.id = d.match_id JOIN matches_round rd ON rd.id = m.round_id "
            "WHERE rd.event_id = %s AND r.state = 'final'",
            [event_id],
        )
    }


class Hall:
    """The two sides as `start_hall` leaves them: clusters, redis, the link, box and mirror."""

    def __init__(self) -> None:
        self.clusters: list[PrivateCluster] = []
        self.sides: list[Side] = []
        self.redis: subprocess.Popen | None = None

    def stop(self, keep: bool = False) -> None:
        for side in self.sides:
            side.stop()
        if self.redis is not None:
            self.redis.terminate()
            self.redis.wait(timeout=10)
        if not keep:
            for cluster in self.clusters:
                cluster.destroy()


# The mirror's web processes and listener sign in with the read-only account (docs/hall-box.md,
# step 4): a page that wrote would fail the drill.
READER = ("gouji_web", "drill-reader")


def start_hall(args, workdir: Path, hall: Hall):
    """Both clusters, the box (its event, publication, gunicorn, workers, heartbeat) and the
    mirror (subscribed through the link, its listener and gunicorn), all running."""
    clusters, sides = hall.clusters, hall.sides
    t0 = time.time()
    box_pg, mirror_pg = LogicalCluster(), LogicalCluster()
    clusters += [box_pg, mirror_pg]
    for cluster in clusters:
        mirror_sql(cluster.url("postgres"), "CREATE DATABASE gouji")
    redis_port = free_port()
    hall.redis = subprocess.Popen(
        [
            "redis-server",
            "--bind",
            "127.0.0.1",
            "--port",
            str(redis_port),
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        stdout=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_port(redis_port)
    link = Link(box_pg.port)
    link.start()
    common = {"HALLBOX_BEAT_SECONDS": str(args.beat), "HALLBOX_STALE_SECONDS": str(args.stale)}
    box = Side(
        "box",
        env_for(
            dict(os.environ),
            box_pg.url("gouji"),
            redis_port,
            (1, 2),
            SITE_ROLE="box",
            CELERY_BROKER_URL=f"redis://127.0.0.1:{redis_port}/0",
            STANDINGS_FILES_DIR=str(workdir / "box-standings"),
            **common,
        ),
        workdir,
    )
    mirror = Side(
        "mirror",
        env_for(
            dict(os.environ),
            mirror_pg.url("gouji"),
            redis_port,
            (3, 4),
            SITE_ROLE="mirror",
            CELERY_BROKER_URL="",  # a mirror queues no task
            STANDINGS_FILES_DIR=str(workdir / "mirror-standings"),
            STAFF_BASE_URL="http://192.168.1.10",
            **common,
        ),
        workdir,
    )
    sides += [box, mirror]
    box.manage("migrate", "-v", "0")
    copy_schema(box_pg, mirror_pg.url("gouji"))
    print(f"clusters and schemas ready in {time.time() - t0:.1f} s", flush=True)

    # The box: the event, its publication, its processes.
    os.environ.update(box.env)
    import django

    django.setup()
    event, stage = build_event(args.tables, args.deals)
    print(box.manage("hallbox", "publish").strip(), flush=True)
    box.gunicorn(workers=2, threads=8)
    for k in (1, 2):
        box.start(
            f"celery{k}",
            [
                str(BIN / "celery"),
                "-A",
                "gouji_tournament",
                "worker",
                "-n",
                f"box{k}@%h",
                "-P",
                "solo",
                "-l",
                "WARNING",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
        )
    box.start("beat", [PYTHON, "manage.py", "hallbox", "beat"])

    # The mirror: subscribes through the link, listens, serves.
    dsn = f"host=127.0.0.1 port={link.port} dbname=gouji user=postgres"
    reader = ["--reader-user", READER[0], "--reader-password", READER[1]]
    print(mirror.manage("hallbox", "subscribe", "--box-dsn", dsn, *reader).strip(), flush=True)
    copy_s = wait_initial_copy(mirror_pg.url("gouji"), 120)
    print(f"mirror's initial copy: {copy_s:.1f} s", flush=True)
    mirror.env["DATABASE_URL"] = (
        f"postgres://{READER[0]}:{READER[1]}@127.0.0.1:{mirror_pg.port}/gouji"
    )
    mirror.start("listen", [PYTHON, "manage.py", "hallbox", "listen"])
    mirror.gunicorn(workers=2, threads=8)
    wait_port(box.http_port)
    wait_port(mirror.http_port)
    return box, mirror, box_pg, mirror_pg, link, event, stage


REHEARSAL_HELP = """words: cut · restore · status · badge · help · quit
  cut      the hall's uplink drops (every connection cut, new ones refused)
  restore  the uplink returns; the mirror catches up by itself
  status   `hallbox status` of the box and of the mirror
  badge    a new badge link, made on the box now (try it on the mirror during a cut)
  quit     stop everything and remove the clusters"""


def rehearse(box: Side, mirror: Side, link: Link, event, stage) -> None:
    """The outage rehearsal (docs/hall-box.md, "Rehearse the outage on one machine"): the two
    sides stay up, and the TD cuts and restores the link by typing while looking at both."""
    from django.contrib.auth.models import User
    from django.db import connection

    from matches.draw import service as draw
    from matches.models import RefereeLink, Table, UnionMember
    from matches.public import floor_passes

    round_ = draw.create_round(stage, seed=2026)
    draw.publish_round(round_)
    table = Table.objects.filter(round=round_, match__isnull=False).order_by("number")[0]
    referee = RefereeLink.objects.create(table=table, label="rehearsal")
    password = "rehearse-" + os.urandom(4).hex()
    organiser = User.objects.get(username="festival-organiser")
    organiser.set_password(password)
    organiser.save()
    members = iter(UnionMember.objects.filter(event=event).order_by("pk").select_related("player"))
    first = next(members)
    badge = floor_passes.pass_token(event, player=first.player)
    connection.close()
    box_base = f"http://127.0.0.1:{box.http_port}"
    mirror_base = f"http://127.0.0.1:{mirror.http_port}"
    print(
        f"""
the box (the hall's server):  {box_base}/manage/events/{event.pk}/
    sign in as festival-organiser / {password}
    a table's referee link:   {box_base}/ref/{referee.token}/
the mirror (the public site): {mirror_base}/events/{event.pk}/
    a badge's page:           {mirror_base}/me/{badge}/
{REHEARSAL_HELP}""",
        flush=True,
    )
    for line in sys.stdin:
        word = line.strip().lower()
        if word == "cut":
            link.cut()
            print(
                "the link is cut: the box's dashboard says so at once, the mirror's pages "
                "after the stale time",
                flush=True,
            )
        elif word == "restore":
            link.restore()
            print("the link is back: the mirror catches up within seconds", flush=True)
        elif word == "status":
            print("box:   ", box.manage("hallbox", "status").strip(), flush=True)
            print("mirror:", mirror.manage("hallbox", "status").strip(), flush=True)
        elif word == "badge":
            try:
                member = next(members)
            except StopIteration:
                print("every player has a badge already", flush=True)
                continue
            token = floor_passes.pass_token(event, player=member.player)
            connection.close()
            print(f"made on the box: {box_base}/me/{token}/", flush=True)
            print(f"on the mirror:   {mirror_base}/me/{token}/", flush=True)
        elif word in ("quit", "exit", "q"):
            return
        elif word:
            print(REHEARSAL_HELP, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="40 tables, 2 deals, a 15 s cut")
    parser.add_argument("--tables", type=int, default=None, help="300 (40 with --quick)")
    parser.add_argument("--deals", type=int, default=None, help="4 (2 with --quick)")
    parser.add_argument("--cut", type=float, default=None, help="seconds (1800; 15 with --quick)")
    parser.add_argument("--clients", type=int, default=None, help="referee clients (30; 8)")
    parser.add_argument("--cut-at", type=float, default=0.33, help="share of deals in at the cut")
    parser.add_argument("--beat", type=float, default=None, help="heartbeat seconds (5; 1)")
    parser.add_argument("--stale", type=float, default=None, help="stale after (20; 4) seconds")
    parser.add_argument("--json", action="store_true", help="the figures as JSON, last line")
    parser.add_argument("--keep", action="store_true", help="keep the clusters and logs")
    parser.add_argument(
        "--rehearse",
        action="store_true",
        help="no drill: start both sides (8 tables) and cut or restore the link by typing",
    )
    args = parser.parse_args()
    quick = args.quick or args.rehearse
    if args.rehearse:
        args.tables = args.tables or 8
        args.stale = args.stale or 15
    args.tables = args.tables or (40 if quick else 300)
    args.deals = args.deals or (2 if quick else 4)
    args.cut = args.cut if args.cut is not None else (15 if quick else 1800)
    args.clients = args.clients or (8 if quick else 30)
    args.beat = args.beat or (1 if quick else 5)
    args.stale = args.stale or (4 if quick else 20)

    workdir = Path(tempfile.mkdtemp(prefix="hallbox-"))
    print(
        f"hallbox {'rehearsal' if args.rehearse else 'drill'}: {args.tables} tables, {args.deals} deals a match, cut {args.cut:g} s "
        f"at {args.cut_at:.0%} of the deals; logs in {workdir}",
        flush=True,
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    hall = Hall()
    try:
        box, mirror, box_pg, mirror_pg, link, event, stage = start_hall(args, workdir, hall)
        if args.rehearse:
            rehearse(box, mirror, link, event, stage)
            return
        from django.db import connection

        from matches.draw import service as draw
        from matches.models import RefereeLink, Table

        # Round 1, published on the box; two referee links a table.
        round_ = draw.create_round(stage, seed=2026)
        draw.publish_round(round_)
        tables = list(
            Table.objects.filter(round=round_, match__isnull=False).values_list("pk", flat=True)
        )
        links = RefereeLink.objects.bulk_create(
            [RefereeLink(table_id=t, label=label) for t in tables for label in ("A", "B")]
        )
        by_table: dict[int, list[str]] = {}
        for item in links:
            by_table.setdefault(item.table_id, []).append(item.token)
        jobs = [(t, by_table[t][0], by_table[t][1]) for t in tables]
        secrets = box_secrets(event.pk)
        privates = private_links(event.pk)
        connection.close()

        box_base = f"http://127.0.0.1:{box.http_port}"
        mirror_base = f"http://127.0.0.1:{mirror.http_port}"
        readers = Readers(mirror_base, event.pk)
        readers.start()
        logs, summaries = documents(30, 2026)
        referees = Referees(box.http_port, args.clients, logs, summaries, 0.05, 8, patient=True)
        total = len(jobs) * args.deals
        cut: dict[str, Any] = {"at": 0.0, "back": 0.0, "lag": None, "deals_in_at_cut": 0}

        def cutter() -> None:
            while referees.progress < args.cut_at * total:
                time.sleep(0.05)
            link.cut()
            cut["at"] = time.time()
            cut["deals_in_at_cut"] = referees.progress
            print(f"link cut at {referees.progress}/{total} deals", flush=True)

        watcher = threading.Thread(target=cutter, daemon=True)
        watcher.start()
        played = referees.run(jobs, args.deals)
        watcher.join()
        print(
            f"round played on the box: {played['deals']} deals acknowledged in "
            f"{played['seconds']:.1f} s ({played['deals'] / played['seconds']:.1f} deals/s), "
            f"{len(played['errors'])} errors",
            flush=True,
        )
        # The box finishes its standings while the link is still down.
        box_standings = f"{box_base}/api/v1/public/events/{event.pk}/standings/"
        mirror_standings = f"{mirror_base}/api/v1/public/events/{event.pk}/standings/"
        box_url = box_pg.url("gouji")
        while True:
            rows = mirror_sql(
                box_url,
                "SELECT unfinished FROM matches_standingssnapshot WHERE round_id = %s AND "
                "kind = 'unions' AND scope = 'event'",
                [round_.pk],
            )
            if rows and rows[0][0] == 0:
                break
            time.sleep(0.2)
        # The box's dashboard during the cut: the mirror's lag.
        cut["lag"] = json.loads(box.manage("hallbox", "status").strip().splitlines()[-1])
        remaining = cut["at"] + args.cut - time.time()
        if remaining > 0:
            print(f"waiting {remaining:.0f} s more of the cut", flush=True)
            time.sleep(remaining)
        mirror_during = final_deals(mirror_pg.url("gouji"), event.pk)
        link.restore()
        cut["back"] = time.time()
        print(f"link back after {cut['back'] - cut['at']:.0f} s", flush=True)

        # Until the mirror's standings equal the box's, and its deals the box's.
        _, box_json = fetch_json(box_standings)
        equal_after = None
        deadline = time.time() + 300
        while time.time() < deadline:
            status, mirror_json = fetch_json(mirror_standings)
            if status == 200 and mirror_json == box_json:
                equal_after = time.time() - cut["back"]
                break
            time.sleep(0.25)
        import requests

        cleared_after = None
        while time.time() < deadline:
            answer = requests.get(mirror_base + "/hall/status/", timeout=10)
            if answer.status_code == 200 and "赛场网络中断" not in answer.text:
                cleared_after = time.time() - cut["back"]
                break
            time.sleep(0.25)
        time.sleep(1)
        readers.running = False
        readers.join(timeout=40)

        # On the mirror: the private pages open (by digest), a staff write is refused.
        private_status = [requests.get(mirror_base + p, timeout=30).status_code for p in privates]
        refused = requests.post(
            f"{mirror_base}/api/v1/tables/{jobs[0][0]}/deals/1/reports",
            json={"summary": {}},
            headers={"Authorization": f"Referee {jobs[0][1]}"},
            timeout=30,
        )
        on_box = final_deals(box_url, event.pk)
        on_mirror = final_deals(mirror_pg.url("gouji"), event.pk)
        box_ids, mirror_ids = (
            report_ids(box_url, event.pk),
            report_ids(mirror_pg.url("gouji"), event.pk),
        )
        stale_after = next((t - cut["at"] for t in readers.stale_seen if t >= cut["at"]), None)
        figures = {
            "tables": len(jobs),
            "deals_per_match": args.deals,
            "cut_seconds": round(cut["back"] - cut["at"], 1),
            "deals_in_at_cut": cut["deals_in_at_cut"],
            "acknowledged_on_box": played["deals"],
            "final_on_box": on_box["final_deals"],
            "on_mirror_at_end_of_cut": mirror_during["final_deals"],
            "final_on_mirror": on_mirror["final_deals"],
            # Acknowledged to a referee but not final on the box, or final there but not here.
            "lost": max(0, played["deals"] - on_box["final_deals"]) + len(box_ids - mirror_ids),
            "duplicated": (on_mirror["final_reports"] - on_mirror["final_deals"])
            + (on_mirror["reports"] - on_mirror["distinct_reports"]),
            "extra_on_mirror": len(mirror_ids - box_ids),
            "standings_equal_after_s": None if equal_after is None else round(equal_after, 2),
            "mirror_reads_during_cut": readers.between(cut["at"], cut["back"]),
            "mirror_reads_whole_drill": readers.between(0, time.time()),
            "stale_banner_after_cut_s": None if stale_after is None else round(stale_after, 1),
            "banner_cleared_after_reconnect_s": None
            if cleared_after is None
            else round(cleared_after, 1),
            "box_view_during_cut": cut["lag"],
            "box_errors": played["errors"][:5],
            "private_pages_on_mirror": {
                str(k): private_status.count(k) for k in set(private_status)
            },
            "staff_write_on_mirror": [refused.status_code, refused.json()["error"]["code"]],
            "secrets": secrets_on_mirror(mirror_pg.url("gouji"), secrets),
            "secret_values_checked": {k: len(v) for k, v in secrets.items()},
        }
        print(json.dumps(figures, indent=2, ensure_ascii=False), flush=True)
        if args.json:
            print(json.dumps(figures, ensure_ascii=False))
    finally:
        hall.stop(keep=args.keep)


if __name__ == "__main__":
    main()
