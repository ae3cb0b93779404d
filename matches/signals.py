"""Signals between the rooms of the matches app.

`deal_result_changed` is sent (from `transaction.on_commit`, so only for committed data) with
`deal_id` whenever a deal's final result appears or is replaced by a correction. The result-entry
service sends it; the computation side (Celery tasks: scores, tribute ledgers, match results,
standings) receives it. Neither side imports the other.

`round_changed` is sent the same way (after commit) with `round_id`, `event_id`, `number` and
`action` whenever a round's state or its matches' results change outside a deal's result:
published, closed, reopened, unpublished (back to draft), a forfeit awarded or cleared, a match stopped by
time. The draw and forfeit services send it (`announce_round_change`), from a view or a
management command alike; the computation side queues the standings from that round. Views and
commands never import the tasks.

`standings_refreshed` (kwargs: `event_id`, `from_round`) is sent after commit once the
standings service has written the snapshots of round `from_round` on: what depends on settled
matches (the rating list, seasons/) starts from it.

`recompute_requested` (kwargs: `event_id`) asks for every computation of an event again (the
organiser's "recompute" button).

`sheet_read_requested` (kwargs: `photo_id`, `event_id`) asks for a score sheet's photo to be
read (matches/sheets/service.py); `stack_read_requested` (kwargs: `sheet_id`, `event_id`) one of
the desk's stack (matches/sheets/stack.py).

`derived_check_requested` (kwargs: `event_id`) asks for the check of the event's derived rows
against a recompute (the chain page's button; matches/standings/verify.py).
"""

from django.db import transaction
from django.dispatch import Signal

deal_result_changed = Signal()  # kwargs: deal_id: int; match_id, event_id: int, when known
round_changed = Signal()  # kwargs: round_id, event_id, number: int; action: str
recompute_requested = Signal()  # kwargs: event_id: int
standings_refreshed = Signal()  # kwargs: event_id, from_round: int
derived_check_requested = Signal()  # kwargs: event_id: int
sheet_read_requested = Signal()  # kwargs: photo_id, event_id: int
stack_read_requested = Signal()  # kwargs: sheet_id, event_id: int

#: the `action` of `round_changed`
PUBLISHED, CLOSED, UNPUBLISHED, RESULTS = "published", "closed", "unpublished", "results"
REOPENED = "reopened"  # a closed round opened again (matches/draw/undo.py)


def announce_round_change(round_, action: str) -> None:
    """Send `round_changed` for `round_` once the current transaction commits (at once
    outside one): receivers only ever see committed rounds."""
    ids = {"round_id": round_.pk, "event_id": round_.event_id, "number": round_.number}
    transaction.on_commit(lambda: round_changed.send(sender=type(round_), action=action, **ids))


def request_recompute(event_id: int) -> None:
    """Send `recompute_requested` for the event once the current transaction commits."""
    transaction.on_commit(lambda: recompute_requested.send(sender=None, event_id=event_id))


def announce_standings_refreshed(event_id: int, from_round: int) -> None:
    """Send `standings_refreshed` once the current transaction commits."""
    transaction.on_commit(
        lambda: standings_refreshed.send(sender=None, event_id=event_id, from_round=from_round)
    )


def request_derived_check(event_id: int) -> None:
    """Send `derived_check_requested` once the current transaction commits."""
    transaction.on_commit(lambda: derived_check_requested.send(sender=None, event_id=event_id))


def request_sheet_read(photo_id: int, event_id: int) -> None:
    """Send `sheet_read_requested` (a score sheet's photo to read) once the transaction commits."""
    transaction.on_commit(
        lambda: sheet_read_requested.send(sender=None, photo_id=photo_id, event_id=event_id)
    )


def request_stack_read(sheet_id: int, event_id: int) -> None:
    """Send `stack_read_requested` (a sheet of the desk's stack to read) once the transaction
    commits."""
    transaction.on_commit(
        lambda: stack_read_requested.send(sender=None, sheet_id=sheet_id, event_id=event_id)
    )


live_deal_completed = Signal()  # kwargs: deal_id: int; seconds: float (until its delay passed)


def announce_live_deal(deal_id: int, seconds: float) -> None:
    """Send `live_deal_completed` once the current transaction commits: a feature table's deal
    is over and its report is due in `seconds` (matches/results/live.py)."""
    transaction.on_commit(
        lambda: live_deal_completed.send(sender=None, deal_id=deal_id, seconds=seconds)
    )
