"""Find my table's search terms: what finds a union or a player of an event by name, club,
entry number or pinyin (full or initials: `hdwd` finds 黄岛五队), written when an entry is
registered or renamed (`index_*`, connected in `matches.receivers`; a bulk import calls
`index_entries`), so that a search (`matches.public.find`) is one indexed prefix lookup on
`SearchTerm(event, term)`."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from django.db import connection, transaction

from matches.models import Event, Registration, SearchTerm, Union, UnionMember
from matches.public import stamps
from players.models import Player

TERM_LENGTH = 64
# weights: lower ranks first
EXACT, PINYIN, SUFFIX, CLUB = 0, 1, 2, 5
_SPACE = re.compile(r"[\s\-_·•.,'’()（）/]+")


def normalise(text: str) -> str:
    """Lower case, full-width folded (ＡＢ１ → ab1), no spaces, punctuation or control
    characters (PostgreSQL refuses a NUL in a string)."""
    folded = _SPACE.sub("", unicodedata.normalize("NFKC", text or "").lower())
    return "".join(c for c in folded if not unicodedata.category(c).startswith("C"))


def _syllables(text: str) -> list[str]:
    """The pinyin of `text` syllable by syllable; a run of other letters or digits is split into
    its words (a word stays one syllable)."""
    # Imported here: pypinyin loads its dictionaries on import (as matches/draw/listing.py).
    from pypinyin import Style, lazy_pinyin

    out: list[str] = []
    for chunk in lazy_pinyin(unicodedata.normalize("NFKC", text), style=Style.NORMAL):
        out.extend(w for w in re.split(r"[^0-9a-z]+", chunk.lower()) if w)
    return out


def name_terms(name: str, base: int = EXACT) -> dict[str, int]:
    """The terms that find `name`: itself and its suffixes (from each character of a Chinese
    name, each word of another), its pinyin in full, from each syllable on, and its initials.
    (A new dict each call: callers add to it.)"""
    return dict(_name_terms(name, base))


@lru_cache(maxsize=16384)
def _name_terms(name: str, base: int) -> tuple[tuple[str, int], ...]:
    """`name_terms`, kept: an import names each club thousands of times, and pinyin is dear."""
    terms: dict[str, int] = {}

    def add(term: str, weight: int) -> None:
        term = term[:TERM_LENGTH]
        if term and (term not in terms or terms[term] > weight):
            terms[term] = weight

    whole = normalise(name)
    add(whole, base)
    words = [normalise(w) for w in (name or "").split()]
    if len(words) > 1:
        for k in range(1, len(words)):
            add("".join(words[k:]), base + SUFFIX)
    for k, char in enumerate(whole):
        if k and not char.isascii():
            add(whole[k:], base + SUFFIX)
    syllables = _syllables(name or "")
    if syllables:
        add("".join(syllables), base + PINYIN)
        # A run of digits stays whole: 黄岛5队 -> hd5d, 联邦12 -> lb12.
        add("".join(s if s.isdigit() else s[0] for s in syllables), base + PINYIN)
        for k in range(1, len(syllables)):
            add("".join(syllables[k:]), base + SUFFIX)
    return tuple(terms.items())


def _rows(event_id: int, terms: dict[str, int], union_id=None, player_id=None) -> list:
    return [
        SearchTerm(event_id=event_id, term=t, weight=w, union_id=union_id, player_id=player_id)
        for t, w in terms.items()
    ]


def _union_terms(union: Union, seed: int | None) -> dict[str, int]:
    terms = name_terms(union.name)
    if union.club is not None:
        for t, w in name_terms(union.club.name, CLUB).items():
            terms.setdefault(t, w)
    if seed is not None:
        terms[str(seed)] = EXACT
    return terms


def _player_terms(player: Player, seed: int | None = None) -> dict[str, int]:
    terms = name_terms(player.name)
    if player.name_zh and player.name_zh != player.name:
        for t, w in name_terms(player.name_zh).items():
            terms[t] = min(w, terms.get(t, w))
    if player.club is not None:
        for t, w in name_terms(player.club.name, CLUB).items():
            terms.setdefault(t, w)
    if seed is not None:
        terms[str(seed)] = EXACT
    return terms


@transaction.atomic
def index_union(union: Union) -> None:
    """(Re)write the terms of a registered union and of its players."""
    if union.round_id is not None:
        return  # an individual event's drawn union: found through its players
    entry = Registration.objects.filter(union=union).values_list("seed", flat=True).first()
    SearchTerm.objects.filter(union=union).delete()
    stamps.forget(union.event_id, stamps.FIND)
    if entry is None and not Registration.objects.filter(union=union).exists():
        return
    rows = _rows(union.event_id, _union_terms(union, entry), union_id=union.pk)
    # Its players are listed through it: their terms are rewritten here in one go (one delete,
    # one insert: a registration rush writes a union a registration), as `index_player` would.
    players = [m.player for m in union.members.select_related("player__club")]
    SearchTerm.objects.filter(event_id=union.event_id, player__in=players).delete()
    seeds = dict(
        Registration.objects.filter(event_id=union.event_id, player__in=players).values_list(
            "player_id", "seed"
        )
    )
    for player in players:
        terms = _player_terms(player, seeds.get(player.pk))
        rows += _rows(union.event_id, terms, player_id=player.pk)
    SearchTerm.objects.bulk_create(rows)


@transaction.atomic
def index_player(event_id: int, player: Player) -> None:
    """(Re)write a player's terms in one event (a registered player or a registered union's)."""
    SearchTerm.objects.filter(event_id=event_id, player=player).delete()
    stamps.forget(event_id, stamps.FIND)
    seed = (
        Registration.objects.filter(event_id=event_id, player=player)
        .values_list("seed", flat=True)
        .first()
    )
    listed = (
        seed is not None or Registration.objects.filter(event_id=event_id, player=player).exists()
    )
    if not listed:
        listed = UnionMember.objects.filter(
            event_id=event_id, round__isnull=True, player=player
        ).exists()
    if listed:
        SearchTerm.objects.bulk_create(
            _rows(event_id, _player_terms(player, seed), player_id=player.pk)
        )


def index_new_union(union: Union, players: list[Player]) -> None:
    """The terms of a union entered just now with `players`, new records made with it (a
    registration from the public page): none of them has a term or a seed yet, so they are
    written in one insert, with what `index_union` would write, and nothing to delete first."""
    rows: list[tuple[int, str, int, int | None, int | None]] = [
        (union.event_id, t, w, union.pk, None) for t, w in _union_terms(union, None).items()
    ]
    for player in players:
        rows += [(union.event_id, t, w, None, player.pk) for t, w in _player_terms(player).items()]
    # One statement of a few dozen rows (a prepared INSERT run per row costs a round trip each).
    sql = (
        f"INSERT INTO {connection.ops.quote_name(SearchTerm._meta.db_table)} "
        "(event_id, term, weight, union_id, player_id) VALUES "
        + ", ".join(["(%s, %s, %s, %s, %s)"] * len(rows))
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for row in rows for value in row])
    stamps.forget(union.event_id, stamps.FIND)


def unindex_player(event_id: int, player_id: int) -> None:
    """A registered union's member left it: their terms in the event go."""
    SearchTerm.objects.filter(event_id=event_id, player_id=player_id).delete()
    stamps.forget(event_id, stamps.FIND)


def index_registration(entry: Registration) -> None:
    if entry.union is not None:
        index_union(entry.union)
    elif entry.player is not None:
        index_player(entry.event_id, entry.player)


def reindex_player(player: Player) -> None:
    """A player renamed: their terms in every event that lists them."""
    events = set(SearchTerm.objects.filter(player=player).values_list("event_id", flat=True))
    for event_id in events:
        index_player(event_id, player)


def _entry_terms(event_id: int, entries, members) -> list[tuple]:
    """The terms of `entries` (registrations, their union and player with its club) and of
    `members` (their unions' members, with the player's club), as rows of `_insert_terms`."""
    rows: list[tuple] = []
    for entry in entries:
        if entry.union is not None:
            terms, union_id, player_id = _union_terms(entry.union, entry.seed), entry.union_id, None
        elif entry.player is not None:
            terms, union_id, player_id = (
                _player_terms(entry.player, entry.seed),
                None,
                entry.player_id,
            )
        else:
            continue
        rows += [(event_id, t, w, union_id, player_id) for t, w in terms.items()]
    for member in members:
        rows += [
            (event_id, t, w, None, member.player_id)
            for t, w in _player_terms(member.player).items()
        ]
    return rows


def _insert_terms(rows: list[tuple]) -> None:
    """Write many terms at once: (event id, term, weight, union id, player id). An import's
    100,000 rows cost about 60 µs each as model instances through `bulk_create`; one prepared
    INSERT run over plain tuples costs a few µs each. No signal listens to SearchTerm."""
    sql = (
        f"INSERT INTO {connection.ops.quote_name(SearchTerm._meta.db_table)} "
        "(event_id, term, weight, union_id, player_id) VALUES (%s, %s, %s, %s, %s)"
    )
    with connection.cursor() as cursor:
        for k in range(0, len(rows), 5000):
            cursor.executemany(sql, rows[k : k + 5000])


@transaction.atomic
def index_entries(event_id: int, entries, members) -> int:
    """The terms of entries just written in bulk (an import: no post_save indexed them), from
    the rows in hand (each entry's union or player and its club, each member's player and club:
    no query but the insert). Returns the rows written."""
    rows = _entry_terms(event_id, entries, members)
    _insert_terms(rows)
    stamps.forget(event_id, stamps.FIND)
    return len(rows)


@transaction.atomic
def reindex_event(event: Event) -> int:
    """Every term of an event at once (the benchmark, a repair). Returns the rows written."""
    SearchTerm.objects.filter(event=event).delete()
    stamps.forget(event.pk, stamps.FIND)
    entries = event.registrations.select_related("union__club", "player__club")
    members = UnionMember.objects.filter(
        event=event, round__isnull=True, union__registrations__isnull=False
    ).select_related("player__club")
    rows = _entry_terms(event.pk, entries, members)
    _insert_terms(rows)
    return len(rows)
