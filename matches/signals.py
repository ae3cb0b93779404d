"""Signals between the rooms of the matches app.

`deal_result_changed` is sent (from `transaction.on_commit`, so only for committed data) with
`deal_id` whenever a deal's final result appears or is replaced by a correction. The result-entry
service sends it; the computation side (Celery tasks: scores, tribute ledgers, match results,
standings) receives it. Neither side imports the other.
"""

from django.dispatch import Signal

deal_result_changed = Signal()  # kwargs: deal_id: int; match_id, event_id: int, when known
