"""Shared fixtures. Events are made by tests/builder.py, people by tests/personas.py (whose
fixtures are imported here). Browser fixtures live in tests/browser/conftest.py."""

import contextlib
import os
import sys
import tempfile
import traceback

import pytest
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

if sys.version_info[:2] == (3, 11) and hasattr(
    traceback, "_extract_caret_anchors_from_line_segment"
):
    # CPython 3.11 keeps the AST builder's depth counter per interpreter, not per thread
    # (python/cpython#106905): two threads building ASTs at once fail one of them with
    # "SystemError: AST constructor recursion depth mismatch". Formatting a traceback parses
    # its source lines to place the carets, so a live server's thread logging an error broke a
    # test's own parse (schemathesis, hypothesis' explain phase, tests/games/test_messages.py).
    # Tracebacks in the tests' logs keep their lines and plain carets.
    traceback._extract_caret_anchors_from_line_segment = lambda segment: None

# The machine the tests run on is shared and its load swings: a property is judged by its
# examples, never by how fast they were drawn or run (a timed unit test is what the benchmarks
# in bench/ are for). A test's own @settings still wins over these defaults.
hypothesis_settings.register_profile(
    "shared-machine", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("shared-machine")

from tests.personas import (  # noqa: E402, F401 (fixtures)
    built,
    captain,
    organiser,
    other_organiser,
    public,
    referee,
    referee_link,
    setup,
    stranger,
)


def pytest_configure(config):
    """Under pytest-xdist, each test process may get a Redis of its own (broker and cache):
    `XDIST_BROKER_URLS` / `XDIST_CACHE_URLS`, one URL per process, space-separated (.ci/run
    starts one Celery worker per process, each on its process's test database and broker).
    Set before the first use of either; subprocesses the tests start inherit them."""
    # pytest-xdist hands out the files in the order collected, longest first (see
    # `_longest_files_first`), not by their count of tests.
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw"):
        return
    index = int(worker[2:])
    from django.conf import settings

    from gouji_tournament.celery import app

    brokers = os.environ.get("XDIST_BROKER_URLS", "").split()
    if index < len(brokers):
        os.environ["CELERY_BROKER_URL"] = settings.CELERY_BROKER_URL = brokers[index]
        app.conf.broker_url = brokers[index]
    caches = os.environ.get("XDIST_CACHE_URLS", "").split()
    if index < len(caches):
        os.environ["CACHE_URL"] = settings.CACHE_URL = caches[index]
        settings.CACHES["default"]["LOCATION"] = caches[index]


# .ci/run runs the suite twice: every test at least once, every database test on PostgreSQL.
#
# - The second pass (PostgreSQL, Redis, real workers) sets GOUJI_DATABASE_PASS=1 and runs every
#   test but those that cannot see which database, cache or broker is configured: they ran in
#   the first pass and would run the same code on the same inputs again. They are the engines'
#   and the pairing package's own tests (pure Python, no Django) and the checks of the
#   documentation, the translations and the hall box drill (its own private clusters), when
#   they use no database.
# - The first pass (the embedded default: SQLite, eager Celery, the local-memory cache) sets
#   GOUJI_EMBEDDED_PASS=1 and runs every test that uses no database, and of those that do, the
#   tests of what differs on the embedded default (EMBEDDED_DIFFERS, and every migration test):
#   the SQL the store writes per database (matches/store), SQLite's transactions and its file
#   shared by a live server's threads, the migrations (SQLite rebuilds a table to alter it),
#   the cache (local memory: rate limits, the front cache, the live check's claim), the
#   ratings' lock (PostgreSQL's only), the hall box's status, the settings and the demo, and
#   every URL and API fuzzed (an id out of range is SQLite's OverflowError, PostgreSQL's
#   DataError). The other database tests run the same ORM code on PostgreSQL in the second pass.
SAME_ON_EVERY_BACKEND = (
    "tests/games/",
    "tests/draw/generator/",
    "tests/test_pages_doc.py",
    "tests/test_translations.py",
    "tests/hall/test_drill.py",
    "tests/hall/test_doc_commands.py",
)
EMBEDDED_DIFFERS = (
    "tests/hostile/",
    "tests/store/",
    "tests/results/",
    "tests/models/",
    "tests/live/",
    "tests/hall/",
    "tests/public/test_nginx.py",
    "tests/public/test_standings_files.py",
    "tests/public/test_front_cache.py",
    "tests/public/test_cache_keys.py",
    "tests/public/test_forgets.py",
    "tests/public/test_find.py",
    "tests/standings/test_festival_cache.py",
    "tests/seasons/test_ratings.py",
    "tests/test_load_demo.py",
    "tests/test_foundation.py",
    "tests/test_wsgi_warm_up.py",
)
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences", "live_server"}


def _touches_the_database(item) -> bool:
    return bool(item.get_closest_marker("django_db") or DATABASE_FIXTURES & set(item.fixturenames))


def _runs_the_same_on_every_backend(item) -> bool:
    return not _touches_the_database(item) and item.nodeid.startswith(SAME_ON_EVERY_BACKEND)


def _left_to_the_database_pass(item) -> bool:
    """A database test of code that runs the same on SQLite as on PostgreSQL (see above)."""
    path = item.nodeid.split("::")[0]
    return (
        _touches_the_database(item)
        and not path.startswith(EMBEDDED_DIFFERS)
        and "migration" not in path.rsplit("/", 1)[-1]
    )


def pytest_collection_modifyitems(config, items):
    if os.environ.get("GOUJI_DATABASE_PASS") == "1":
        elsewhere = _runs_the_same_on_every_backend
    elif os.environ.get("GOUJI_EMBEDDED_PASS") == "1":
        elsewhere = _left_to_the_database_pass
    else:
        elsewhere = None
    if elsewhere is not None:
        again = [item for item in items if elsewhere(item)]
        if again:
            config.hook.pytest_deselected(items=again)
            items[:] = [item for item in items if not elsewhere(item)]
    if os.environ.get("PYTEST_XDIST_WORKER"):  # a test process of `-n 2`: see below
        items[:] = _longest_files_first(items)


# Under `--dist loadfile` (`make test`, `make check`, .ci/run) pytest-xdist hands each test
# process one file at a time, the next when it has almost run out. By default it hands them out
# by their count of tests, most first: a file of a few long tests (a whole deal tapped through
# in the browser, the URL fuzzer, the hall box drill, a migration test) came last, and one
# process ran it alone while the other had nothing left. The files go out instead the longest
# first, by an estimate (the longest job first keeps two processes busy to the end): a file's
# seconds are those measured in CI (`--durations`) when it is below, else its tests counted by
# what each sets up (a live server and a browser page, a database emptied after the test, a
# transaction rolled back, nothing).
LONG_FILES = {  # seconds on a quiet machine, from CI's --durations in either pass
    "tests/browser/test_live_operator_modes.py": 90,  # two whole deals tapped through
    "tests/public/test_public_walk.py": 100,  # every GET route, twice, per release setting
    "tests/browser/test_live_tables.py": 50,  # a spectator waits out a delay
    "tests/hostile/test_every_url.py": 80,
    "tests/hall/test_doc_commands.py": 60,
    "tests/hall/test_drill.py": 35,
    "tests/organiser/test_game_settings_migration.py": 30,
    "tests/test_load_demo.py": 25,
    "tests/faults/test_postgres_restart.py": 25,
    "tests/models/test_sides_migration.py": 20,
    "tests/models/test_tally_migration.py": 18,
    "tests/live/test_live_api.py": 15,
    "tests/organiser/test_rights_table.py": 15,
    "tests/faults/test_worker_kill.py": 15,
    "tests/sheets/test_stack.py": 15,
    "tests/games/test_messages.py": 13,
    "tests/hostile/test_schemathesis.py": 12,
    "tests/ladders/test_migration.py": 11,
    "tests/live/test_operator_page.py": 10,
    "tests/hall/test_mirror_guard.py": 8,
    "tests/results/test_api_fuzz.py": 7,
}
SECONDS_A_TEST = {"live_server": 4.5, "transactional_db": 1.5, "db": 0.4}


def _estimate(item) -> float:
    fixtures = set(item.fixturenames)
    marker = item.get_closest_marker("django_db")
    if "live_server" in fixtures:
        return SECONDS_A_TEST["live_server"]
    if "transactional_db" in fixtures or (marker and marker.kwargs.get("transaction")):
        return SECONDS_A_TEST["transactional_db"]
    return SECONDS_A_TEST["db"] if _touches_the_database(item) else 0.05


def _longest_files_first(items):
    files: dict[str, list] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)
    seconds = {
        path: LONG_FILES.get(path) or sum(_estimate(item) for item in tests)
        for path, tests in files.items()
    }
    order = sorted(files, key=lambda path: -seconds[path])  # stable: ties keep their order
    return [item for path in order for item in files[path]]


#: Written by the migrations and post_migrate (content types, permissions), which no test
#: changes: PostgreSQL's flush keeps them, so post_migrate need not write them again.
KEPT_BY_THE_FLUSH = ("django_content_type", "auth_permission")


def _flush_by_delete(truncate):
    """PostgreSQL's `flush` (the end of every transactional and live-server test) as one DELETE
    a table instead of one TRUNCATE of them all: TRUNCATE gives each of the 150-odd tables, its
    indexes and its TOAST table new files, synced to disk at the commit, 3-4 s a test on this
    machine under load, DELETE of the few rows a test wrote 0.3 s. Django's foreign keys on
    PostgreSQL are checked at the commit (DEFERRABLE INITIALLY DEFERRED), so the order of the
    tables does not matter; sequences are not reset by either (`reset_sequences` keeps
    TRUNCATE ... RESTART IDENTITY). DELETE takes no ACCESS EXCLUSIVE lock either, which a
    worker's transaction still open at the test's end would have had to wait for.

    The DELETEs go as one statement (one round trip, not one a table), and the content types
    and permissions stay (KEPT_BY_THE_FLUSH): the post_migrate signal that Django sends after a
    flush to write them again (two queries an app, 0.15-0.2 s a test here) is then left out
    (`_no_post_migrate_after_a_postgresql_flush`)."""

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        tables = [table for table in tables if table not in KEPT_BY_THE_FLUSH]
        if reset_sequences:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        delete = style.SQL_KEYWORD("DELETE FROM")
        if not tables:
            return []
        return ["\n".join(f"{delete} {style.SQL_FIELD(self.quote_name(t))};" for t in tables)]

    return sql_flush


def _flush_postgresql_by_delete():
    from django.core.management.commands import flush
    from django.db import connections
    from django.db.backends.postgresql.operations import DatabaseOperations

    DatabaseOperations.sql_flush = _flush_by_delete(DatabaseOperations.sql_flush)
    emit = flush.emit_post_migrate_signal

    def _no_post_migrate_after_a_postgresql_flush(verbosity, interactive, db, **kwargs):
        if connections[db].vendor != "postgresql":  # SQLite's flush empties every table
            emit(verbosity, interactive, db, **kwargs)

    flush.emit_post_migrate_signal = _no_post_migrate_after_a_postgresql_flush


_flush_postgresql_by_delete()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(request):
    """On SQLite the test database is a file of this process (in /dev/shm where there is one),
    not Django's default shared-cache in-memory database.

    A live server (tests/browser, tests/live, tests/public/test_nginx.py) serves each request
    in a thread of its own, and the live push's public check (matches/events/notify.py) reads
    in another. pytest-django hands the test's own connection to the server's threads only when
    the in-memory database exists as the server starts, and the session-scoped `live_server` is
    set up before the test database: each of these threads opened a connection of its own to
    the shared cache. There a read holds a lock on its tables, and a write from another
    connection to one of them fails at once with "database table is locked: matches_stage"
    (SQLITE_LOCKED: no busy timeout retries it), a test's write beside a request still being
    served, or a page's read beside a test's write: now and then, more often the more loaded
    the machine. (Handing every thread one connection instead would mix their transactions.)
    A file gives each thread a connection of its own with the settings' WAL, IMMEDIATE
    transactions and busy timeout, as the embedded default runs: a reader never waits, a
    writer waits for the other writer to commit. pytest-xdist's processes have pids of their
    own, so each has its own file."""
    from django.conf import settings

    # pytest-django's own fixture of this name: pytest-xdist's suffix to the database's name.
    request.getfixturevalue("django_db_modify_db_settings_parallel_suffix")
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        yield
        return
    folder = "/dev/shm" if os.access("/dev/shm", os.W_OK) else tempfile.gettempdir()
    name = os.path.join(folder, f"gouji-test-{os.getpid()}.sqlite3")
    database.setdefault("TEST", {})["NAME"] = name
    yield
    for path in (name, f"{name}-wal", f"{name}-shm"):  # Django removes only the first
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)


@pytest.fixture
def build(db):
    """`build(unions=4, deals=2, ...)`: a Gou Ji event with its unions registered and checked in
    (tests.builder.EventBuilder; `build(game="giog", players=8)` for Giog)."""
    from tests.builder import EventBuilder

    def make(game="gouji", **kwargs):
        return EventBuilder(game, **kwargs).register()

    return make


@pytest.fixture
def giog(db):
    """A Giog event of eight players, registered and checked in, no round yet."""
    from tests.builder import EventBuilder

    return EventBuilder("giog", players=8).register()


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Tests make many accounts: the default PBKDF2 hasher would dominate the run time."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def no_standings_files(settings):
    """The standings pages written as files for nginx (matches/public/standings_files.py) are off
    in tests, but for the ones that turn them on (tests/public/test_standings_files.py)."""
    settings.STANDINGS_FILES_DIR = ""


@pytest.fixture
def swiss(db):
    """A team event of 12 unions (one deal a match) after three closed Swiss rounds, every
    result final at once, through the services (tests.builder.EventBuilder)."""
    from matches.models import Event
    from tests.builder import EventBuilder

    return (
        EventBuilder(
            unions=12, deals=1, planned_rounds=4, clubs=4, confirmation=Event.Confirmation.NONE
        )
        .register()
        .play_rounds(3)
    )


@pytest.fixture
def swiss_event(swiss):
    """The event of `swiss`."""
    return swiss.event


@pytest.fixture
def redis_cache():
    """The app's Redis cache backend (gouji_tournament/cache.py) on Redis database 10, whatever
    cache the settings name; skipped where no Redis listens."""
    import redis

    from gouji_tournament.cache import TolerantRedisCache

    url = "redis://127.0.0.1:6379/10"
    try:
        redis.Redis.from_url(url).ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    return TolerantRedisCache(url, {"KEY_PREFIX": "test-hotpath"})


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """Rate-limit counters and lockouts (matches/ratelimit.py) live in the cache: start every
    test without the failures of the tests before it."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def eager_tasks():
    """Run Celery tasks in-process, also in CI's pass with a real worker. For transactional
    tests that do not test the worker: a worker still computing standings from one of their
    results could deadlock with pytest-django's TRUNCATE at the end of the test."""
    from gouji_tournament.celery import app

    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, False
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved


@pytest.fixture(autouse=True)
def eager_tasks_behind_a_live_server(request):
    """Browser and HTTP tests against a live server run the computations in the server thread
    (as on the embedded default), never in CI's shared worker: see `eager_tasks`."""
    if "live_server" in request.fixturenames:
        request.getfixturevalue("eager_tasks")


@pytest.fixture(autouse=True)
def quiet_live_checks(request):
    """A test whose commits are real (a live server, a transactional database) leaves the live
    push's public check thread (matches/events/notify.py) idle before its database is emptied:
    no check of this test's events runs on into the next test, reading tables being emptied."""
    if not {"live_server", "transactional_db"} & set(request.fixturenames):
        yield
        return
    request.getfixturevalue("transactional_db")
    yield
    from matches.events import notify

    notify.quiesce()


@pytest.fixture(autouse=True)
def default_language():
    """Every test starts in the site's default language (zh-hans): a request in English leaves
    its language active in the thread (LocaleMiddleware does not undo it), and a later test
    calling a service directly would otherwise read English."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)
