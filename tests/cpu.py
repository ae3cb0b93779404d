"""What a piece of work costs, for tests that bound one cost by another measured in the same run
(never by seconds: CI's machine is shared and loaded)."""

from __future__ import annotations

import time
from collections.abc import Callable


def least_cpu_seconds(measure: Callable[[], object], runs: int = 5) -> float:
    """The least CPU time of this process over a few runs of `measure`. Not wall-clock: under
    load a run of 3 ms fits in one time slice and one of 30 ms is preempted several times (CI's
    loaded run measured a true ratio of 7 as 36)."""
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        measure()
        best = min(best, time.process_time() - started)
    return best
