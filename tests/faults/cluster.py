"""A throw-away PostgreSQL server of its own, for the tests and drills that restart one, and
the hall box's pieces (`LogicalCluster`, a `Link` that can be cut: bench/hallbox.py,
tests/hall/test_doc_commands.py).

Restarting the machine's shared server would disturb everything else running on it, so
`tests/faults/test_postgres_restart.py` and `bench/festival.py --faults` each start a private
cluster (initdb into a temporary directory, as the `postgres` user when run as root) on a free
port, and remove it at the end.
"""

from __future__ import annotations

import os
import selectors
import shutil
import socket
import subprocess
import tempfile
import threading
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


class LogicalCluster(PrivateCluster):
    """A private cluster that can publish and subscribe."""

    def _ctl(self, *args: str) -> None:
        options = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c wal_level=logical -c max_wal_senders=10 -c max_replication_slots=10 "
            "-c max_connections=200"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-w", "-l", str(self.dir / "log"), "-o", options, *args
        )


class Link(threading.Thread):
    """The hall's uplink: a TCP relay from the mirror to the box's PostgreSQL. `cut()` drops
    every connection and refuses new ones until `restore()`."""

    def __init__(self, target_port: int):
        super().__init__(daemon=True)
        self.target = target_port
        self.port = free_port()
        self.up = True
        self.lock = threading.Lock()
        self.pairs: list[tuple[socket.socket, socket.socket]] = []
        self.server = socket.create_server(("127.0.0.1", self.port))

    def run(self) -> None:
        while True:
            client, _ = self.server.accept()
            if not self.up:
                client.close()
                continue
            try:
                box = socket.create_connection(("127.0.0.1", self.target))
            except OSError:
                client.close()
                continue
            with self.lock:
                self.pairs.append((client, box))
            threading.Thread(target=self.pump, args=(client, box), daemon=True).start()

    def pump(self, a: socket.socket, b: socket.socket) -> None:
        sel = selectors.DefaultSelector()
        sel.register(a, selectors.EVENT_READ, b)
        sel.register(b, selectors.EVENT_READ, a)
        try:
            while self.up:
                for key, _ in sel.select(timeout=0.5):
                    data = key.fileobj.recv(65536)  # type: ignore[union-attr]
                    if not data:
                        return
                    key.data.sendall(data)
        except OSError:
            return
        finally:
            for s in (a, b):
                try:
                    s.close()
                except OSError:
                    pass

    def cut(self) -> None:
        self.up = False
        with self.lock:
            for a, b in self.pairs:
                for s in (a, b):
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
            self.pairs.clear()

    def restore(self) -> None:
        self.up = True
