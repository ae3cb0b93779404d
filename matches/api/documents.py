"""Reading JSON documents from request bodies, refusing what could hurt the server."""
from __future__ import annotations

import json

from django.conf import settings

from matches.api.errors import ApiError

MAX_DEPTH = 32  # a deal record is 3 levels deep; nothing legitimate comes near this


def _too_deep(text: str) -> bool:
    # Count bracket depth outside strings before json.loads can recurse on it.
    depth, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif char in "]}":
            depth -= 1
    return False


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
        return json.loads(text)
    except ValueError as exc:
        raise ApiError("bad_document", f"the body is not JSON: {exc}")
