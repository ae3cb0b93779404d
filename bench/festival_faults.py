"""Issue 27's fault drills, run by `bench/festival.py --quick --faults`.

While the referees of round 1 report, the drill
- kills a Celery worker (SIGKILL, main process and all) while a settlement is running, and starts
  a new one: the unacknowledged task comes back after the broker's visibility timeout;
- restarts Redis, the broker (SIGKILL, then the same port and append-only file: a broker that
  must not lose queued tasks keeps them on disk, `deploy/README.md`);
- restarts PostgreSQL (a crash, `-m immediate`, on a private cluster, so nothing else on the
  machine is disturbed), while requests and tasks are in flight;
and one table's phone is offline for the whole match: it keeps every deal for `--offline-hold`
seconds (30 minutes by default), then sends them as batches, and sends the whole match once more
as a phone does when an answer was lost.

Afterwards it counts, from the database, the deals that were acknowledged to a referee but have
no final result (lost) and the deals with more than one stored report (duplicated; the drill
makes no corrections), and checks that every derived row (deal tallies, match results, the
standings snapshots) equals what a full recompute from the final results writes.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from festival import Services  # bench/festival.py, run as a script


@dataclass
class Fault:
    at_share: float  # fires when this share of the round's deals has been reported
    name: str
    fired_at: float | None = None
    seconds: float = 0.0  # how long the fault took (down and back up)
    note: str = ""


@dataclass
class Drill:
    """The faults of one round, fired in order as the reporting progresses."""

    services: Services
    total_deals: int
    faults: list[Fault] = field(
        default_factory=lambda: [
            Fault(0.2, "kill a Celery worker mid-settlement"),
            Fault(0.45, "restart Redis"),
            Fault(0.7, "restart PostgreSQL"),
        ]
    )

    def watch(self, progress) -> threading.Thread:
        """Start a thread that fires each fault when `progress()` (deals reported so far)
        passes its share."""

        def run():
            for fault in self.faults:
                while progress() < fault.at_share * self.total_deals:
                    time.sleep(0.05)
                started = time.perf_counter()
                fault.fired_at = time.time()
                try:
                    fault.note = self.fire(fault.name)
                except Exception as exc:  # said in the report, not lost in a thread
                    fault.note = f"FAILED to fire: {type(exc).__name__}: {exc}"
                fault.seconds = time.perf_counter() - started

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    def fire(self, name: str) -> str:
        services = self.services
        if name.startswith("kill"):
            running = wait_for_running_settlement(services.db_url, timeout=20)
            services.restart("celery1", kill=True)
            return f"{running} settlement run(s) running at the kill"
        if name.endswith("Redis"):
            services.restart("redis", kill=True)
            return "SIGKILL, restarted on its append-only file"
        assert services.cluster is not None  # --faults runs on a private cluster
        services.cluster.stop("immediate")
        time.sleep(2)  # requests and tasks meet a dead database meanwhile
        services.cluster.start()
        return "crash (-m immediate), 2 s down"

    def report(self) -> list[str]:
        return [
            f"  {f.name}: {'at %.0f%% of the round' % (100 * f.at_share) if f.fired_at else 'NOT fired'}"
            f", {f.seconds:.1f} s; {f.note}"
            for f in self.faults
        ]


def wait_for_running_settlement(db_url: str, timeout: float) -> int:
    """Wait (up to `timeout`) until a settlement is running in a worker; how many are."""
    import psycopg

    deadline = time.time() + timeout
    count = 0
    with psycopg.connect(db_url.replace("postgres://", "postgresql://"), autocommit=True) as conn:
        while time.time() < deadline:
            row = conn.execute(
                "SELECT count(*) FROM matches_computationrun "
                "WHERE state = 'running' AND task LIKE 'settle%%'"
            ).fetchone()
            count = row[0] if row else 0
            if count:
                return count
            time.sleep(0.01)
    return count


class OfflinePhone(threading.Thread):
    """One table's phone, offline for the whole match: it keeps the deals, then sends them.

    The server takes a deal only once the previous one is final (R35), so the phone sends its
    whole queue as a batch, the second referee confirms what was stored, and the phone sends
    the batch again until every deal is stored; then once more (a lost answer), which must be
    all replays.
    """

    def __init__(self, base: str, table: tuple[int, str, str], deals: int, summaries, hold: float):
        super().__init__(daemon=True)
        self.base = base
        self.table_id, self.token_a, self.token_b = table
        self.deals, self.summaries, self.hold = deals, summaries, hold
        self.acknowledged: set[int] = set()  # deal numbers stored and confirmed
        self.replayed_at_end = 0
        self.errors: list[str] = []
        self.requests = 0

    def post(self, session, path: str, token: str, body: dict):
        headers = {"Authorization": f"Referee {token}", "Content-Type": "application/json"}
        deadline = time.time() + 300
        while time.time() < deadline:
            self.requests += 1
            try:
                response = session.post(
                    self.base + path, data=json.dumps(body), headers=headers, timeout=60
                )
            except Exception as exc:  # the hall's Wi-Fi again: try later
                self.errors.append(f"{path}: {type(exc).__name__}")
                time.sleep(1)
                continue
            if response.status_code >= 500 or response.status_code == 429:
                time.sleep(1)
                continue
            return response
        raise RuntimeError(f"{path}: no answer in 300 s")

    def run(self) -> None:
        import requests

        time.sleep(self.hold)
        session = requests.Session()
        batch = {
            "deals": [
                {
                    "number": n,
                    "idempotency_key": f"offline-t{self.table_id}d{n}",
                    "summary": self.summaries[n % len(self.summaries)],
                }
                for n in range(1, self.deals + 1)
            ]
        }
        path = f"/api/v1/tables/{self.table_id}/reports/batch"
        for _ in range(4 * self.deals):
            answer = self.post(session, path, self.token_a, batch).json()["results"]
            stored = [r for r in answer if r["status"] in (200, 201)]
            for result in stored:
                if result["number"] in self.acknowledged:
                    continue
                confirm = self.post(
                    session,
                    f"/api/v1/reports/{result['report']['id']}/confirm",
                    self.token_b,
                    {"agrees": True},
                )
                if confirm.status_code == 200:
                    self.acknowledged.add(result["number"])
                else:
                    self.errors.append(f"confirm {result['number']}: {confirm.status_code}")
            if len(self.acknowledged) == self.deals:
                break
        answer = self.post(session, path, self.token_a, batch).json()["results"]
        self.replayed_at_end = sum(bool(r.get("replayed")) for r in answer)


# --- after the run ------------------------------------------------------------------------------


def count_lost_and_duplicated(event_id: int, acknowledged: int) -> dict:
    """From the database: deals with a final result, deals acknowledged to a referee but not
    final (lost), and deals with more than one stored report (duplicated)."""
    from django.db.models import Count, Q

    from matches.models import Deal

    deals = Deal.objects.filter(match__round__event_id=event_id).annotate(
        stored=Count("reports"), final=Count("reports", filter=Q(reports__state="final"))
    )
    final = deals.filter(final=1).count()
    return {
        "final": final,
        "lost": max(0, acknowledged - final),
        "duplicated": deals.filter(stored__gt=1).count(),
    }


def derived_rows(event_id: int) -> dict:
    """Every row the computations write for the event, in a comparable form (all columns but
    ids, times and bookkeeping, so it survives a change of the models' columns)."""
    from matches.models import Deal, DealTally, Match, StandingsSnapshot

    skip = {"id", "computed_at", "created_at", "updated_at"}

    def rows(queryset, order):
        return [
            json.dumps({k: v for k, v in row.items() if k not in skip}, sort_keys=True, default=str)
            for row in queryset.order_by(*order).values()
        ]

    return {
        "tallies": rows(DealTally.objects.filter(match__round__event_id=event_id), ["deal_id"]),
        "owed": rows(Deal.objects.filter(match__round__event_id=event_id), ["id"]),
        "matches": rows(Match.objects.filter(round__event_id=event_id), ["id"]),
        "standings": rows(
            StandingsSnapshot.objects.filter(event_id=event_id), ["round_id", "kind", "scope"]
        ),
    }


def equals_full_recompute(event_id: int) -> tuple[bool, str]:
    """Whether the derived rows left by the workers equal a full recompute in this process."""
    from matches.standings import service as standings

    before = derived_rows(event_id)
    standings.recompute_event(event_id)
    after = derived_rows(event_id)
    different = [name for name in before if before[name] != after[name]]
    sizes = ", ".join(f"{len(rows)} {name}" for name, rows in after.items())
    return not different, (f"differ: {', '.join(different)}" if different else f"equal ({sizes})")
