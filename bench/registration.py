"""Issue 48: a registration rush on PostgreSQL, over HTTP, with real workers.

    /work/main/.venv/bin/python bench/registration.py                 # 3,334 places, 20/s
    /work/main/.venv/bin/python bench/registration.py --places 300 --waitlist 20 --extra 20

Runs the app as `bench/festival.py` does (a scratch PostgreSQL database, its own Redis,
gunicorn gthread workers, two Celery workers), behind one trusted proxy
(`RATE_LIMIT_PROXIES=1`): each registrant comes from an address of their own, as phones do,
and the per-address limit stays on.

An event opens registration for `--places` unions (review off: a registration is accepted at
once and becomes the entry with its union, its three new players and its fee row: the heavy
path; `--review`: requests wait for the organiser), `--waitlist` places on the waiting list,
and `--places + --waitlist + --extra` captains register in an open loop at `--rate` a second
whatever the server does (registrant k is due at t0 + k / rate; a pool of threads sends what is
due). Each one does what a phone does: GET the form (the CSRF cookie, the signed sum), read the
sum, POST the form. A share (`--double`) press the button twice: the same form sent again must
find the same entry.

Meanwhile `--readers` people read the public standings page of another event, already running
(`--reader-unions` unions, round 1 drawn and published), each with a think time.

Printed: the rush's length and rate, the POST's latency p50/p95/p99 (from when it was sent,
and from when it was due: a server that falls behind shows), the readers' p95, and the checks:
0 lost (every answered registration is in the database, every row was answered), 0 duplicated
(a double press found its first entry; no two rows of one form), the capacity exact (holding
places = `--places`, waiting = `--waitlist`, the rest refused as full), and every accepted
request's entry whole (union, players, fee row).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from festival import Services, build_event, percentile  # noqa: E402  (this script's folder comes first on sys.path)

CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CHALLENGE = re.compile(r'name="challenge" value="([^"]+)"')
SUM = re.compile(r"(\d+) 加 (\d+)")


def signup_event(places: int, waitlist: int, review: bool):
    from django.contrib.auth.models import User

    from matches.models import Event, SignupSettings, Stage

    organiser, _ = User.objects.get_or_create(username="registration-organiser")
    event = Event.objects.create(
        name="青岛够级节报名（模拟）", start_date=datetime.date(2026, 8, 1), published=True
    )
    event.organisers.add(organiser)
    Stage.objects.create(
        event=event, order=1, name="瑞士制", format=Stage.Format.SWISS, planned_rounds=9
    )
    SignupSettings.objects.create(
        event=event,
        is_open=True,
        capacity=places,
        waitlist_limit=waitlist,
        review=review,
        fee_fen=6000,
        payment_ways=["cash", "wechat"],
        max_per_registrant=3,
    )
    return event


class Rush:
    """The captains: registrant k is due at t0 + k / rate and sent by a pool thread."""

    def __init__(self, base: str, event_id: int, rate: float, pool: int, double: float):
        self.base, self.event_id = base, event_id
        self.rate, self.pool, self.double = rate, pool, double
        self.lock = threading.Lock()
        self.post_ms: list[float] = []
        self.due_ms: list[float] = []
        self.get_ms: list[float] = []
        self.answers: dict[int, str] = {}  # registrant -> the private page's token, or a refusal
        self.doubles: dict[int, str] = {}  # registrant -> the second press's token
        self.errors: list[str] = []

    def one(self, k: int, due: float) -> None:
        import requests

        session = requests.Session()
        # Each phone its own address, written by the trusted proxy in front.
        session.headers["X-Forwarded-For"] = f"10.{k // 65536 % 256}.{k // 256 % 256}.{k % 256}"
        url = f"{self.base}/events/{self.event_id}/signup/"
        try:
            t0 = time.perf_counter()
            page = session.get(url, timeout=120)
            got = (time.perf_counter() - t0) * 1000
            text = page.text
            csrf, token, question = CSRF.search(text), CHALLENGE.search(text), SUM.search(text)
            if page.status_code != 200 or not (csrf and token and question):
                raise RuntimeError(f"form {page.status_code}: {text[:200]}")
            a, b = question.groups()
            data = {
                "csrfmiddlewaretoken": csrf.group(1),
                "challenge": token.group(1),
                "answer": str(int(a) + int(b)),
                "union_name": f"报名联邦{k}",
                "player1": f"报名{k}甲",
                "player2": f"报名{k}乙",
                "player3": f"报名{k}丙",
                "captain": "1",
                "club": "",
                "contact": f"139{k:08d}",
                "website": "",
            }
            headers = {"Referer": url}
            t1 = time.perf_counter()
            answer = session.post(
                url, data=data, headers=headers, timeout=120, allow_redirects=False
            )
            sent = (time.perf_counter() - t1) * 1000
            late = (time.perf_counter() - due) * 1000
            outcome = self.outcome(answer)
            second = None
            if random.Random(k).random() < self.double:
                again = session.post(
                    url, data=data, headers=headers, timeout=120, allow_redirects=False
                )
                second = self.outcome(again)
            with self.lock:
                self.get_ms.append(got)
                self.post_ms.append(sent)
                self.due_ms.append(late)
                self.answers[k] = outcome
                if second is not None:
                    self.doubles[k] = second
        except Exception as error:  # noqa: BLE001 - counted and shown
            with self.lock:
                self.errors.append(f"{k}: {type(error).__name__}: {str(error)[:200]}")

    @staticmethod
    def outcome(answer) -> str:
        if answer.status_code == 302:
            return "token:" + answer.headers["Location"].split("/signup/")[1].split("/")[0]
        code = re.search(r'data-code="([^"]*)"', answer.text)
        return f"refused:{answer.status_code}:{code.group(1) if code else '?'}"

    def run(self, count: int) -> float:
        started = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(max_workers=self.pool) as executor:
            for k in range(1, count + 1):
                due = started + (k - 1) / self.rate
                wait = due - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                executor.submit(self.one, k, due)
        return time.perf_counter() - started


class Readers(threading.Thread):
    """People reading the public standings page of a running event, each with a think time."""

    def __init__(self, base: str, event_id: int, count: int, think: float):
        super().__init__(daemon=True)
        self.url = f"{base}/events/{event_id}/standings/"
        self.count, self.think = count, think
        self.stop = threading.Event()
        self.ms: list[float] = []
        self.bad = 0
        self.lock = threading.Lock()

    def reader(self, seed: int) -> None:
        import requests

        rng = random.Random(seed)
        session = requests.Session()
        while not self.stop.is_set():
            t0 = time.perf_counter()
            try:
                ok = session.get(self.url, timeout=60).status_code == 200
            except Exception:  # noqa: BLE001 - counted
                ok = False
            with self.lock:
                if ok:
                    self.ms.append((time.perf_counter() - t0) * 1000)
                else:
                    self.bad += 1
            self.stop.wait(rng.expovariate(1 / self.think))

    def run(self) -> None:
        threads = [
            threading.Thread(target=self.reader, args=(k,), daemon=True) for k in range(self.count)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()


def in_process(event_id: int, count: int) -> dict:
    """Registrations through Django's whole stack in this process, one at a time (no network,
    no queueing, no other registrant): CPU milliseconds of the form's GET and of the POST. On
    a loaded machine the CPU figures are the steady ones.

    One handler for all, as a worker process has: each registrant its own cookies and address;
    the CPU of this thread only. (Until 7 December a new test Client each, whose first request
    loaded the middleware again, WhiteNoise listing every static file: about 12 ms no served
    request pays, counted in the form's GET; and while the live notices' thread of this process
    was busy with the seats of the readers' round just published.)"""
    from http.cookies import SimpleCookie

    from django.test import Client

    gets, posts = [], []
    url = f"/events/{event_id}/signup/"
    client = Client(HTTP_HOST="127.0.0.1")
    client.get(url)  # the handler's middleware loaded, the templates compiled
    for k in range(count):
        client.cookies = SimpleCookie()
        client.defaults["REMOTE_ADDR"] = f"10.200.{k // 256}.{k % 256}"
        c0 = time.thread_time()
        text = client.get(url).content.decode()
        c1 = time.thread_time()
        token, question = CHALLENGE.search(text), SUM.search(text)
        assert token and question, text[:300]
        a, b = question.groups()
        answer = client.post(
            url,
            {
                "challenge": token.group(1),
                "answer": str(int(a) + int(b)),
                "union_name": f"试算联邦{k}",
                "player1": f"试算{k}甲",
                "player2": f"试算{k}乙",
                "player3": f"试算{k}丙",
                "captain": "1",
                "contact": f"138{k:08d}",
            },
        )
        c2 = time.thread_time()
        assert answer.status_code == 302, answer.content.decode()[:300]
        gets.append((c1 - c0) * 1000)
        posts.append((c2 - c1) * 1000)
    return {
        "get_p50": percentile(gets, 50),
        "post_p50": percentile(posts, 50),
        "post_p95": percentile(posts, 95),
    }


def checks(event, rush: Rush, places: int, waitlist: int) -> dict:
    """What the database holds against what the registrants were told."""
    from matches.models import EntryFee, EntryRequest, Registration, UnionMember
    from matches.models.digest import token_digest

    Status = EntryRequest.Status
    rows = list(
        EntryRequest.objects.filter(event=event).values_list(
            "token_digest", "status", "registration_id"
        )
    )
    by_digest = {digest: (status, entry) for digest, status, entry in rows}
    told = {k: v[6:] for k, v in rush.answers.items() if v.startswith("token:")}
    refused = [v for v in rush.answers.values() if v.startswith("refused:")]
    lost = [k for k, token in told.items() if token_digest(token) not in by_digest]
    unanswered = len(rows) - len({token_digest(t) for t in told.values()})
    doubled = [k for k, second in rush.doubles.items() if second != rush.answers.get(k)]
    holding = sum(status in EntryRequest.HOLDING for status, _entry in by_digest.values())
    waiting = sum(status == Status.WAITLISTED for status, _entry in by_digest.values())
    accepted = [entry for status, entry in by_digest.values() if status == Status.ACCEPTED]
    entries = Registration.objects.filter(event=event).count()
    members = UnionMember.objects.filter(event=event, round__isnull=True).count()
    fee_rows = EntryFee.objects.filter(event=event).count()
    return {
        "rows": len(rows),
        "answered_tokens": len(told),
        "refused": len(refused),
        "refused_kinds": sorted({r.split(":", 2)[2] for r in refused}),
        "lost": len(lost),
        "rows_nobody_was_told": unanswered,
        "double_presses": len(rush.doubles),
        "double_presses_that_made_another": len(doubled),
        "holding": holding,
        "waiting": waiting,
        "capacity_exact": holding == places and waiting == waitlist,
        "entries": entries,
        "entries_whole": entries == len(accepted) == fee_rows and members == 3 * entries,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--places", type=int, default=3334)
    parser.add_argument("--waitlist", type=int, default=100)
    parser.add_argument("--extra", type=int, default=66, help="registrants refused as full")
    parser.add_argument("--rate", type=float, default=20.0, help="registrations due a second")
    parser.add_argument("--pool", type=int, default=48)
    parser.add_argument("--double", type=float, default=0.05, help="share pressing twice")
    parser.add_argument(
        "--review", action="store_true", help="requests wait for review (no entry made at once)"
    )
    parser.add_argument("--in-process", type=int, default=100, help="registrations timed alone")
    parser.add_argument("--readers", type=int, default=20)
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--reader-unions", type=int, default=300)
    parser.add_argument("--http-workers", type=int, default=3)
    parser.add_argument("--http-threads", type=int, default=8)
    parser.add_argument("--pg", default="postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--db-name", default="gouji_register_bench", help="scratch (dropped)")
    parser.add_argument("--env", action="append", default=[], help="NAME=value for the app")
    args = parser.parse_args()
    # What bench/festival.py's Services reads.
    args.faults, args.keep_db, args.db_prefix = False, False, ""
    args.no_standings_files = False
    args.env = ["RATE_LIMIT_PROXIES=1", *args.env]

    workdir = Path(tempfile.mkdtemp(prefix="registration-"))
    services = Services(args, workdir)
    services.db_name = args.db_name
    services.db_url = services.db_url.rsplit("/", 1)[0] + "/" + args.db_name
    services.env["DATABASE_URL"] = services.db_url
    os.environ.update(services.env)
    total = args.places + args.waitlist + args.extra
    print(
        f"registration: {total} captains at {args.rate}/s for {args.places} places and "
        f"{args.waitlist} on the waiting list; {args.readers} standings readers; logs in {workdir}",
        flush=True,
    )
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    import psycopg

    with psycopg.connect(args.pg, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{args.db_name}" WITH (FORCE)')
    services.up()
    try:
        run(args, services, total)
    finally:
        services.stop()


def run(args, services, total: int) -> None:
    import django

    django.setup()
    from django.db import connection

    from matches.draw import service as draw

    running, stage = build_event(args.reader_unions, 9, 4)
    round_ = draw.create_round(stage, seed=48)
    draw.publish_round(round_)
    event = signup_event(args.places, args.waitlist, args.review)
    trial = signup_event(args.places, args.waitlist, args.review)
    from matches.events import notify

    # This process's live notices' thread is still telling the readers' round's 900 players
    # where they sit: measured at once, the form's GET took four times its CPU (21 ms, 5 ms
    # five seconds later).
    notify.quiesce(60)
    time.sleep(5)
    alone = in_process(trial.pk, args.in_process)
    print(
        f"in process, one at a time ({args.in_process} registrations, another event): CPU form "
        f"GET p50={alone['get_p50']:.1f}ms, POST p50={alone['post_p50']:.1f}ms "
        f"p95={alone['post_p95']:.1f}ms",
        flush=True,
    )
    connection.close()
    base = f"http://127.0.0.1:{services.http_port}"
    import requests

    for _ in range(5):  # the workers' first requests open their connections
        requests.get(f"{base}/events/{running.pk}/standings/", timeout=60)
        requests.get(f"{base}/events/{event.pk}/signup/", timeout=60)
    readers = Readers(base, running.pk, args.readers, args.think)
    readers.start()
    rush = Rush(base, event.pk, args.rate, args.pool, args.double)
    cpu0 = services.cpu()
    seconds = rush.run(total)
    cpu1 = services.cpu()
    readers.stop.set()
    readers.join(120)
    p = {name: percentile(rush.post_ms, q) for name, q in (("p50", 50), ("p95", 95), ("p99", 99))}
    late95 = percentile(rush.due_ms, 95)
    cpu = {k: cpu1.get(k, 0.0) - cpu0.get(k, 0.0) for k in cpu1}
    print(
        f"rush: {total} registrations in {seconds:.1f} s ({total / seconds:.1f}/s); POST "
        f"p50={p['p50']:.0f}ms p95={p['p95']:.0f}ms p99={p['p99']:.0f}ms "
        f"max={max(rush.post_ms, default=0):.0f}ms; from due p95={late95:.0f}ms; form GET "
        f"p95={percentile(rush.get_ms, 95):.0f}ms; errors={len(rush.errors)}"
        + (f" first: {rush.errors[:3]}" if rush.errors else ""),
        flush=True,
    )
    print(
        f"server CPU over the rush: gunicorn {cpu.get('gunicorn', 0):.0f} s, celery "
        f"{cpu.get('celery', 0):.0f} s, postgres {cpu.get('postgres', 0):.0f} s "
        f"({1000 * sum(cpu.values()) / max(1, total):.0f} ms a registration)",
        flush=True,
    )
    print(
        f"standings readers: {len(readers.ms)} pages, p50={percentile(readers.ms, 50):.0f}ms "
        f"p95={percentile(readers.ms, 95):.0f}ms, failed={readers.bad}",
        flush=True,
    )
    result = checks(event, rush, args.places, args.waitlist)
    connection.close()
    print("checks: " + ", ".join(f"{k}={v}" for k, v in result.items()), flush=True)
    goals = {
        f"all {total} within 10 minutes": seconds <= 600 and not rush.errors,
        "p95 <= 300 ms": p["p95"] <= 300,
        "0 lost": result["lost"] == 0 and result["rows_nobody_was_told"] == 0,
        "0 duplicated": result["double_presses_that_made_another"] == 0,
        "capacity exact": result["capacity_exact"],
        "entries whole": result["entries_whole"],
    }
    print("goals: " + "; ".join(f"{k}: {'met' if v else 'NOT met'}" for k, v in goals.items()))


if __name__ == "__main__":
    main()
