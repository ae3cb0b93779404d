"""Draw and round-control tests (matches/draw): events from the shared `build` fixture (tests/builder.py: hand-made pairings with
`round`, final deal results through the results service with `final`), computations
in-process as in the standings tests."""

from tests.standings.conftest import eager_celery  # noqa: F401 (fixture)
