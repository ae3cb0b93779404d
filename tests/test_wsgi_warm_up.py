"""A gunicorn worker's start (gouji_tournament/wsgi.py): what its first requests would import
is imported at start, and the warm-up connects to nothing, so a worker starts while Redis and
the broker are away."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import sys
import gouji_tournament.wsgi
from django.core.cache import caches
from gouji_tournament.celery import app
from matches.kernel.games.registry import ADAPTERS
missing = [p.rsplit('.', 1)[0] for p in ADAPTERS.values() if p.rsplit('.', 1)[0] not in sys.modules]
assert not missing, missing
assert app.finalized
assert 'matches.api.results' in sys.modules and 'matches.results.submit' in sys.modules
assert type(caches['default']).__name__ == 'TolerantRedisCache'
print('warm')
"""


def _start(**env):
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "gouji_tournament.settings",
        # Nothing listens on port 1: any connection attempt would fail or hang the start.
        "CELERY_BROKER_URL": "redis://127.0.0.1:1/0",
        "CACHE_URL": "redis://127.0.0.1:1/0",
        **env,
    }
    environment.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_worker_starts_warm_while_redis_and_the_broker_are_away():
    started = _start()
    assert started.returncode == 0, started.stderr[-2000:]
    assert started.stdout.strip() == "warm"


def test_the_warm_up_can_be_turned_off():
    started = _start(GOUJI_WARM_UP="0")
    assert started.returncode != 0  # the probe's first assertion: adapters not imported
    assert "AssertionError" in started.stderr
