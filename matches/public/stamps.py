"""The public pages' cheap version stamps; what the public may read is `matches.public.visibility`.

- `event_version` is made of what the public may read only: held data never moves it.
- `event_version` changes whenever anything a public page shows may have changed, so pages and
  the API answer `If-None-Match` with 304 and htmx polling costs a few aggregate queries.
  The stamp is kept in the cache: its aggregates scan every report and tally of the event
  (60,000 deals at a festival), too much for each of hundreds of readers a second. Saving
  anything it covers forgets it on commit; `PUBLIC_VERSION_SECONDS` bounds how long a write
  that bypasses `save()` (a queryset `update`) can go unseen.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max

from matches.models import DealReport, DealTally, Event, StandingsSnapshot

# The rule of what the public may read lives in `matches.public.visibility`; its names are kept here
# for the readers that ask `live` (one rule, two import paths).
from matches.public.visibility import (  # noqa: F401
    VISIBLE_ROUND_STATES,
    public_event_or_404,
    public_events,
    public_snapshot,
    release_stamp,
    results_visible,
    results_visible_round_ids,
    standings_visible_round_ids,
    visible_round_or_404,
    visible_rounds,
    visible_snapshots,
)


def _visible_rounds_stamp(event: Event) -> list:
    """The rows of the rounds whose draw the public sees: a held round moves no stamp."""
    return list(visible_rounds(event).values_list("number", "state", "silent", "published_at"))


def _version_key(event_id: int, what: str = "event") -> str:
    return f"{what}-version:{event_id}"


def forget_version(event_id: int | None, standings: bool = False) -> None:
    """Something the public pages show changed: the next reader computes the stamp anew.
    `standings`: the change shows on the standings pages too (a round, a snapshot, the event)."""
    if event_id is None:
        return
    keys = [_version_key(event_id)] + ([_version_key(event_id, "standings")] if standings else [])
    # Now, and again on commit: a reader in between may have cached the stamp of the data
    # before the commit.
    cache.delete_many(keys)
    transaction.on_commit(lambda: cache.delete_many(keys))


def standings_version(event: Event) -> str:
    """A stamp of what the standings pages show: the event, its rounds and its snapshots.

    Not `event_version`: that one changes with every report, i.e. every second of a festival
    round, while the standings change only when a snapshot is written."""
    key = _version_key(event.pk, "standings")
    version = cache.get(key)
    if version is None:
        rounds = _visible_rounds_stamp(event)
        snapshots = StandingsSnapshot.objects.filter(
            event=event, round__in=standings_visible_round_ids(event)
        ).aggregate(n=Count("id"), last=Max("computed_at"))
        raw = repr(
            (
                event.pk,
                event.created_at,
                event.name,
                event.venue,
                event.start_date,
                event.end_date,
                event.published,
                rounds,
                snapshots,
                release_stamp(event),
            )
        )
        version = hashlib.sha1(raw.encode()).hexdigest()[:20]
        cache.set(key, version, getattr(settings, "PUBLIC_VERSION_SECONDS", 2))
    return version


def event_version(event: Event) -> str:
    """A short stamp of everything the event's public pages show (cached, see above)."""
    seconds = getattr(settings, "PUBLIC_VERSION_SECONDS", 2)
    if seconds <= 0:
        return compute_event_version(event)
    key = _version_key(event.pk)
    version = cache.get(key)
    if version is None:
        version = compute_event_version(event)
        cache.set(key, version, seconds)
    return version


def compute_event_version(event: Event) -> str:
    """Made of what the public may read only (`matches.public.visibility`): a held draw, held results
    or held standings must not change it, or a changing ETag would tell their progress. A
    round's own row changes it when what it holds is released."""
    rounds = _visible_rounds_stamp(event)
    shown = results_visible_round_ids(event)
    reports = DealReport.objects.filter(deal__match__round__in=shown).aggregate(
        n=Count("id"), last=Max("id"), changed=Max("state_changed_at")
    )
    tallies = DealTally.objects.filter(match__round__in=shown).aggregate(
        n=Count("id"), last=Max("computed_at")
    )
    snapshots = StandingsSnapshot.objects.filter(
        event=event, round__in=standings_visible_round_ids(event)
    ).aggregate(last=Max("computed_at"))
    raw = repr(
        (
            event.pk,
            event.created_at,
            event.name,
            event.venue,
            event.start_date,
            event.end_date,
            event.published,
            rounds,
            reports,
            tallies,
            snapshots,
            release_stamp(event),
        )
    )
    return hashlib.sha1(raw.encode()).hexdigest()[:20]
