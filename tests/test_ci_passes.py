"""CI's second pass (PostgreSQL, Redis, real workers) leaves out only the tests that cannot tell
one backend from another: a test that touches the database always runs in both passes."""

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


def test_a_test_that_touches_the_database_runs_in_both_passes():
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
