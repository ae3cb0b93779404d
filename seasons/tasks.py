"""Seasons' Celery task: rate from a round on. Takes ids, can run twice (it replays from the
stored steps), recorded as a ComputationRun of the event like the standings."""

from __future__ import annotations

from celery import shared_task

from matches.models import Event
from matches.tasks import MAX_RETRIES, enqueue, run_tracked
from seasons import ratings


@shared_task(bind=True, max_retries=MAX_RETRIES, acks_late=True)
def update_ratings(self, event_id: int, from_round: int = 1) -> None:
    """The rating list from round `from_round` of the event on."""
    run_tracked(
        self,
        event_id,
        "ratings",
        lambda: ratings.update_ratings(event_id, from_round),
        retry_kwargs={"event_id": event_id, "from_round": from_round},
    )


def queue_ratings(event_id: int, from_round: int) -> None:
    """Queue the rating from a round on when the event is rated (or was: a rated flag turned
    off leaves steps to forget)."""
    event = Event.objects.filter(pk=event_id).only("rated").first()
    if event is None:
        return
    if not event.rated and not ratings.has_steps(event_id):
        return
    enqueue(update_ratings, event_id, "ratings", {"event_id": event_id, "from_round": from_round})
