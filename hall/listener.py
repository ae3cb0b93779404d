"""The mirror's answer to replicated rows (`manage.py hallbox listen`).

Django's signals do not fire for rows the subscription writes, so the mirror's triggers
(hall/publication.py, ENABLE ALWAYS) tell this process by `pg_notify` which event, round,
match or deal changed. It does on the mirror what the box's signal receivers do there:
- forgets the public stamps (the pages', the standings', find my table's:
  `matches.public.stamps`), so pages and the API answer anew;
- rewrites the public standings files (the page nginx serves) after a standings snapshot;
- sends the live notices of the public channels when the public stamps moved, and each seated
  player their seat when a round's draw becomes public;
- sends a feature table's held notices for its replicated rows, each carrying the moment it may
  be seen (the row's arrival on the box + the table's delay), as the box's service does;
and it watches the hall's heartbeat: when the hall stops (or starts again) reporting, the open
public pages hear of it and show (or clear) "最后更新 14:05 · 赛场网络中断".
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field

from django.db import close_old_connections, connection

from hall.publication import CHANNEL, LIVE_ROWS
from hall.status import hall_state
from matches import push
from matches.events import notify
from matches.models import Deal, FeatureTable, LiveDeal, Match, Round
from matches.public import forgets, stamps, standings_files
from matches.public.visibility import draw_visible, public_events

log = logging.getLogger(__name__)


@dataclass
class Batch:
    """The changes of one moment, by event."""

    tables: dict[int, set[str]] = field(default_factory=dict)  # event -> table labels
    matches: dict[int, set[int]] = field(default_factory=dict)  # event -> match ids
    rounds: set[int] = field(default_factory=set)
    beat: bool = False
    live: list[dict] = field(default_factory=list)  # a feature table's rows

    def add(self, payload: dict) -> None:
        label = payload.get("t", "")
        if label == "hall.HallBeat":
            self.beat = True
            return
        if label in LIVE_ROWS:
            self.live.append(payload)
            return
        self._pending.append(payload)

    def __post_init__(self) -> None:
        self._pending: list[dict] = []

    def resolve(self) -> None:
        """Find the event of every change in a few queries (a deal's, a match's, a round's)."""
        deals = {p["d"] for p in self._pending if p.get("d")}
        deal_match = dict(Deal.objects.filter(pk__in=deals).values_list("pk", "match_id"))
        match_ids = {p["m"] for p in self._pending if p.get("m")} | set(deal_match.values())
        match_round = dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "round_id"))
        round_ids = {p["r"] for p in self._pending if p.get("r")} | set(match_round.values())
        round_event = dict(Round.objects.filter(pk__in=round_ids).values_list("pk", "event_id"))
        for p in self._pending:
            match_id = p.get("m") or deal_match.get(p.get("d") or 0)
            round_id = p.get("r") or match_round.get(match_id or 0)
            event_id = p.get("e") or round_event.get(round_id or 0)
            if event_id is None:
                continue  # a row of something deleted meanwhile
            self.tables.setdefault(event_id, set()).add(p["t"])
            if match_id:
                self.matches.setdefault(event_id, set()).add(match_id)
            if p["t"] == "matches.Round" and p.get("r"):
                self.rounds.add(p["r"])
        self._pending.clear()


class Listener:
    def __init__(self, gather: float = 0.3, standings_every: float = 1.0):
        self.gather = gather  # seconds of notices gathered into one batch
        self.standings_every = standings_every  # an event's files rewritten at most this often
        self.seated: set[int] = set()  # rounds whose seats were sent (or public at start)
        self.stale: bool | None = None
        self.files_due: dict[int, float] = {}  # event -> when its files may be written next
        self.files_pending: set[int] = set()

    def start_state(self) -> None:
        """At start (or after the listener's own connection dropped): nothing is known, so
        everything public is refreshed once."""
        self.seated = {r.pk for r in Round.objects.select_related("event") if draw_visible(r)}
        for event_id in public_events().values_list("pk", flat=True):
            self.refresh(event_id, {"matches.Event"}, set())

    def refresh(self, event_id: int, tables: set[str], matches: set[int]) -> None:
        # What the box forgets there, by the same map (matches/public/forgets.py); the
        # standings files are written again below rather than removed. A table that feeds no
        # stamp forgets none of them: a stamp is a hash of what it shows, so forgetting it
        # when none of that moved would only make the check below recompute the same stamp.
        what = forgets.layers_of(tables)
        stamps.forget(event_id, what - {stamps.FILES})
        if stamps.FILES in what:
            self.files_pending.add(event_id)
        notify.check(event_id, matches)

    def announce_live(self, rows: list[dict]) -> None:
        """A feature table's replicated rows: its spectators' streams (and the event's list)
        hear of each, held until the row's arrival on the box + the table's delay; a row taken
        back (an undo) or a deal's own change counts from now, as on the box. Never earlier
        than the box's own notice."""
        if not rows:
            return
        deals = {p["ld"] for p in rows if p.get("ld")}
        deal_feature = dict(LiveDeal.objects.filter(pk__in=deals).values_list("pk", "feature_id"))
        wanted = set(deal_feature.values()) | {p["lf"] for p in rows if p.get("lf")}
        features = {
            f.pk: (f.delay.total_seconds(), f.table.round.event_id)
            for f in FeatureTable.objects.filter(pk__in=wanted).select_related("table__round")
        }
        now = time.time()
        notices: set[tuple[int, int, float]] = set()
        for p in rows:
            found = features.get(p.get("lf") or deal_feature.get(p.get("ld") or 0) or 0)
            if found is None:
                continue  # deleted meanwhile
            delay, event_id = found
            arrived = p.get("at")
            if p.get("op") == "DELETE" or not isinstance(arrived, (int, float)):
                arrived = now
            feature_id = p.get("lf") or deal_feature[p["ld"]]
            notices.add((feature_id, event_id, float(arrived) + delay))
        for feature_id, event_id, at in sorted(notices):
            push.send(push.feature(feature_id), "feature", at=at)
            push.send(push.feature_list(event_id), "feature", at=at)

    def handle(self, batch: Batch) -> None:
        self.announce_live(batch.live)
        batch.resolve()
        for event_id, tables in batch.tables.items():
            self.refresh(event_id, tables, batch.matches.get(event_id, set()))
        for round_id in batch.rounds - self.seated:
            if notify.seated(round_id):
                self.seated.add(round_id)
        if batch.beat or self.stale is not None:
            self.watch_hall()
        self.write_files()

    def write_files(self) -> None:
        now = time.monotonic()
        for event_id in sorted(self.files_pending):
            if self.files_due.get(event_id, 0) > now:
                continue
            self.files_pending.discard(event_id)
            self.files_due[event_id] = now + self.standings_every
            standings_files.write_safely(event_id)

    def watch_hall(self) -> None:
        """The hall went quiet or came back: every open public page hears of it."""
        stale = hall_state(fresh=True).stale
        if self.stale is None:
            self.stale = stale
            return
        if stale == self.stale:
            return
        self.stale = stale
        log.warning("hallbox: the hall %s", "stopped reporting" if stale else "reports again")
        for event_id in public_events().values_list("pk", flat=True):
            # The standings files carry the banner as rendered: write them again.
            self.files_pending.add(event_id)
            self.files_due.pop(event_id, None)
            push.send(push.public_event(event_id), "hall", stale=stale)
        self.write_files()

    def run(self, dsn: str, once: bool = False) -> None:
        import psycopg

        while True:
            try:
                with psycopg.connect(dsn, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    close_old_connections()
                    self.start_state()
                    self.watch_hall()
                    log.warning("hallbox: listening")
                    self.loop(conn, once)
                    return
            except psycopg.OperationalError:
                log.warning("hallbox: the mirror's database is away; again in 2 s", exc_info=True)
                connection.close()
                time.sleep(2)

    def loop(self, conn, once: bool) -> None:
        while True:
            batch = Batch()
            got = 0
            for notice in conn.notifies(timeout=1.0, stop_after=1):
                got += 1
                batch.add(json.loads(notice.payload))
            if got:
                # Gather the rest of the moment's notices into one batch.
                deadline = time.monotonic() + self.gather
                while (left := deadline - time.monotonic()) > 0:
                    for notice in conn.notifies(timeout=left):
                        got += 1
                        batch.add(json.loads(notice.payload))
            try:
                close_old_connections()
                self.handle(batch)
            except Exception:  # noqa: BLE001 - one bad batch must not stop the mirror
                log.exception("hallbox: a batch failed")
                connection.close()
            if once:
                return
