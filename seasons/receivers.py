"""Seasons' answers to the matches app's signals: the standings of a rated event were
refreshed (rate from that round on; a recompute asked for refreshes them from round 1)."""

from __future__ import annotations

from django.dispatch import receiver

from matches.signals import standings_refreshed
from seasons.tasks import queue_ratings


@receiver(standings_refreshed, dispatch_uid="seasons.ratings_after_standings")
def rate_after_standings(sender, event_id: int, from_round: int = 1, **kwargs) -> None:
    queue_ratings(event_id, from_round)
