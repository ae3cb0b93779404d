"""CI's second pass (PostgreSQL, Redis, real workers) leaves out only the tests that cannot tell
one backend from another: a test that touches the database always runs there. The first pass
(the embedded default) leaves out only database tests of code that runs the same on SQLite."""

from __future__ import annotations

from types import SimpleNamespace

from tests.conftest import _runs_the_same_on_every_backend


def item(nodeid: str, fixtures=(), django_db: bool = False):
    marker = object() if django_db else None
    return SimpleNamespace(
        nodeid=nodeid,
        fixturenames=list(fixtures),
        get_closest_marker=lambda name: marker if name == "django_db" else None,
    )


def test_an_engine_test_runs_once():
    assert _runs_the_same_on_every_backend(item("tests/games/gouji/engine/test_replay.py::test_x"))
    assert _runs_the_same_on_every_backend(item("tests/test_pages_doc.py::test_x[a]"))


def test_a_test_that_touches_the_database_runs_in_the_second_pass():
    assert not _runs_the_same_on_every_backend(
        item("tests/games/gouji/test_adapter.py::test_x", django_db=True)
    )
    assert not _runs_the_same_on_every_backend(
        item("tests/games/giog/test_views.py::test_x", fixtures=["client", "db"])
    )
    assert not _runs_the_same_on_every_backend(
        item("tests/browser/test_x.py::test_x", fixtures=["live_server"])
    )


def test_a_test_elsewhere_runs_in_both_passes_even_without_the_database():
    # The rate limiter's and the settings' tests read the cache and broker the pass configures.
    assert not _runs_the_same_on_every_backend(item("tests/results/test_rate_window.py::test_x"))
    assert not _runs_the_same_on_every_backend(item("tests/test_foundation.py::test_x"))


def test_the_first_pass_leaves_only_database_tests_of_code_the_same_on_sqlite_to_the_second():
    from tests.conftest import _left_to_the_database_pass as left

    organiser_page = item("tests/organiser/test_setup.py::test_x", fixtures=["client", "db"])
    assert left(organiser_page)
    assert left(item("tests/ladders/test_pages.py::test_x", django_db=True))
    # What differs on SQLite, eager Celery and the local-memory cache runs in both passes.
    assert not left(item("tests/store/test_statements.py::test_x", fixtures=["db"]))
    assert not left(item("tests/hostile/test_every_url.py::test_x", django_db=True))
    assert not left(item("tests/live/test_push.py::test_x", fixtures=["live_server"]))
    assert not left(item("tests/ladders/test_migration.py::test_x", django_db=True))
    assert not left(item("tests/seasons/test_ratings.py::test_x", fixtures=["db"]))
    # A test without the database always runs in the first pass.
    assert not left(item("tests/organiser/test_bulk_paste.py::test_x"))
    assert not left(item("tests/games/gouji/engine/test_replay.py::test_x"))


def test_no_test_is_left_out_of_both_passes():
    from tests.conftest import _left_to_the_database_pass as left

    for path in (
        "tests/games/x/test_a.py",
        "tests/organiser/test_a.py",
        "tests/hall/test_drill.py",
    ):
        for fixtures in ((), ("db",), ("live_server",)):
            one = item(f"{path}::test_x", fixtures=fixtures)
            assert not (left(one) and _runs_the_same_on_every_backend(one)), (path, fixtures)


def test_pytest_xdist_gets_the_longest_files_first_each_file_whole():
    from tests.conftest import LONG_FILES, _longest_files_first

    long_file = next(iter(LONG_FILES))
    items = [
        item(f"tests/organiser/test_many.py::test_{i}", fixtures=["db"]) for i in range(15)
    ] + [
        item("tests/browser/test_walk.py::test_a", fixtures=["live_server"]),
        item("tests/games/test_pure.py::test_a"),
        item(f"{long_file}::test_a", fixtures=["live_server"]),
        item("tests/browser/test_walk.py::test_b", fixtures=["live_server"]),
    ]
    order = [one.nodeid for one in _longest_files_first(items)]
    # The file measured long, then two live-server tests (a page each) before 15 rolled-back
    # database tests, the test without the database last; each file's tests together, in order.
    assert order[:3] == [
        f"{long_file}::test_a",
        "tests/browser/test_walk.py::test_a",
        "tests/browser/test_walk.py::test_b",
    ]
    assert order[3:18] == [f"tests/organiser/test_many.py::test_{i}" for i in range(15)]
    assert order[18:] == ["tests/games/test_pure.py::test_a"]
