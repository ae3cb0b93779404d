"""Logging filters: the secrets in paths never reach a log.

A referee link (`/ref/<token>/`, and the table phone's live stream `/live/ref/<token>/`) is a
password for its table; a union's private page (`/entry/<token>/`), a player's own page
(`/me/<token>/`, and its live stream `/live/players/<token>/`) and a staff invitation
(`/manage/join/<token>/`) are secrets too.
Django logs the path of every 4xx and 500 (`django.request`, `django.security.csrf`) and
runserver every request (`django.server`); this filter writes each path with the token masked.
deploy/nginx.conf masks the same prefixes in nginx's access log, and
tests/hostile/test_token_logs.py checks that every URL route taking a token is in this list and
in nginx's map.
"""

from __future__ import annotations

import logging
import re

# Every route prefix followed by a secret path segment.
TOKEN_PREFIXES = ("ref", "entry", "me", "manage/join", "live/players", "live/ref", "signup")

TOKEN_PATH = re.compile(r"/(" + "|".join(re.escape(p) for p in TOKEN_PREFIXES) + r")/[^/\s?#'\"]+")


def mask_tokens(text: str) -> str:
    return TOKEN_PATH.sub(lambda m: f"/{m.group(1)}/<token>", text)


class MaskRefereeTokens(logging.Filter):
    """Masks every token route (the name is kept for deployed logging configurations)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_tokens(message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True
