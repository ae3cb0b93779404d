"""Club names as people type them: one club, however its name was spaced or typed.

A typo must not make a fifth club, which would also defeat keeping clubmates apart in the draw.
`same_club` finds an existing club whose name differs only in spacing, full-width letters or
case (used as that club); `near_duplicates` finds clubs whose names are close enough to be a
typo (warned, never merged silently), and `likeness` says why: the same name in traditional
characters (李滄俱樂部, folded by OpenCC's t2s), a homophone typed by a pinyin input method in a
short name (李仓俱乐部: compared by toneless pinyin as well as by characters), a truncated name
or a close spelling."""

from __future__ import annotations

import re
import secrets
import unicodedata
from difflib import SequenceMatcher
from functools import lru_cache

import opencc
from django.core.cache import cache
from pypinyin import Style, pinyin

from players.models import Club

#: Words that say "club" and nothing about which one: compared without them.
GENERIC_SUFFIXES = ("俱乐部", "协会", "联队", "队", "club", "team", "association")
#: Two names (without their generic suffix) this similar are probably one club mistyped.
SIMILAR = 0.8
#: A name that is another with up to this many characters missing at its end (黄岛俱乐).
TRUNCATED = 2
#: Names (without their generic suffix) up to this long are compared by pinyin as well: one
#: character off in a name this short is too far for `SIMILAR` (李沧/李仓: 0.5), yet a pinyin
#: input method picks the wrong one of a homophone in a moment. Longer names already pass
#: `SIMILAR` with one character off.
SHORT_CORE = 4

#: Why `likeness` finds two names alike (the pages say it in words).
SPACING, TRADITIONAL, TRUNCATED_NAME, HOMOPHONE, CLOSE = (
    "spacing",
    "traditional",
    "truncated",
    "homophone",
    "close",
)


@lru_cache(maxsize=4096)
def normalised(name: str) -> str:
    """Full-width letters and digits as ASCII, no spaces at all, case folded."""
    text = unicodedata.normalize("NFKC", name or "")
    return re.sub(r"\s+", "", text).casefold()


@lru_cache(maxsize=1)
def _to_simplified() -> opencc.OpenCC:
    return opencc.OpenCC("t2s")


@lru_cache(maxsize=4096)
def folded(name: str) -> str:
    """`normalised`, in simplified characters (traditional ones folded by OpenCC)."""
    return _to_simplified().convert(normalised(name))


@lru_cache(maxsize=8192)
def _readings(character: str) -> frozenset[str]:
    """A character's toneless pinyin, every reading of it (重: zhong, chong); anything that is
    not a Chinese character reads as itself."""
    return frozenset(pinyin(character, style=Style.NORMAL, heteronym=True, errors="default")[0])


def _homophones(a: str, b: str) -> bool:
    """Two short names of one length that differ in one character only, and those two
    characters share a reading (李沧/李仓); 市南/市北 differ in sound, so they are not."""
    if len(a) != len(b) or len(a) > SHORT_CORE:
        return False
    different = [(x, y) for x, y in zip(a, b) if x != y]
    return len(different) == 1 and bool(_readings(different[0][0]) & _readings(different[0][1]))


def _core(name: str) -> str:
    for suffix in GENERIC_SUFFIXES:
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def likeness(a: str, b: str) -> str | None:
    """Why two names are probably one club (`SPACING`, `TRADITIONAL`, `TRUNCATED_NAME`,
    `HOMOPHONE`, `CLOSE`), or None when they are not alike."""
    if not normalised(a) or not normalised(b):
        return None
    if normalised(a) == normalised(b):
        return SPACING
    a, b = folded(a), folded(b)
    if a == b:
        return TRADITIONAL
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 2 and long_.startswith(short) and len(long_) - len(short) <= TRUNCATED:
        return TRUNCATED_NAME
    core_a, core_b = _core(a), _core(b)
    if min(len(core_a), len(core_b)) < 2:
        return None
    matcher = SequenceMatcher(None, core_a, core_b)
    # The cheap upper bounds first: most pairs of an import's clubs stop there.
    if matcher.real_quick_ratio() >= SIMILAR and matcher.quick_ratio() >= SIMILAR:
        if matcher.ratio() >= SIMILAR:
            return CLOSE
    return HOMOPHONE if _homophones(core_a, core_b) else None


def similar(a: str, b: str) -> bool:
    """Two different names of probably one club."""
    return likeness(a, b) is not None


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


def same_clubs(names) -> dict[str, Club | None]:
    """`same_club` for many typed names at once (an import's, a paste's): every club read once.
    Each stripped name maps to its club, or None (blank, or a club not known yet)."""
    wanted = {(n or "").strip() for n in names} - {""}
    if not wanted:
        return {}
    every = list(Club.objects.all())
    exact = {c.name: c for c in every}
    by_key: dict[str, Club] = {}
    for club in every:
        by_key.setdefault(normalised(club.name), club)
    return {n: exact.get(n) or by_key.get(normalised(n)) for n in wanted}


def get_or_create_many(names) -> dict[str, Club | None]:
    """`get_or_create` for many typed names: the existing clubs, and one new club for each
    name that has none (names that differ only in spacing or width make one club)."""
    found = same_clubs(names)
    made: dict[str, Club] = {}
    for name in sorted(found):
        if found[name] is None:
            key = normalised(name)
            if key not in made:
                made[key] = Club.objects.create(name=name)
            found[name] = made[key]
    return found


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


#: The cache key of `names_stamp`, and how long a stamp lives at most (a write that sends no
#: signal, e.g. a queryset's update, is seen after this at the latest).
NAMES_STAMP = "clubs:names-stamp"
NAMES_STAMP_SECONDS = 300


def names_stamp() -> str:
    """A token that changes whenever the list of clubs may have: what is drawn from
    `all_names` can be kept under it (the public registration form's list of clubs)."""
    stamp = cache.get(NAMES_STAMP)
    if stamp is None:
        cache.add(NAMES_STAMP, secrets.token_hex(6), NAMES_STAMP_SECONDS)
        stamp = cache.get(NAMES_STAMP) or "none"
    return stamp


def forget_names() -> None:
    """A club saved or deleted (matches/receivers.py): the next `names_stamp` is a new one."""
    cache.delete(NAMES_STAMP)
