"""A burst of stream openings reads the database once (matches/public/limits.py
`shared_reading`): bench/spectators.py's 2,000 spectators opening at once each read their feature
table's moments, and PostgreSQL refused the connections beyond its limit (503 at opening)."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.cache import cache

from matches.public import limits


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def _wait_for(condition, seconds: float = 5.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "condition not met"
        time.sleep(0.005)


def test_a_burst_of_openings_reads_once_and_all_get_the_reading():
    reads: list[int] = []
    release = threading.Event()

    def read():
        reads.append(1)
        release.wait(5)  # the database is slow: the others arrive meanwhile
        return (True, 60.0, [1.0, 2.0])

    with ThreadPoolExecutor(40) as pool:
        answers = [pool.submit(limits.shared_reading, "opening:burst", 2, read) for _ in range(40)]
        _wait_for(lambda: reads)
        release.set()
        results = [answer.result(10) for answer in answers]
    assert len(reads) == 1
    assert results == [(True, 60.0, [1.0, 2.0])] * 40
    # Within its seconds the next opening reads nothing; a negative answer is shared the same.
    assert limits.shared_reading("opening:burst", 2, lambda: pytest.fail("read again")) == (
        True,
        60.0,
        [1.0, 2.0],
    )
    assert limits.shared_reading("opening:none", 2, lambda: False) is False
    assert limits.shared_reading("opening:none", 2, lambda: pytest.fail("read again")) is False


def test_a_reader_that_fails_leaves_the_reading_to_the_next():
    def broken():
        raise RuntimeError("database gone")

    with pytest.raises(RuntimeError):
        limits.shared_reading("opening:fails", 2, broken)
    assert limits.shared_reading("opening:fails", 2, lambda: "read") == "read"


def test_an_opening_whose_reader_died_reads_for_itself(monkeypatch):
    """A claim whose holder never answers (its process killed) holds the others for
    `READING_WAIT` at most, not for good."""
    monkeypatch.setattr(limits, "READING_WAIT", 0.2)
    assert limits._claim("opening:dead:reading", 60)  # a reader that will never answer
    started = time.monotonic()
    assert limits.shared_reading("opening:dead", 2, lambda: "mine") == "mine"
    assert 0.2 <= time.monotonic() - started < 5
