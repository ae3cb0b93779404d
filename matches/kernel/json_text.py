"""JSON text read with the API's guards (a nesting limit, nothing a database column cannot
hold): the API's request bodies (`matches/api/documents.py`) and the referee forms' pasted play
logs and hand records."""

from __future__ import annotations

import json
import re

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


# Text no database column can hold: NUL (PostgreSQL refuses it in text and jsonb) and a UTF-16
# surrogate left unpaired by a "\ud800" escape (not encodable as UTF-8). json.loads lets both in.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _unstorable_text(document: object) -> bool:
    pending = [document]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if _UNSTORABLE.search(value):
                return True
        elif isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


class DocumentError(ValueError):
    """A JSON text refused before or after parsing; `str()` says why."""


def parse_json_text(text: str) -> object:
    """`json.loads` with the API's guards: the nesting limit (checked before json.loads can
    recurse on it) and no text a database column cannot hold. The referee and correction forms
    read their play logs and hand records with it too. Raises DocumentError."""
    # The messages complete "the play log is ...".
    if _too_deep(text):
        raise DocumentError(f"nested deeper than {MAX_DEPTH} levels")
    try:
        document = json.loads(text)
    except ValueError as exc:
        raise DocumentError(f"not JSON: {exc}")
    if _unstorable_text(document):
        raise DocumentError(
            "holding a NUL character (\\u0000) or an unpaired surrogate (\\ud800-\\udfff)"
        )
    return document
