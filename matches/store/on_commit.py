"""One callback per transaction: what many writes tell it is collected, and it runs once when
the transaction commits (an import writes thousands of rows; a confirmation saves a report, a
tally and the match: one run, not one per row).

Django has no public way to find a callback already queued: `once_per_transaction` reads the
connection's `run_on_commit` list of (savepoint ids, callback, robust), a Django internal
(CONTRIBUTING.md, "Django internals we rely on"). Found there, a callback queued in a
transaction or savepoint that rolls back is dropped with it, and leaves nothing behind.
"""

from __future__ import annotations

from typing import TypeVar

from django.db import transaction


class OnCommit:
    """A callback that collects and runs once on commit: a subclass adds what it collects and
    `run()`."""

    #: it ran (a test's captured callbacks stay in the list after they ran)
    ran = False

    def __call__(self) -> None:
        self.ran = True
        self.run()

    def run(self) -> None:
        raise NotImplementedError


Pending = TypeVar("Pending", bound=OnCommit)


def once_per_transaction(kind: type[Pending]) -> Pending:
    """The `kind` callback of the current transaction at this savepoint level, queued with
    `transaction.on_commit` the first time it is asked for. Inside `atomic` only."""
    connection = transaction.get_connection()
    level = set(connection.savepoint_ids)
    for savepoints, callback, _robust in connection.run_on_commit:
        if isinstance(callback, kind) and not callback.ran and savepoints == level:
            return callback
    pending = kind()
    transaction.on_commit(pending)
    return pending
