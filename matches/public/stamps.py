"""The public read side's stamps, and the one way to forget them: `forget(event_id, what)`.

Each layer that keeps something of an event's public face is named here (docs/public.md):

- `PAGES`: `event_version`, the stamp of everything the event's public pages show, made of what
  the public may read only (`matches.public.visibility`): held data never moves it. Pages and
  the API answer `If-None-Match` with 304, and the shared caches keep their bytes under it
  (`matches.public.caching`). Kept in the cache: its aggregates scan every report and tally of
  the event (60,000 deals at a festival), too much for each of hundreds of readers a second.
  `PUBLIC_VERSION_SECONDS` bounds how long a write that bypasses `save()` goes unseen. The
  event's and the visible rounds' rows count by their `changed_at` (`matches.models.stamped`),
  which a queryset `.update()` does not move: one that writes a field the public sees sets
  `changed_at` too (tests/public/test_natural_stamps.py holds it).
- `STANDINGS`: `standings_version`, the same for the standings pages (it moves with the
  snapshots, not with every report).
- `FIND`: `find_version`, an explicit counter moved by every change a search's answer shows
  (an entry, a name, a club, a zone, a round published or edited, the event's settings); find
  my table's index (`matches.public.find`) is kept per process while it stays the same.
- `FILES`: the standings files nginx serves (`matches.public.standings_files`), removed.

`forget` is called by the receivers of the models' signals (`matches.receivers`) and by the
services that write without them. The cached stamps are forgotten now and again on commit (a
reader in between may have cached the stamp of the data before the commit); the counter moves
when it is forgotten and again on commit (once per transaction, however many rows it wrote).
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Count, Max

from matches.models import DealReport, DealTally, Event, StandingsSnapshot
from matches.public.visibility import (
    results_visible_round_ids,
    standings_visible_round_ids,
    visible_rounds,
)
from matches.store.on_commit import OnCommit, once_per_transaction

PAGES, STANDINGS, FIND, FILES = "pages", "standings", "find", "files"
EVERYTHING = frozenset({PAGES, STANDINGS, FIND, FILES})


def forget(event_id: int | None, what: str | Iterable[str] = EVERYTHING) -> None:
    """Something of the event's public face changed: forget `what` (one of `PAGES`,
    `STANDINGS`, `FIND`, `FILES`, or several)."""
    if event_id is None:
        return
    kinds = {what} if isinstance(what, str) else set(what)
    unknown = kinds - EVERYTHING
    if unknown:
        raise ValueError(f"no such public layer: {sorted(unknown)}")
    keys = [_version_key(event_id)] if PAGES in kinds else []
    if STANDINGS in kinds:
        keys.append(_version_key(event_id, "standings"))
    if keys:
        cache.delete_many(keys)
        transaction.on_commit(lambda: cache.delete_many(keys))
    if FILES in kinds:
        from matches.public import standings_files  # it renders pages: imported when used

        standings_files.remove_now_and_on_commit(event_id)
    if FIND in kinds:
        _pending_find().add(event_id)


# --- the find counter ------------------------------------------------------------------------------


def _find_key(event_id: int) -> str:
    return f"find-counter:{event_id}"


def find_version(event_id: int) -> str:
    """The event's find counter. One that the cache lost starts again at a random number, so
    no process takes a new count for the one its index was read at."""
    key = _find_key(event_id)
    value = cache.get(key)
    if value is None:
        cache.add(key, secrets.randbelow(2**62), None)
        value = cache.get(key)
    return str(value)


def _bump_find(event_ids: Iterable[int]) -> None:
    for event_id in event_ids:
        key = _find_key(event_id)
        try:
            cache.incr(key)
        except ValueError:  # lost or never read: a fresh random start moves it as well
            cache.set(key, secrets.randbelow(2**62), None)


class _PendingFind(OnCommit):
    """The events whose find counter moves when the current transaction commits: once each, however
    many rows of them the transaction wrote (an import writes thousands)."""

    def __init__(self) -> None:
        self.events: set[int] = set()

    def add(self, event_id: int) -> None:
        # Now as well, at every change: the transaction's own later reads see it (a test's
        # transaction never commits); a reader elsewhere reads the data before the commit
        # under the new count, and the commit moves it again.
        _bump_find([event_id])
        self.events.add(event_id)

    def run(self) -> None:
        _bump_find(self.events)


def _pending_find():
    if not transaction.get_connection().in_atomic_block:
        return _Now()
    return once_per_transaction(_PendingFind)


class _Now:
    def add(self, event_id: int) -> None:
        _bump_find([event_id])


# --- the pages' stamps --------------------------------------------------------------------------


def _shown_rows_stamp(event: Event) -> tuple:
    """The natural stamps (`changed_at`) of the rows the pages show of the event itself: the
    event's, and those of the rounds whose draw the public sees (a held round moves no stamp).
    Every save of them moves `changed_at`, whatever field it wrote, so a field shown later on a
    page needs no entry here. A queryset `.update()` bypasses it: none of Event or Round
    writes a field the public sees (the rules' freeze, `rules_frozen_at`, is the staff's
    business, and a held first result must not move the stamp). A save of the event moves
    the stamp whatever it wrote, a private setting too: that tells nothing held."""
    rounds = list(visible_rounds(event).values_list("pk", "changed_at"))
    return (event.pk, event.changed_at, rounds)


def _version_key(event_id: int, what: str = "event") -> str:
    return f"{what}-version:{event_id}"


def standings_version(event: Event) -> str:
    """A stamp of what the standings pages show: the event, its rounds and its snapshots.

    Not `event_version`: that one changes with every report, i.e. every second of a festival
    round, while the standings change only when a snapshot is written."""
    key = _version_key(event.pk, "standings")
    version = cache.get(key)
    if version is None:
        snapshots = StandingsSnapshot.objects.filter(
            event=event, round__in=standings_visible_round_ids(event)
        ).aggregate(n=Count("id"), last=Max("computed_at"))
        raw = repr((_shown_rows_stamp(event), snapshots))
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
    raw = repr((_shown_rows_stamp(event), reports, tallies, snapshots))
    return hashlib.sha1(raw.encode()).hexdigest()[:20]


# --- the release: what a deploy changes in every page ------------------------------------------


@functools.cache
def _release(folders: tuple[str, ...]) -> str:
    # The apps' own template folders too (APP_DIRS), found once here.
    found = [*folders, *(str(p) for p in sorted(Path(settings.BASE_DIR).glob("*/templates")))]
    digest = hashlib.sha1()
    for folder in found:
        root = Path(folder)
        if not root.is_dir():
            continue
        for path in sorted(root.rglob("*")):
            if path.suffix in (".html", ".mo", ".txt", ".svg") and path.is_file():
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:8]


def release() -> str:
    """A stamp of the templates and translations the pages are rendered from, read once per
    process (and per template setting: a test may point them elsewhere). Part of every public
    ETag, so a deploy that changes a template changes the ETags: no browser keeps the old page
    from a 304 and no shared cache entry of the old templates is served."""
    folders: list[str] = []
    for engine in settings.TEMPLATES:
        folders += [str(d) for d in engine.get("DIRS", [])]  # type: ignore[attr-defined]
    folders += [str(p) for p in getattr(settings, "LOCALE_PATHS", [])]
    return _release(tuple(folders))
