"""Logging filters: referee-link tokens never reach a log.

A referee link (`/ref/<token>/`) is a password for its table. Django logs the path of every 4xx
and 500 (`django.request`) and runserver every request (`django.server`); this filter writes the
path with the token masked. deploy/nginx.conf does the same for nginx's access log.
"""

from __future__ import annotations

import logging
import re

REFEREE_PATH = re.compile(r"/ref/[^/\s?#'\"]+")


def mask_tokens(text: str) -> str:
    return REFEREE_PATH.sub("/ref/<token>", text)


class MaskRefereeTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_tokens(message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True
