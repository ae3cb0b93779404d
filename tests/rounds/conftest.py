"""The standings builders (hand-made pairings, final deal results) serve the round tests too."""
from tests.standings.conftest import Builder, build, eager_celery  # noqa: F401
