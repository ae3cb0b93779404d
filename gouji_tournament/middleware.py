"""A page asked for while the database is down or restarting answers 503, not 500.

The API answers its own 503 (`matches/api/errors.py`); this does the same for the pages, with
a short page that needs no database (no session, no user, no base template's context) and a
Retry-After, so a projector or a phone polling the standings simply tries again.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from django.http import HttpResponse
from django.template.loader import render_to_string

log = logging.getLogger(__name__)


class DatabaseUnavailableMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, (OperationalError, InterfaceError)):
            return None
        log.warning("database unavailable for %s: %s", request.path, exception)
        response = HttpResponse(render_to_string("503.html"), status=503)
        response["Retry-After"] = "5"
        return response
