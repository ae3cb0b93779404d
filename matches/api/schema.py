"""OpenAPI post-processing: document the error answers every operation can give.

Views document their own successes (and the errors particular to them); this hook adds, in
the API's one error shape (matches/api/errors.py), the answers any operation may give:
404 for a path naming a row, 400 for a body or query parameters, 401/403 where credentials are
read, 413 for a body, 429 from the rate limits (matches/ratelimit.py) and 503 while the database
is down. Schemathesis checks the API against the result (tests/hostile/test_schemathesis.py).
"""

from __future__ import annotations

ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string"},
                "message": {"type": "string"},
                "rule": {"type": ["string", "null"]},
            },
        },
    },
}

DESCRIPTIONS = {
    "400": "Malformed request (`malformed`, `bad_document`, `invalid`)",
    "401": "No or wrong credentials",
    "403": "Not allowed",
    "404": "No such row, or not visible to you",
    "413": "Body too large",
    "415": "Unsupported media type",
    "429": "Rate limited or locked out after wrong tokens; see Retry-After",
    "503": "Database unavailable; retry (same Idempotency-Key) after Retry-After",
}


def add_error_responses(result, generator, request, public):
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"] = ERROR_SCHEMA
    ref = {"$ref": "#/components/schemas/Error"}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            codes = ["429", "503", "400"]
            if "{" in path:
                codes.append("404")
            if method in ("post", "put", "patch"):
                codes += ["413", "415"]
            if any(requirement for requirement in operation.get("security", [])):
                codes += ["401", "403"]
            responses = operation.setdefault("responses", {})
            for code in codes:
                responses.setdefault(
                    code,
                    {
                        "description": DESCRIPTIONS[code],
                        "content": {"application/json": {"schema": ref}},
                    },
                )
    return result
