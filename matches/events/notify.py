"""Who hears of a change, and when: the notices of `matches.push`.

- The staff channel of an event hears of every committed report, tally, snapshot and round
  change at once: organisers and referees may see held data anyway.
- The public channels hear only when the *public* stamps move (`matches.public.stamps`:
  `event_version`, `standings_version`, made of what the public may read). A process collects
  the events touched by its commits and, at most every `LIVE_PUBLIC_INTERVAL` seconds, compares
  their stamps with the last ones sent (kept in the shared cache, so several processes send a
  change once or twice, never per reader); one process checks an event per interval. A held draw, held results or held standings never
  move the stamps, so they send nothing: the public cannot even time them.
"""

from __future__ import annotations

import logging
import threading

from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections, connections, transaction

from matches import push
from matches.models import Event, Match, Round, TableSeat
from matches.public.stamps import event_version, standings_version
from matches.public.visibility import draw_visible, results_visible
from matches.store.on_commit import OnCommit, once_per_transaction

log = logging.getLogger(__name__)

_lock = threading.Condition()
_dirty: dict[int, set[int]] = {}
_rounds: set[int] = set()
_thread: threading.Thread | None = None
_busy = False  # a batch of checks under way (`quiesce` waits for it)


class _PendingChanges(OnCommit):
    """The events (and their tables) changed in one transaction, told once when it commits.
    A confirmation saves a report, a tally and the match: one staff notice, not three."""

    def __init__(self) -> None:
        self.events: dict[int, set[int]] = {}
        self.rounds: set[int] = set()  # events whose rounds changed

    def add(self, event_id: int, match_id: int | None, round_changed: bool = False) -> None:
        tables = self.events.setdefault(event_id, set())
        if match_id is not None:
            tables.add(match_id)
        if round_changed:
            self.rounds.add(event_id)

    def run(self) -> None:
        _send(self.events, self.rounds)


def _send(events: dict[int, set[int]], rounds: set[int]) -> None:
    notices = []
    for event_id, tables in events.items():
        notices.append((push.staff_event(event_id), push.notice("changed")))
        notices.extend((push.staff_table(m), push.notice("changed")) for m in sorted(tables))
        if event_id in rounds:
            notices.append((push.staff_rounds(event_id), push.notice("round")))
    push.hub.publish_many(notices)
    for event_id, tables in events.items():
        for match_id in tables or [None]:
            mark(event_id, match_id)


def changed(event_id: int | None, match_id: int | None = None, round_changed: bool = False) -> None:
    """Something of the event changed in the current transaction (of one table: `match_id`; of
    its rounds: `round_changed`): tell the staff channels and check the public stamps once it
    commits, once per transaction and event."""
    if event_id is None or not getattr(settings, "LIVE_ENABLED", True):
        return
    if not transaction.get_connection().in_atomic_block:
        _send({event_id: {match_id} if match_id else set()}, {event_id} if round_changed else set())
        return
    # One per transaction and savepoint level: a rolled-back one leaves nothing behind.
    once_per_transaction(_PendingChanges).add(event_id, match_id, round_changed)


def mark(event_id: int, match_id: int | None = None, seated_round: int | None = None) -> None:
    """Check the event's public stamps soon (after commit); `seated_round`: tell each player
    of that round where they sit (if its draw is public by then)."""
    global _thread
    if not getattr(settings, "LIVE_ENABLED", True):
        return  # (a publication's seating notice comes here without `changed`)
    with _lock:
        tables = _dirty.setdefault(event_id, set())
        if match_id is not None:
            tables.add(match_id)
        if seated_round is not None:
            _rounds.add(seated_round)
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_run, name="live-public", daemon=True)
            _thread.start()
        _lock.notify()


def _interval() -> float:
    return float(getattr(settings, "LIVE_PUBLIC_INTERVAL", 0.5))


def _run() -> None:
    import time

    global _busy
    while True:
        with _lock:
            while not _dirty:
                _lock.wait()
        # Gather the commits of the next moment into one check.
        time.sleep(_interval())
        with _lock:
            batch = dict(_dirty)
            rounds = set(_rounds)
            _dirty.clear()
            _rounds.clear()
            _busy = True
        try:
            close_old_connections()
            for round_id in rounds:
                seated(round_id)
            for event_id, tables in batch.items():
                # One check per event and interval across every process (a claim in the
                # shared cache): the stamps' aggregates are not free at a festival. A process
                # that finds the claim taken checks again next time, so no commit goes unseen.
                if _claim(f"live-check:{event_id}", _interval()):
                    check(event_id, tables)
                else:
                    with _lock:
                        _dirty.setdefault(event_id, set()).update(tables)
        except Exception:  # noqa: BLE001 - a missed notice: pages still poll
            log.warning("live: public check failed", exc_info=True)
        finally:
            connections.close_all()
            with _lock:
                _busy = False
                _lock.notify_all()


def _claim(key: str, seconds: float) -> bool:
    """True for the first process to ask in `seconds` (a fraction of a second included). On
    Redis (gouji_tournament/cache.py `claim`): Django's `add` rounds a Redis timeout down to
    whole seconds and 0 means "delete at once", so `add` for 0.5 s set the key and deleted it
    and every process won: each checked every interval (at the festival bench, three
    gunicorn and two Celery workers computed the event's stamp up to ten times a second). The
    local-memory cache keeps fractions."""
    taker = getattr(cache, "claim", None)
    if taker is not None:
        return taker(key, seconds)
    return cache.add(key, 1, seconds)


def quiesce(timeout: float = 5.0) -> None:
    """Drop the checks not yet begun and wait for the one under way. For tests, before their
    database is emptied: SQLite's shared in-memory database refuses to flush a table this
    thread is reading."""
    import time

    end = time.monotonic() + timeout
    with _lock:
        _dirty.clear()
        _rounds.clear()
        while _busy and time.monotonic() < end:
            _lock.wait(max(0.0, end - time.monotonic()))


def check(event_id: int, tables: set[int] = frozenset()) -> bool:  # type: ignore[assignment]
    """Send the public notice of the event (and of its changed tables) when its public stamps
    moved since the last one sent. True when sent."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None:
        return False
    stamps = {"v": event_version(event), "s": standings_version(event)}
    key = f"live-sent:{event_id}"
    known = cache.get(key)
    if known == stamps:
        return False
    # Kept without expiry: a record that lapsed after a quiet hour would make the next check
    # send although nothing public moved, and the public could time a held result by it.
    cache.set(key, stamps, None)
    if known is None:
        # Nothing known to compare with (a restart, a cache that lost it): this check only
        # records the stamps. A public change in between reaches the open pages by their own
        # poll, a few seconds later.
        return False
    push.send(push.public_event(event_id), "version", **stamps)
    if tables:
        for match in Match.objects.filter(pk__in=tables).select_related("round__event"):
            if results_visible(match.round):
                push.send(push.public_table(match.pk), "version", v=stamps["v"])
    return True


def seated(round_id: int) -> int:
    """Send each player of the round their table and seat on their private channel, if the
    round's draw is public. The number of notices sent."""
    round_ = Round.objects.select_related("event").filter(pk=round_id).first()
    if round_ is None or not draw_visible(round_):
        return 0
    rows = TableSeat.objects.filter(round=round_).values_list("player_id", "table__number", "seat")
    items = [
        (push.private_player(player), push.notice("seat", round=round_.number, table=t, seat=s))
        for player, t, s in rows.iterator(chunk_size=5000)
    ]
    push.hub.publish_many(items)
    return len(items)
