"""The registration form's challenge: a small sum rendered by the server, answered by a person.
No outside service (a hall may have no internet; some captcha services are unreachable from
China) and no script needed. The challenge carries the form's one-time key, signed: a solved
challenge makes one request (a second submit finds it), and the answer is kept only as a keyed
digest, so the page's hidden field does not give it away."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

SALT = "matches.signup.challenge"
#: how long a form stays good (a captain types three names and a phone; a slow one too)
MAX_AGE = 2 * 3600


class ChallengeFailed(Exception):
    def __init__(self, code: str):
        super().__init__(code)
        self.code = code  # "wrong", "expired", "bad"


@dataclass(frozen=True)
class Challenge:
    a: int
    b: int
    token: str  # the signed form key and the answer's digest, for a hidden field


def _answer_digest(form_key: str, answer: int) -> str:
    return salted_hmac(SALT, f"{form_key}:{answer}").hexdigest()[:20]


def new_challenge(form_key: str | None = None) -> Challenge:
    """A sum of two numbers from 2 to 19 and the form's key (a new one unless given: a wrong
    answer gets a new sum for the same form)."""
    key = form_key or secrets.token_urlsafe(16)
    a, b = secrets.randbelow(18) + 2, secrets.randbelow(18) + 2
    token = signing.dumps({"k": key, "h": _answer_digest(key, a + b)}, salt=SALT)
    return Challenge(a, b, token)


def form_key_of(token: str) -> str:
    """The form's key, whatever the answer (to give the same form a new sum); "" when the
    token is not ours."""
    try:
        return str(signing.loads(token or "", salt=SALT)["k"])
    except (signing.BadSignature, KeyError, TypeError):
        return ""


def solve(token: str, answer: str) -> str:
    """The form's key when `answer` is the sum, else ChallengeFailed."""
    try:
        data = signing.loads(token or "", salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired as error:
        raise ChallengeFailed("expired") from error
    except signing.BadSignature as error:
        raise ChallengeFailed("bad") from error
    text = (answer or "").strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 3):
        raise ChallengeFailed("wrong")
    if not constant_time_compare(_answer_digest(data["k"], int(text)), data["h"]):
        raise ChallengeFailed("wrong")
    return str(data["k"])
