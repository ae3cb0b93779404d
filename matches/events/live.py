"""What the public pages show, with visibility rules in one place, and a cheap version stamp.

- Only published events are visible; only published or closed rounds; a silent round shows its
  pairings but not its results (until the event ends). The event's release settings hold the
  draw, the results or the standings back until a round closes or the event ends.
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
from django.http import Http404

from matches.models import DealReport, DealTally, Event, Round, StandingsSnapshot

VISIBLE_ROUND_STATES = (Round.State.PUBLISHED, Round.State.CLOSED)


def public_events():
    """Published, not archived (an archived event is off every public page until restored)."""
    return Event.objects.filter(published=True, archived_at__isnull=True)


def public_event_or_404(event_id: int) -> Event:
    event = public_events().filter(pk=event_id).first()
    if event is None:
        raise Http404("no such event")
    return event


# --- release controls (as Tabbycat's release toggles): per event, draw / results / standings ---


def _released_states(event: Event, release: str) -> tuple | None:
    """The round states whose draw/results/standings `release` lets the public see: at once
    (published or closed), after the round closes, or only once the event has ended (then
    every visible round). None: nothing yet."""
    if release == Event.Release.AT_END:
        return VISIBLE_ROUND_STATES if event.concluded_at else None
    if release == Event.Release.AFTER_CLOSE:
        return (Round.State.CLOSED,)
    return VISIBLE_ROUND_STATES


def release_stamp(event: Event) -> tuple:
    """What of the release settings the public pages depend on (part of their version)."""
    return (event.release_draw, event.release_results, event.release_standings, event.concluded_at)


def visible_rounds(event: Event):
    states = _released_states(event, event.release_draw)
    if states is None:
        return event.rounds.none()
    return event.rounds.filter(state__in=states).select_related("stage").order_by("number")


def visible_round_or_404(event: Event, number: int) -> Round:
    round_ = visible_rounds(event).filter(number=number).first()
    if round_ is None:
        raise Http404("no such round")
    return round_


def results_visible(round_: Round) -> bool:
    """A silent round's results stay hidden until the event ends; otherwise the event's
    results release decides."""
    event = round_.event
    states = _released_states(event, event.release_results)
    if states is None or round_.state not in states:
        return False
    return not round_.silent or event.concluded_at is not None


def visible_snapshots(event: Event, kind: str, scope: str = "event"):
    """The standings snapshots the release settings let the public see (silent rounds' only
    once the event has ended)."""
    states = _released_states(event, event.release_standings)
    if states is None:
        return StandingsSnapshot.objects.none()
    snapshots = StandingsSnapshot.objects.filter(
        event=event, kind=kind, scope=scope, round__state__in=states
    )
    if event.concluded_at is None:
        snapshots = snapshots.filter(round__silent=False)
    return snapshots.select_related("round", "stage")


def public_snapshot(event: Event, kind: str, scope: str = "event", round_number: int | None = None):
    """The standings snapshot the public may see: of a non-silent visible round, the latest one
    by default (a silent round's standings would give its results away)."""
    snapshots = visible_snapshots(event, kind, scope).order_by("-round__number")
    if round_number is not None:
        snapshots = snapshots.filter(round__number=round_number)
    return snapshots.first()


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
        rounds = list(event.rounds.values_list("number", "state", "silent", "published_at"))
        snapshots = (
            StandingsSnapshot.objects.filter(event=event)
            .exclude(round__silent=True)
            .aggregate(n=Count("id"), last=Max("computed_at"))
        )
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
    rounds = list(event.rounds.values_list("number", "state", "silent", "published_at"))
    # A silent round's results are not shown: they must not change the stamp either (a changing
    # ETag would tell its progress). The round's own row changes it when it stops being silent.
    reports = DealReport.objects.filter(
        deal__match__round__event=event, deal__match__round__silent=False
    ).aggregate(n=Count("id"), last=Max("id"), changed=Max("state_changed_at"))
    tallies = DealTally.objects.filter(
        match__round__event=event, match__round__silent=False
    ).aggregate(n=Count("id"), last=Max("computed_at"))
    snapshots = (
        StandingsSnapshot.objects.filter(event=event)
        .exclude(round__silent=True)
        .aggregate(last=Max("computed_at"))
    )
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
