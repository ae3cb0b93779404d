"""One error shape for the whole API: `{"error": {"code", "message", "rule"?}}`.

Clients (digital tables, apps) branch on the stable `code`; people read `message`; `rule` names
the rule id (R9, G8, ...) where one applies. No request may produce a 500: anything unexpected is
logged and answered as a JSON error.
"""

from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

log = logging.getLogger(__name__)


class ApiError(exceptions.APIException):
    """An error with a stable code, raised by services and views."""

    def __init__(self, code: str, message: str, *, status_code: int = 400, rule: str | None = None):
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.error_code = code
        self.rule = rule


_DRF_CODES = {
    exceptions.ParseError: "malformed",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.Throttled: "throttled",
    exceptions.ValidationError: "invalid",
}


def _message(detail) -> str:
    if isinstance(detail, list):
        return "; ".join(_message(item) for item in detail)
    if isinstance(detail, dict):
        return "; ".join(f"{key}: {_message(value)}" for key, value in detail.items())
    return str(detail)


def api_exception_handler(exc, context):
    if isinstance(exc, (OperationalError, InterfaceError)):
        # The database is down or restarting. Sending the same request again with the same
        # Idempotency-Key is safe: a report that did get stored is returned, not stored twice.
        log.warning("database unavailable: %s", exc)
        return Response(
            {
                "error": {
                    "code": "database_unavailable",
                    "message": "the database is unavailable; retry with the same Idempotency-Key",
                }
            },
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
            headers={"Retry-After": "1"},
        )
    response = exception_handler(exc, context)
    if response is None:
        # Django's own 404 and permission errors arrive here already converted by DRF; anything
        # else is a bug: log it, and still answer in the API's shape.
        log.exception("unhandled API error", exc_info=exc)
        return Response(
            {
                "error": {
                    "code": "internal_error",
                    "message": "the server could not handle this request",
                }
            },
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    if isinstance(exc, ApiError):
        error = {"code": exc.error_code, "message": str(exc.detail)}
        if exc.rule:
            error["rule"] = exc.rule
    else:
        code = next((c for cls, c in _DRF_CODES.items() if isinstance(exc, cls)), "error")
        error = {"code": code, "message": _message(getattr(exc, "detail", str(exc)))}
        if isinstance(exc, exceptions.ValidationError):
            error["fields"] = exc.detail
    response.data = {"error": error}
    return response
