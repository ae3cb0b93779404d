"""The hall box drill in its short form (bench/hallbox.py --quick): two private PostgreSQL
clusters, the box (gunicorn, two Celery workers, the heartbeat) and the mirror (gunicorn, the
listener) subscribed through a relay the drill cuts while a round is reported on the box.
About a minute; skipped where PostgreSQL's server binaries or redis-server are missing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _have_postgres() -> bool:
    try:
        from tests.faults.cluster import pg_bin

        return (pg_bin() / "initdb").exists() or bool(shutil.which("initdb"))
    except RuntimeError:
        return False


pytestmark = [
    pytest.mark.drill,
    pytest.mark.skipif(not _have_postgres(), reason="no PostgreSQL server binaries"),
    pytest.mark.skipif(not shutil.which("redis-server"), reason="no redis-server"),
]


@pytest.fixture(scope="module")
def figures():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "hallbox.py"), "--quick", "--json"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_no_deal_is_lost_or_duplicated_across_the_cut(figures):
    assert figures["acknowledged_on_box"] == figures["tables"] * figures["deals_per_match"]
    assert figures["box_errors"] == []
    # The cut really held results back from the mirror...
    assert figures["on_mirror_at_end_of_cut"] < figures["acknowledged_on_box"]
    # ...and every one of them arrived once.
    assert figures["final_on_mirror"] == figures["acknowledged_on_box"]
    assert figures["lost"] == 0
    assert figures["duplicated"] == 0
    assert figures["extra_on_mirror"] == 0


def test_the_mirror_catches_up_and_never_fails_a_reader(figures):
    assert figures["standings_equal_after_s"] is not None
    assert figures["standings_equal_after_s"] <= 60
    during = figures["mirror_reads_during_cut"]
    assert during["requests"] > 20
    assert during["5xx"] == 0
    assert figures["mirror_reads_whole_drill"]["5xx"] == 0


def test_staleness_is_shown_on_the_mirror_and_the_lag_on_the_box(figures):
    assert figures["stale_banner_after_cut_s"] is not None
    assert figures["banner_cleared_after_reconnect_s"] is not None
    mirror = figures["box_view_during_cut"]["mirror"]
    assert mirror["set_up"] and not mirror["connected"]
    assert mirror["behind_bytes"] > 0


def test_no_secret_reaches_the_mirror(figures):
    secrets = figures["secrets"]
    assert set(secrets["non-empty secret columns"].values()) == {0}
    assert set(secrets["box secrets found in the mirror's rows"].values()) == {0}
    checked = figures["secret_values_checked"]
    for kind in (
        "password hashes",
        "referee link tokens",
        "private-link tokens",
        "own-page tokens",
    ):
        assert checked[kind] > 0, kind  # the search had something to find
    assert secrets["own-page digests on the mirror"] > 0


def test_private_pages_open_and_staff_writes_are_refused_on_the_mirror(figures):
    assert figures["private_pages_on_mirror"] == {"200": 10}
    assert figures["staff_write_on_mirror"] == [403, "run_from_hall"]
