"""Club names as people type them: one club, however its name was spaced or typed.

A typo must not make a fifth club, which would also defeat keeping clubmates apart in the draw.
`same_club` finds an existing club whose name differs only in spacing, full-width letters or
case (used as that club); `near_duplicates` finds clubs whose names are close enough to be a
typo (warned, never merged silently)."""

from __future__ import annotations

import re
import unicodedata
from difflib import SequenceMatcher

from players.models import Club

#: Words that say "club" and nothing about which one: compared without them.
GENERIC_SUFFIXES = ("俱乐部", "协会", "联队", "队", "club", "team", "association")
#: Two names (without their generic suffix) this similar are probably one club mistyped.
SIMILAR = 0.8
#: A name that is another with up to this many characters missing at its end (黄岛俱乐).
TRUNCATED = 2


def normalised(name: str) -> str:
    """Full-width letters and digits as ASCII, no spaces at all, case folded."""
    text = unicodedata.normalize("NFKC", name or "")
    return re.sub(r"\s+", "", text).casefold()


def _core(name: str) -> str:
    for suffix in GENERIC_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def similar(a: str, b: str) -> bool:
    """Two different names of probably one club."""
    a, b = normalised(a), normalised(b)
    if not a or not b:
        return False
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 2 and long_.startswith(short) and len(long_) - len(short) <= TRUNCATED:
        return True
    core_a, core_b = _core(a), _core(b)
    if min(len(core_a), len(core_b)) < 2:
        return False
    return SequenceMatcher(None, core_a, core_b).ratio() >= SIMILAR


def same_club(name: str, clubs=None) -> Club | None:
    """The existing club this name means: the same name, or one that differs only in spacing,
    width or case."""
    name = (name or "").strip()
    if not name:
        return None
    exact = Club.objects.filter(name=name).first()
    if exact is not None:
        return exact
    key = normalised(name)
    return next((c for c in (clubs or Club.objects.all()) if normalised(c.name) == key), None)


def near_duplicates(name: str, names) -> list[str]:
    """Of `names` (existing clubs, or clubs earlier in a file), those `name` is probably a typo
    of or a spacing variant of: never `name` itself."""
    name = (name or "").strip()
    return [other for other in names if other != name and similar(name, other)]


def get_or_create(name: str) -> Club | None:
    """The club for a typed name: an existing one when only spacing or width differ."""
    name = (name or "").strip()
    if not name:
        return None
    return same_club(name) or Club.objects.create(name=name)


def all_names() -> list[str]:
    return list(Club.objects.order_by("name").values_list("name", flat=True))
