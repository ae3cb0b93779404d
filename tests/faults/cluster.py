"""A throw-away PostgreSQL server of its own, for the tests and drills that restart one.

Restarting the machine's shared server would disturb everything else running on it, so
`tests/faults/test_postgres_restart.py` and `bench/festival.py --faults` each start a private
cluster (initdb into a temporary directory, as the `postgres` user when run as root) on a free
port, and remove it at the end.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_bin() -> Path:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
    if not versions:
        raise RuntimeError("no PostgreSQL server binaries (initdb, pg_ctl) on this machine")
    return versions[-1]


class PrivateCluster:
    """A throw-away PostgreSQL server in a temporary directory, on a free port."""

    def __init__(self):
        self.dir = Path(tempfile.mkdtemp(prefix="gouji-pg-"))
        self.port = free_port()
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_postgres:
            shutil.chown(self.dir, "postgres")
        self.data = self.dir / "data"
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "-E",
            "UTF8",
            "--no-sync",
        )
        self.start()

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self.as_postgres, str(pg_bin() / tool), *args],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def _ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl", "-D", str(self.data), "-w", "-l", str(self.dir / "log"), "-o", options, *args
        )

    def start(self):
        self._ctl("start")

    def stop(self, mode: str):
        self._ctl("stop", "-m", mode)

    def restart(self):
        self._ctl("restart", "-m", "fast")

    def url(self, name: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{name}"

    def destroy(self):
        try:
            self.stop("immediate")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)
