"""The public read side's allowances per client address: find my table's searches and the live
streams held open. Generous enough for a hall of 2,000 phones behind one NAT address (the
numbers are `settings.RATE_LIMITS`' "find_requests" and "live_streams", matches/ratelimit.py),
so that they stop a script, never a hall; deploy/nginx.conf holds the same allowances in front
(`limit_req`, `limit_conn`). Beyond them: 429 (searches) or 503 (streams) with Retry-After.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.http import HttpResponse

from matches import ratelimit

FIND_REQUESTS = ratelimit.Limit("find_requests")

T = TypeVar("T")

#: How long a stream's opening waits for another request's reading before it reads itself.
READING_WAIT = 5.0
_POLL = 0.05


def _refusal(status: int, seconds: int, text: str) -> HttpResponse:
    response = HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(max(1, int(seconds)))
    response["Cache-Control"] = "no-store"
    return response


def find_refused(request) -> HttpResponse | None:
    """429 when the request's address has used up its searches of the moment, else None."""
    wait = FIND_REQUESTS.hit(ratelimit.client_ip(request))
    if wait:
        return _refusal(429, wait, "Too many searches from this address; try again shortly.\n")
    return None


def _stream_key(request) -> str:
    return ratelimit._key("live_streams", ratelimit.client_ip(request), "open")


def open_stream(request) -> tuple[HttpResponse | None, object]:
    """Count a stream opening from the request's address: (a 503 when the address holds its
    allowance already, None) and the function that counts it closed (call it once)."""
    rule = ratelimit.policy("live_streams")
    key = _stream_key(request)
    cache.add(key, 0, timeout=rule["window"])
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=rule["window"])
        count = 1
    closed: list[bool] = []

    def close() -> None:
        if closed:
            return
        closed.append(True)
        try:
            if cache.decr(key) < 0:
                cache.set(key, 0, timeout=rule["window"])
        except ValueError:  # the count expired meanwhile
            pass

    if count > rule["limit"]:
        close()
        return _refusal(503, 10, "Too many live streams from this address.\n"), close
    return None, close


def _claim(key: str, seconds: float) -> bool:
    """True for the first caller in `seconds` across the processes (Redis: SET NX PX,
    gouji_tournament/cache.py; Redis away, every caller). The local-memory cache keeps
    fractions of a second with `add`."""
    taker = getattr(cache, "claim", None)
    if taker is not None:
        return taker(key, seconds)
    return cache.add(key, 1, seconds)


def shared_reading(key: str, seconds: float, read: Callable[[], T]) -> T:
    """`read()`'s answer, shared by every request asking within `seconds`, read by one of them.

    A hall's screens, or 2,000 phones coming back after a restart, open their streams at once.
    Under ASGI each opening's sync code runs in a thread of its own with a database connection
    of its own: when every opening that missed the cache read the database, a burst of them
    used up PostgreSQL's connections ("too many clients", 503 at opening: bench/spectators.py,
    550 of 2,000). One opening claims the reading and stores it; the others wait for it
    (holding no connection) and read it from the cache. One that waited `READING_WAIT` in
    vain (the reader died) reads for itself. `read()` must not answer None."""
    found = cache.get(key)
    if found is not None:
        return found
    deadline = time.monotonic() + READING_WAIT
    while time.monotonic() < deadline:
        if _claim(key + ":reading", READING_WAIT):
            try:
                # The reader before may have stored its answer and let go since the miss.
                found = cache.get(key)
                if found is None:
                    found = read()
                    cache.set(key, found, seconds)
            finally:
                cache.delete(key + ":reading")
            return found
        time.sleep(_POLL)
        found = cache.get(key)
        if found is not None:
            return found
    found = read()
    cache.set(key, found, seconds)
    return found
