"""Which role this server plays (settings.SITE_ROLE, docs/hall-box.md)."""

from __future__ import annotations

from django.conf import settings

SINGLE, BOX, MIRROR = "single", "box", "mirror"


def role() -> str:
    return getattr(settings, "SITE_ROLE", SINGLE)


def is_mirror() -> bool:
    return role() == MIRROR


def is_box() -> bool:
    return role() == BOX
