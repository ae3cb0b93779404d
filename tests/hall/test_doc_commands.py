"""docs/hall-box.md, run as written: every command block of its steps, in order, on two private
PostgreSQL clusters (the box and the mirror) with the project's default settings (psycopg's
server-side binding on), through a link the test can cut.

The blocks say where they run (```` ```sh box ````, ```` ```sh mirror ````, ```` ```conf box
pg_hba.conf ````); `Machine.substitutions` is everything that differs on one test machine
(paths, ports, `sudo`, placeholders), and nothing else is changed. Then the walk checks what the doc promises:
the replication account over TLS only, with its password, the mirror's read-only web account,
no secret and no personal data on the mirror, both sides' `hallbox status`, one time for one cut
on both, and a badge link made during the cut (a page saying so on the mirror, then the page).
Three minutes on a quiet 2-core machine (two `migrate`s, the copy, the cut), eight at a load
of 17; marker `drill`, skipped without PostgreSQL's server binaries.
"""

from __future__ import annotations

import getpass
import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pytest

from tests.faults.cluster import PrivateCluster

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "hall-box.md"
FENCE = re.compile(r"^```(\w*)([^\n]*)\n(.*?)^```[ \t]*$", re.M | re.S)
SIDES = ("box", "mirror")


@dataclass
class Block:
    lang: str
    side: str | None
    target: str | None  # a conf block's file
    text: str
    section: str


def doc_blocks() -> list[Block]:
    text = DOC.read_text()
    found = []
    for match in FENCE.finditer(text):
        words = match.group(2).split()
        heading = [h for h in re.findall(r"^##+ .*$", text[: match.start()], re.M)]
        found.append(
            Block(
                lang=match.group(1),
                side=words[0] if words and words[0] in SIDES else None,
                target=words[1] if len(words) > 1 else None,
                text=match.group(3),
                section=heading[-1] if heading else "",
            )
        )
    return found


def step_blocks() -> list[Block]:
    """The blocks of "Step by step" (a TD's commands); the rest of the doc (the drill, the
    rehearsal, the diagram) is not a set-up step."""
    text = DOC.read_text()
    steps = text[text.index("## Step by step") : text.index("## Rehearse the outage")]
    return [b for b in doc_blocks() if f"```{b.lang}" in steps and b.text in steps]


def test_every_command_block_of_the_steps_says_where_it_runs():
    """So that the walk below runs each one: a block with no side would be skipped silently."""
    blocks = step_blocks()
    assert len(blocks) >= 10
    for block in blocks:
        assert block.lang in ("sh", "conf"), block.text
        assert block.side in SIDES, f"{block.section}: a block with no `box` or `mirror`"
        if block.lang == "conf":
            assert block.target in ("postgresql.conf", "pg_hba.conf"), block.target
    commands = "\n".join(b.text for b in blocks)
    # The doc's own promises, which the walk runs.
    assert "hallbox publish --replication-user mirror --replication-password" in commands
    assert "--reader-user gouji_web" in commands
    assert "sslmode=verify-ca" in commands and "ssl = on" in commands
    assert "openssl req -x509" in commands


# --- the walk ----------------------------------------------------------------------------------


def _have_postgres() -> bool:
    try:
        from tests.faults.cluster import pg_bin

        return (pg_bin() / "initdb").exists()
    except RuntimeError:
        return False


def drill(test):
    """A test of the walk: marker `drill`, skipped without PostgreSQL's server binaries."""
    test = pytest.mark.drill(test)
    return pytest.mark.skipif(not _have_postgres(), reason="no PostgreSQL server binaries")(test)


PASSWORDS = {
    "<the replication password>": "rep-" + secrets.token_hex(12),
    "<the app password>": "app-" + secrets.token_hex(12),
    "<the web password>": "web-" + secrets.token_hex(12),
}


@dataclass
class Machine:
    name: str
    cluster: PrivateCluster
    env: dict
    http_port: int
    procs: list = field(default_factory=list)
    outputs: list = field(default_factory=list)  # (command, stdout) of the doc's commands

    def substitutions(self, box: Machine, link_port: int) -> list[tuple[str, str]]:
        """What differs on one test machine: nothing else of the doc's text is changed."""
        from tests.faults.cluster import pg_bin

        port = self.cluster.port
        psql = Path(os.path.realpath(pg_bin() / "pg_ctl")).parent / "psql"
        pairs = [
            # the box's certificate, copied to the mirror (a copy: both are on this machine)
            ("scp root@hall.example.org:/etc/postgresql/15/main/", f"cp {box.cluster.dir}/"),
            # each cluster's own directory
            ("/etc/postgresql/15/main", str(self.cluster.dir)),
            # the superuser: over TCP, not by the socket as the postgres system account
            (
                "sudo -E -u postgres env DATABASE_URL=postgres:///gouji",
                f"env DATABASE_URL=postgres://postgres@127.0.0.1:{port}/gouji",
            ),
            ("sudo -u postgres psql", f"{psql} -h 127.0.0.1 -p {port} -U postgres"),
            # the hall's uplink: the link this test cuts
            ("host=hall.example.org port=5432", f"host=127.0.0.1 port={link_port}"),
            ("127.0.0.1:5432", f"127.0.0.1:{port}"),
            ("203.0.113.20/32", "127.0.0.1/32"),  # the mirror's address
            ("127.0.0.1:8000", f"127.0.0.1:{self.http_port}"),
            (".venv/bin/python", sys.executable),
            (".venv/bin/gunicorn", str(Path(sys.executable).parent / "gunicorn")),
            *PASSWORDS.items(),
        ]
        if os.geteuid() != 0:  # the clusters run as this user, not as postgres
            pairs.append(("chown postgres:postgres", f"chown {getpass.getuser()}"))
        return pairs

    def run(self, command: str, cwd: Path, check: bool = True) -> str:
        done = subprocess.run(
            ["bash", "-ec", command],
            cwd=cwd,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if check and done.returncode:
            raise AssertionError(
                f"{self.name}: `{command}` exited {done.returncode}:\n{done.stdout[-3000:]}\n"
                f"{done.stderr[-3000:]}"
            )
        return done.stdout

    def start(self, command: str, logs: Path) -> None:
        log = open(logs / f"{self.name}-{len(self.procs)}.log", "w")
        self.procs.append(
            subprocess.Popen(
                ["bash", "-c", "exec " + command],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )

    def manage(self, *args: str) -> str:
        return self.run(" ".join([sys.executable, "manage.py", *args]), ROOT)

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


def _commands(text: str) -> list[str]:
    """A shell block's commands: continued lines joined, blank and comment lines dropped."""
    joined = text.replace("\\\n", " ")
    return [line.strip() for line in joined.splitlines() if line.strip() and line[0] != "#"]


def _substitute(text: str, pairs) -> str:
    for old, new in pairs:
        text = text.replace(old, new)
    return text


def run_block(block: Block, machine: Machine, pairs, logs: Path, before=None) -> None:
    """Run one block of the doc on its machine; `before(machine, command)` is called before each
    shell command (the walk's probes)."""
    cluster = machine.cluster
    if block.lang == "conf":
        lines = _substitute(block.text, pairs)
        path = cluster.data / block.target
        if block.target == "pg_hba.conf":  # at the top, as the doc says
            path.write_text(lines + path.read_text())
        else:
            path.write_text(path.read_text() + "\n" + lines)
        return
    cwd = ROOT
    for command in _commands(block.text):
        command = _substitute(command, pairs)
        if command.startswith("export "):
            name, value = command[len("export ") :].split("#")[0].strip().split("=", 1)
            machine.env[name] = value
        elif command.startswith("cd "):
            cwd = Path(command[3:].strip())
        elif command.startswith("pg_ctlcluster "):
            cluster.restart()
        elif "Restart=always" in command:
            machine.start(command.split("#")[0].strip(), logs)
        else:
            if before is not None:
                before(machine, command, cwd)
            machine.outputs.append((command, machine.run(command, cwd)))


def _sql(url: str, sql: str, params=()):
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


def _until(what, timeout: float = 90, every: float = 0.25):
    deadline = time.monotonic() + timeout
    while True:
        value = what()
        if value:
            return value
        assert time.monotonic() < deadline, f"not within {timeout} s: {what.__doc__}"
        time.sleep(every)


def _status(machine: Machine) -> dict:
    return json.loads(machine.manage("hallbox", "status").strip().splitlines()[-1])


def _get(port: int, path: str):
    import requests

    return requests.get(f"http://127.0.0.1:{port}{path}", timeout=30)


BUILD_ON_BOX = """
import json
from festival import build_event
from matches.draw import service as draw
from matches.events import checkin
from matches.models import Registration
from matches.public import floor_passes
from players.models import Player
from seasons import identity

event, stage = build_event(4, 1, 1)
round_ = draw.create_round(stage, seed=7)
draw.publish_round(round_)
one = Player.objects.get(name="选手1")
one.id_number, one.contact = "370202198805050505", "13900139000"
one.save()
kept = Player.objects.create(name="并甲", id_number="370202199001011234", contact="13800138000")
gone = Player.objects.create(name="并甲", id_number="370202199001019999", contact="wx-zhang-merge")
identity.merge(kept, gone, None)
entry = Registration.objects.filter(event=event).order_by("pk").first()
print(json.dumps({
    "event": event.pk,
    "badge": "/me/%s/" % floor_passes.pass_token(event, player=one),
    "entry": "/entry/%s/" % checkin.private_token(entry),
    "personal": ["370202198805050505", "13900139000", "370202199001011234", "13800138000",
                 "370202199001019999", "wx-zhang-merge"],
}))
"""

# During the cut: a badge printed in the hall (a player's own page made now).
BADGE_DURING_CUT = """
from matches.models import Event
from matches.public import floor_passes
from players.models import Player

event = Event.objects.get(pk=%d)
print("/me/%%s/" %% floor_passes.pass_token(event, player=Player.objects.get(name="选手2")))
"""


def _python(machine: Machine, code: str) -> str:
    script = "import django; django.setup()\n" + code
    env = {**machine.env, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'bench'}"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


def _env(tmp: Path, name: str) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DATABASE_", "CELERY_", "CACHE_", "LIVE_", "RATE_", "SITE_"))
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "gouji_tournament.settings",
            "PYTHONPATH": str(ROOT),
            "SECRET_KEY": f"doc-walk-{name}-" + secrets.token_hex(16),
            "DEBUG": "False",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "HALLBOX_BEAT_SECONDS": "1",
            "HALLBOX_STALE_SECONDS": "4",
            "STANDINGS_FILES_DIR": str(tmp / f"{name}-standings"),
            "STAFF_BASE_URL": "http://192.168.1.10",
            "LOG_LEVEL": "WARNING",
            # The app's account, as the settings table of the doc says (trust on these clusters:
            # the password is not checked, the account is).
            "DATABASE_URL": "postgres://gouji:<the app password>@127.0.0.1:5432/gouji",
        }
    )
    return env


class Probes:
    """Checks made in the middle of the walk, where only they can be made."""

    def __init__(self, box_url: str):
        self.box_url = box_url
        self.failed_publish: str | None = None

    def before(self, machine: Machine, command: str, cwd: Path) -> None:
        if "hallbox publish" in command and self.failed_publish is None:
            self.half_done_publish(machine, command, cwd)

    def half_done_publish(self, machine: Machine, command: str, cwd: Path) -> None:
        """Before the doc's publish: the same command failing at the account (a reserved role
        cannot be altered) leaves nothing behind, no publication and no heartbeat."""
        failing = command.replace("--replication-user mirror", "--replication-user pg_monitor")
        assert failing != command
        done = subprocess.run(
            ["bash", "-ec", failing], cwd=cwd, env=machine.env, capture_output=True, text=True
        )
        assert done.returncode != 0
        self.failed_publish = done.stderr[-500:]
        assert _sql(self.box_url, "SELECT count(*) FROM pg_publication") == [(0,)]
        assert _sql(self.box_url, "SELECT count(*) FROM hall_hallbeat") == [(0,)]


@pytest.fixture(scope="module")
def walk(tmp_path_factory):
    from tests.faults.cluster import Link, free_port

    logs = tmp_path_factory.mktemp("doc-walk")
    clusters, machines = [], []
    try:
        box_pg = PrivateCluster()
        clusters.append(box_pg)
        mirror_pg = PrivateCluster()
        clusters.append(mirror_pg)
        link = Link(box_pg.port)
        link.start()
        box = Machine("box", box_pg, _env(logs, "box"), free_port())
        mirror = Machine("mirror", mirror_pg, _env(logs, "mirror"), free_port())
        machines += [box, mirror]
        probes = Probes(box_pg.url("gouji"))
        started = time.monotonic()
        for block in step_blocks():
            machine = box if block.side == "box" else mirror
            pairs = machine.substitutions(box, link.port)
            machine.env["DATABASE_URL"] = _substitute(machine.env["DATABASE_URL"], pairs)
            run_block(block, machine, pairs, logs, before=probes.before)
        walked = time.monotonic() - started
        yield {
            "box": box,
            "mirror": mirror,
            "link": link,
            "logs": logs,
            "walked_s": walked,
            "probes": probes,
            "box_url": box_pg.url("gouji"),
            "mirror_url": mirror_pg.url("gouji"),
        }
    finally:
        for machine in machines:
            machine.stop()
        for cluster in clusters:
            cluster.destroy()


@pytest.fixture(scope="module")
def event(walk):
    """An event with round 1 published, a player with an identity number and a contact, and
    a merge of two records with theirs, on the box; once on the mirror."""
    built = json.loads(_python(walk["box"], BUILD_ON_BOX))

    def copied():
        """the mirror's initial copy done and the event's badge there"""
        states = _sql(walk["mirror_url"], "SELECT srsubstate FROM pg_subscription_rel")
        if not states or any(s != "r" for (s,) in states):
            return False
        return _get(walk["mirror"].http_port, built["badge"]).status_code == 200

    _until(copied, timeout=180)
    return built


@drill
def test_the_doc_runs_and_both_sides_say_they_are_connected(walk, event):
    box, mirror = walk["box"], walk["mirror"]
    # Publication is all or nothing: the same command failing at its account left nothing.
    failed = walk["probes"].failed_publish
    assert (
        "publish changed nothing" in failed and "reserved" in failed and "Traceback" not in failed
    )
    publish = next(out for cmd, out in box.outputs if "hallbox publish" in cmd)
    assert "publication gouji_hall" in publish and "players_player.id_number" in publish
    answer = _until(lambda: (s := _status(box))["mirror"]["connected"] and s)
    assert answer["role"] == "box" and answer["mirror"]["set_up"] is True
    assert "connected" in answer["says"]
    seen = _until(lambda: (s := _status(mirror))["subscription"]["receiving"] and s)
    assert seen["subscription"]["enabled"] is True and seen["stale"] is False
    assert "mirror" not in seen  # the box's view is not printed on the mirror
    assert "following the box" in seen["says"]
    # The doc's own status commands (step 6) ran and printed JSON on each side.
    printed = [out for cmd, out in box.outputs + mirror.outputs if "hallbox status" in cmd]
    assert [json.loads(out)["role"] for out in printed] == ["box", "mirror"]
    # The public name reached on the hall's Wi-Fi tells which server answered (step 5).
    assert _get(mirror.http_port, "/healthz").json()["site"] == "mirror"
    # The public pages answer through the read-only account (none of them writes).
    number = event["event"]
    for path in (
        f"/events/{number}/",
        f"/events/{number}/rounds/1/",
        f"/events/{number}/standings/",
        f"/events/{number}/find/?q=选手1",
        f"/api/v1/public/events/{number}/standings/",
        event["entry"],
    ):
        assert _get(mirror.http_port, path).status_code == 200, path


@drill
def test_the_replication_account_needs_tls_and_its_password(walk, event):
    """The pg_hba.conf lines are at the top: the cluster's own broader `trust` line below them
    would otherwise let the mirror in without either."""
    import psycopg

    port = walk["box"].cluster.port
    password = PASSWORDS["<the replication password>"]
    base = f"host=127.0.0.1 port={port} dbname=gouji user=mirror"
    with psycopg.connect(f"{base} password={password} sslmode=require") as conn:
        assert conn.execute("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()").fetchone()[
            0
        ]
        # Its grants: the published columns, not the secrets.
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT id_number FROM players_player")
    with psycopg.connect(f"{base} password={password} sslmode=require") as conn:
        assert conn.execute("SELECT count(name) FROM players_player").fetchone()[0] > 0
    with pytest.raises(psycopg.OperationalError, match="reject|pg_hba"):
        psycopg.connect(f"{base} password={password} sslmode=disable")
    with pytest.raises(psycopg.OperationalError, match="password authentication failed"):
        psycopg.connect(f"{base} password=wrong sslmode=require")


@drill
def test_the_mirrors_web_account_reads_and_never_writes(walk, event):
    import psycopg

    url = walk["mirror"].env["DATABASE_URL"]
    assert "gouji_web" in url
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SHOW default_transaction_read_only").fetchone()[0] == "on"
        assert conn.execute("SELECT count(*) FROM matches_event").fetchone()[0] >= 1
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            conn.execute("UPDATE matches_event SET name = 'x'")
        # Switched off by the session itself: the missing right still refuses it.
        conn.execute("SET default_transaction_read_only = off")
        for statement in (
            "UPDATE matches_event SET name = 'x'",
            "DELETE FROM hall_hallbeat",
            "INSERT INTO django_session VALUES ('k', 'd', now())",
            "TRUNCATE matches_dealreport",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)


@drill
def test_no_secret_and_no_personal_data_reach_the_mirror(walk, event):
    import psycopg

    url = walk["mirror_url"]
    nulls = _sql(
        url,
        "SELECT count(*) FILTER (WHERE id_number IS NOT NULL OR contact IS NOT NULL), count(*) "
        "FROM players_player",
    )[0]
    assert nulls[0] == 0 and nulls[1] > 0
    merges = _sql(
        url,
        "SELECT count(*) FILTER (WHERE merged_fields IS NOT NULL), count(*) "
        "FROM seasons_playermerge",
    )[0]
    assert merges == (0, 1)
    chunks = []
    with psycopg.connect(url, autocommit=True) as conn:
        for (table,) in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        ).fetchall():
            with conn.cursor().copy(f'COPY "{table}" TO STDOUT') as copy:
                chunks.extend(bytes(block).decode() for block in copy)
    data = "".join(chunks)
    assert "并甲" in data  # the search can find what is there
    found = [value for value in event["personal"] if value in data]
    assert found == []
    assert event["badge"].split("/")[2] not in data  # the token; its digest is there


@drill
def test_one_cut_has_one_time_and_a_badge_made_during_it_waits_with_a_page(walk, event):
    box, mirror, link = walk["box"], walk["mirror"], walk["link"]
    link.cut()
    try:
        stale = _until(lambda: (s := _status(mirror))["stale"] and s)
        assert stale["subscription"]["receiving"] is False
        assert "not receiving from the box" in stale["says"]
        lag = _until(lambda: not (s := _status(box))["mirror"]["connected"] and s)
        # The box names the heartbeat the mirror holds: the mirror's own "last update".
        held = datetime.fromisoformat(lag["mirror"]["holds_until"])
        last = datetime.fromisoformat(stale["last_beat"])
        assert abs((held - last).total_seconds()) <= 1.5, (held, last)
        assert "not connected" in lag["says"]
        # A badge printed in the hall now: on the mirror, a page that says so (not a 404).
        badge = _python(box, BADGE_DURING_CUT % event["event"])
        answer = _get(mirror.http_port, badge)
        assert answer.status_code == 503 and answer.headers["Retry-After"] == "60"
        assert "这个链接稍后可用" in answer.text and "赛场网络中断" in answer.text
        import requests

        en = requests.get(
            f"http://127.0.0.1:{mirror.http_port}{badge}",
            cookies={"django_language": "en"},
            timeout=30,
        )
        assert "This link will work shortly" in en.text
        # The badge from before the cut opens as ever.
        assert _get(mirror.http_port, event["badge"]).status_code == 200
    finally:
        link.restore()
    _until(lambda: _get(mirror.http_port, badge).status_code == 200, timeout=120)
    _until(lambda: not _status(mirror)["stale"], timeout=60)
    # Once the hall reports, an unknown link is a plain 404 again.
    assert _get(mirror.http_port, "/me/" + "x" * 24 + "/").status_code == 404
