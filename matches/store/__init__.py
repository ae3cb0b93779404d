"""The layer just above the models: how the rows are read and written where the ORM's own way
costs too much or Django offers no public way, each written once.

- `statements`: the hottest reads as SQL written once (each tested against its ORM twin), the
  querysets compiled once, and `insert_rows`, the one hand-written INSERT (the result chain's
  entries, the ratings' rows): the project's only idiom of SQL for the ORM's tables;
- `chain`: the tamper-evident result chain, appended to by every accepted result,
  confirmation, correction and forfeit, and verified against the stored rows;
- `on_commit`: `once_per_transaction`, one callback per transaction (and savepoint) that
  collects what many writes tell it and runs once when the transaction commits.

It imports the models only; the services, the pages and the `seasons` app import it, no game
does (docs/architecture.md, "The layers"; CONTRIBUTING.md lists the Django internals used)."""
