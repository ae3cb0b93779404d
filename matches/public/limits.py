"""The public read side's allowances per client address: find my table's searches and the live
streams held open. Generous enough for a hall of 2,000 phones behind one NAT address (the
numbers are `settings.RATE_LIMITS`' "find_requests" and "live_streams", matches/ratelimit.py),
so that they stop a script, never a hall; deploy/nginx.conf holds the same allowances in front
(`limit_req`, `limit_conn`). Beyond them: 429 (searches) or 503 (streams) with Retry-After.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpResponse

from matches import ratelimit

FIND_REQUESTS = ratelimit.Limit("find_requests")


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
