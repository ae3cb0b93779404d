"""Seasons' answers to the matches app's signals: the standings of a rated event were
refreshed (rate from that round on; a recompute asked for refreshes them from round 1)."""

from __future__ import annotations

from django.db.models.signals import post_save
from django.dispatch import receiver

from matches.models import Event
from matches.signals import standings_refreshed
from seasons import ratings
from seasons.tasks import queue_ratings


@receiver(standings_refreshed, dispatch_uid="seasons.ratings_after_standings")
def rate_after_standings(sender, event_id: int, from_round: int = 1, **kwargs) -> None:
    queue_ratings(event_id, from_round)


@receiver(post_save, sender=Event, dispatch_uid="seasons.ratings_after_event_change")
def rate_after_event_change(sender, instance: Event, **kwargs) -> None:
    """The event turned rated or unrated, published, archived, ended or released its results
    otherwise: when the rounds that count are not the rounds rated, rate it again."""
    if kwargs.get("raw"):
        return
    if ratings.rated_round_ids(instance) != ratings.counted_round_ids(instance):
        queue_ratings(instance.pk, 1)
