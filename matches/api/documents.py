"""Reading JSON documents from request bodies, refusing what could hurt the server."""

from __future__ import annotations

import json

from django.conf import settings

from matches.api.errors import ApiError
from matches.kernel.json_text import (  # noqa: F401 (DocumentError, parse_json_text: the API's too)
    MAX_DEPTH,
    DocumentError,
    _too_deep,
    _unstorable_text,
    parse_json_text,
)


def read_json_document(request) -> object:
    """Return the parsed JSON body, or raise a 400/413 `ApiError` with code `bad_document`."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    length = request.META.get("CONTENT_LENGTH") or "0"
    if length.isdigit() and int(length) > limit:
        raise ApiError("too_large", f"the body is larger than {limit} bytes", status_code=413)
    try:
        raw = request.body
    except Exception:  # Django's RequestDataTooBig and friends
        raise ApiError("too_large", f"the body is larger than {limit} bytes", status_code=413)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError("bad_document", f"the body is not UTF-8 (byte {exc.start})")
    if _too_deep(text):
        raise ApiError("bad_document", f"the JSON is nested deeper than {MAX_DEPTH} levels")
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise ApiError("bad_document", f"the body is not JSON: {exc}")
    if _unstorable_text(document):
        raise ApiError(
            "bad_document",
            "the JSON holds a NUL character (\\u0000) or an unpaired surrogate (\\ud800-\\udfff)",
        )
    return document
