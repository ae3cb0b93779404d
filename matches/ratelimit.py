"""Rate limits and brute-force lockouts, kept in Django's cache (Redis in production and CI,
local memory otherwise).

Two mechanisms, both counted in fixed windows that start with the first event:
- `Limit` counts every request for a key (a referee token, an IP) and refuses the rest of the
  window once the limit is reached;
- `Lockout` counts failures only (a wrong referee token, a wrong password) for each key and,
  when a key reaches its limit, locks that key for a period.
What a lock refuses differs with the secret's strength:
- referee-link and API tokens have 192 and 160 bits: nobody guesses one, so a lock on an
  address refuses only *wrong* tokens (a valid one is looked up first and always works). Referee
  phones share the hall's public address; one person hammering must not stop them all;
- captain PINs (four digits) are taken only on the table's own device and lock the union at that
  table, not an address (five typos at one table locked the whole hall);
- passwords can be guessed, so a locked key is refused before the password is checked. The key
  is the account *and* the address together: a guesser locks that pair, not the organiser
  everywhere, and not every account behind the hall's address.
Successful use never counts towards a lockout. The numbers live in settings.RATE_LIMITS (see
docs/hardening.md); a test or a deployment may override any of them.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache

DEFAULTS = {
    # Wrong referee tokens (API `Authorization: Referee`, and /ref/<token>/ pages) per client IP.
    "referee_token_failures": {"limit": 20, "window": 600, "lockout": 900},
    # Requests made with one valid referee token: a table reports a deal every few minutes.
    "referee_token_requests": {"limit": 120, "window": 60},
    # Wrong passwords (login page, admin) per account name and client IP together.
    "login_failures": {"limit": 5, "window": 900, "lockout": 900},
    # Login form posts per client IP, right or wrong.
    "login_requests": {"limit": 30, "window": 60},
    # Wrong captain PINs (confirming a deal on the table's phone), per union at that table; never
    # per address: the hall's phones share one (matches/results/lockouts.py).
    "captain_pin_failures": {"limit": 5, "window": 600, "lockout": 600},
    # Wrong DRF API tokens per client IP.
    "api_token_failures": {"limit": 20, "window": 600, "lockout": 900},
    # Find my table (page and API) per client IP: a hall of 2,000 phones behind one address,
    # each typing a name as a round is published (a search per keystroke), stays well inside;
    # a script does not (matches/public/limits.py; deploy/nginx.conf allows the same).
    "find_requests": {"limit": 3000, "window": 10},
    # Live streams held open at once per client IP: two per phone of such a hall (the event's
    # and a player's own page). `window`: how long a count outlives a process that died.
    "live_streams": {"limit": 4000, "window": 900},
    # Registration form posts (and registrants' edits) per client IP: a club captain entering
    # a few unions stays well inside; a script filling the event does not (docs/registration.md).
    "signup_posts": {"limit": 20, "window": 600},
}


def policy(name: str) -> dict:
    return {**DEFAULTS[name], **getattr(settings, "RATE_LIMITS", {}).get(name, {})}


def client_ip(request) -> str:
    """The client's address. Behind N trusted reverse proxies (settings.RATE_LIMIT_PROXIES = N),
    the Nth address from the right of X-Forwarded-For; otherwise REMOTE_ADDR (a client can
    write anything into X-Forwarded-For)."""
    proxies = getattr(settings, "RATE_LIMIT_PROXIES", 0)
    if proxies:
        forwarded = [
            a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()
        ]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _key(name: str, subject: str, part: str) -> str:
    digest = hashlib.sha256(subject.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"rl:{name}:{digest}:{part}"


def _count(key: str, window: int) -> int:
    counter = getattr(cache, "count_in_window", None)
    if counter is not None:  # Redis: one round trip (every referee request counts)
        return counter(key, window)
    cache.add(key, 0, timeout=window)  # starts the window; does nothing if it runs already
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, timeout=window)
        return 1


@dataclass(frozen=True)
class Limit:
    name: str

    def hit(self, subject: str) -> int:
        """Count one request; the seconds to wait when over the limit, else 0."""
        rule = policy(self.name)
        if _count(_key(self.name, subject, "n"), rule["window"]) > rule["limit"]:
            return rule["window"]
        return 0


@dataclass(frozen=True)
class Lockout:
    name: str

    def locked_for(self, subject: str) -> int:
        """Seconds left of a lock on `subject` (0: not locked)."""
        until = cache.get(_key(self.name, subject, "lock"))
        return max(0, int(until - time.time()) + 1) if until else 0

    def locked_for_many(self, subjects: list[str]) -> dict[str, int]:
        """`locked_for` of many subjects in one cache round trip."""
        keys = {_key(self.name, s, "lock"): s for s in subjects}
        found = cache.get_many(list(keys))
        now = time.time()
        return {keys[k]: max(0, int(until - now) + 1) if until else 0 for k, until in found.items()}

    def fail(self, subject: str) -> int:
        """Count a failure; lock the subject when it reaches the limit. Returns the lock's
        seconds (0: not locked)."""
        rule = policy(self.name)
        failures = _count(_key(self.name, subject, "n"), rule["window"])
        if failures >= rule["limit"]:
            cache.set(
                _key(self.name, subject, "lock"),
                time.time() + rule["lockout"],
                timeout=rule["lockout"],
            )
            cache.delete(_key(self.name, subject, "n"))
            return rule["lockout"]
        return 0

    def clear(self, subject: str) -> None:
        cache.delete_many([_key(self.name, subject, "n"), _key(self.name, subject, "lock")])


REFEREE_TOKEN_FAILURES = Lockout("referee_token_failures")
REFEREE_TOKEN_REQUESTS = Limit("referee_token_requests")
LOGIN_FAILURES = Lockout("login_failures")
LOGIN_REQUESTS = Limit("login_requests")
API_TOKEN_FAILURES = Lockout("api_token_failures")
CAPTAIN_PIN_FAILURES = Lockout("captain_pin_failures")


def account_subject(username: str) -> str:
    return (username or "").strip().casefold()[:150]


def login_subject(username: str, ip: str) -> str:
    """The key of the login lockout: one account from one address."""
    return f"{account_subject(username)}\n{ip}"


class LockoutModelBackend(ModelBackend):
    """Django's model backend behind the login lockout: an account/address pair that is locked is
    refused before its password is checked; a wrong password counts against the pair. Covers
    every password sign-in that passes the request (the login page, the admin). The login page
    reads `request.login_locked_for` to say why and for how long."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return super().authenticate(request, username=username, password=password, **kwargs)
        subject = login_subject(username or kwargs.get("username") or "", client_ip(request))
        wait = LOGIN_FAILURES.locked_for(subject)
        if wait:
            request.login_locked_for = wait
            return None
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            wait = LOGIN_FAILURES.fail(subject)
            if wait:
                request.login_locked_for = wait
        else:
            LOGIN_FAILURES.clear(subject)
        return user
