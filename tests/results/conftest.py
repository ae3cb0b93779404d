"""Reports used across the results tests. Their table, people and event: the `setup` fixture
(tests/personas.py), whose round has one table unless `@pytest.mark.tables(n)` says more."""

from __future__ import annotations

# Seats: union A (1-3-5), union B (2-4-6). The finishing orders below are used across tests.
SUMMARY = {"format": "gouji-outcome/1", "finish": [1, 2, 3, 4, 5, 6], "points": [3]}
STRING_THREE_A = {"format": "gouji-outcome/1", "finish": [1, 3, 5, 2, 4, 6], "points": []}
BAD_FINISH = {"format": "gouji-outcome/1", "finish": [1, 1, 3, 4, 5, 6], "points": []}
