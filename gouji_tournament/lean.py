"""The lean request path: a referee's deal results through a shorter middleware stack.

A festival's requests are nearly all two: a referee link reports a deal, a second link confirms
it (`POST /api/v1/tables/<id>/deals/<n>/reports`, `POST /api/v1/reports/<id>/confirm`, and the
phone queue's batch). They are JSON, authenticated by the link's token in the Authorization
header, and need none of what the pages' middleware does for a browser: no session, no user from
a cookie, no CSRF (DRF checks it itself for the session logins, which never come this way), no
messages, no htmx headers, no static files, no Content-Security-Policy (it governs documents a
browser renders; a JSON answer is `nosniff`), no slash appended.

`LeanPathMiddleware`, first in `MIDDLEWARE`, sends exactly those requests through
`LEAN_MIDDLEWARE` (settings.py: a subsequence of `MIDDLEWARE`, kept so by a test) to the same
URL resolver, the same DRF views and the same checks; everything else, including the same URLs
with a session or an API token, goes through the whole stack. The security headers, the database
outage's 503, the mirror's refusal, the language of the error messages and the text cleaning
stay on both paths. Measured (docs/performance.md, "Speed III"): the stack the lean path skips
was about 6% of the function calls of the two requests.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core.handlers.base import BaseHandler
from django.core.handlers.exception import convert_exception_to_response
from django.utils.module_loading import import_string

#: The referee's hot routes (matches/api/urls.py: deal-report-submit, report-confirm,
#: deal-report-batch); tests/api/test_lean_path.py holds this to those routes.
HOT_PATHS = re.compile(
    r"/api/v1/(?:tables/[0-9]+/deals/[0-9]+/reports|reports/[0-9]+/confirm"
    r"|tables/[0-9]+/reports/batch)"
)


def is_hot(request) -> bool:
    """A referee link's POST to one of the hot routes (the link's token, not a cookie)."""
    return (
        request.method == "POST"
        and request.META.get("HTTP_AUTHORIZATION", "").startswith("Referee ")
        and HOT_PATHS.fullmatch(request.path_info) is not None
    )


class _LeanHandler(BaseHandler):
    """Django's handler with `LEAN_MIDDLEWARE` in place of `MIDDLEWARE`: the same request cycle
    (URL resolving, each middleware's view and exception hooks, the view, the response) over
    the shorter list. Every middleware in it is synchronous, as on the whole stack."""

    def load_middleware(self, is_async=False):
        self._view_middleware = []
        self._template_response_middleware = []
        self._exception_middleware = []
        handler = convert_exception_to_response(self._get_response)
        for path in reversed(settings.LEAN_MIDDLEWARE):
            instance = import_string(path)(handler)
            if hasattr(instance, "process_view"):
                self._view_middleware.insert(0, instance.process_view)
            if hasattr(instance, "process_template_response"):
                self._template_response_middleware.append(instance.process_template_response)
            if hasattr(instance, "process_exception"):
                self._exception_middleware.append(instance.process_exception)
            handler = convert_exception_to_response(instance)
        self._middleware_chain = handler


class LeanPathMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        lean = _LeanHandler()
        lean.load_middleware()
        self.lean = lean._middleware_chain

    def __call__(self, request):
        if is_hot(request):
            return self.lean(request)
        return self.get_response(request)
