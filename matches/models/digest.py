"""The digest a private page's token is found by.

A private link's token (an entry's, a player's or a union's own page) stays on the hall box; the
public mirror receives only its SHA-256 (docs/hall-box.md). Every server finds the page by the
digest, so the box and the mirror answer the same link the same way."""

from __future__ import annotations

import hashlib


def token_digest(token: str | None) -> str | None:
    if not token:
        return None
    return hashlib.sha256(token.encode()).hexdigest()


def with_digest(update_fields, token_field: str, digest_field: str):
    """`save(update_fields=...)` that names the token names its digest too."""
    if update_fields is not None and token_field in update_fields:
        return [*update_fields, digest_field]
    return update_fields
