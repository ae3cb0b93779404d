"""Find my table: search an event's unions and players by name, club, entry number
or pinyin (full or initials: `hdwd` finds 黄岛五队), answer the current round's table, seat,
side and opponents; the entry card (every round); the private pages ("my page") and their passes.

The search terms are written when a union or a player is registered or renamed (`index_*`,
connected in `matches.receivers`; a bulk import calls `index_entries`), so a query is one
indexed prefix lookup on `SearchTerm(event, term)` plus a few reads of the hits' seats.

Only published data: the seats are those of the latest round whose draw is public
(`matches.public.visibility`), the results and ranks those the public may read.
"""

from __future__ import annotations

import bisect
import copy
import re
import secrets
import threading
import time
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache

from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from matches.models import (
    Event,
    FloorPass,
    Match,
    RefereeZone,
    Registration,
    Round,
    SearchTerm,
    TableSeat,
    Union,
    UnionMember,
)
from matches.models.digest import token_digest
from matches.public import ranks as rank_rules
from matches.public import stamps, visibility
from players.models import Player

#: the longest query read (longer is refused: nothing is named that long)
MAX_QUERY = 40
#: the most entries one answer lists
MAX_RESULTS = 20
#: terms read from the index for one query (then grouped by entry)
MAX_TERMS = 200
TERM_LENGTH = 64

# weights: lower ranks first
EXACT, PINYIN, SUFFIX, CLUB = 0, 1, 2, 5

_TOKEN = re.compile(r"[A-Za-z0-9_-]+")
_SPACE = re.compile(r"[\s\-_·•.,'’()（）/]+")


class FindRefused(ValueError):
    pass


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
    SearchTerm.objects.bulk_create(rows)
    for member in union.members.select_related("player__club"):
        index_player(union.event_id, member.player)


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


# --- the current round: where everyone sits -----------------------------------------------------


def current_round(event: Event, private: bool = False) -> Round | None:
    """The latest round whose draw the public sees; `private`: the latest published one (a
    player's own page shows their seat the moment the round is published)."""
    if private:
        rounds = event.rounds.filter(state__in=visibility.VISIBLE_ROUND_STATES)
    else:
        rounds = visibility.visible_rounds(event)
    round_ = rounds.select_related("stage").order_by("-number").first()
    if round_ is not None:
        round_.event = event
    return round_


def parse_query(raw) -> str:
    if not isinstance(raw, str):
        raise FindRefused(_("请输入姓名、联邦、俱乐部、编号或拼音"))
    query = normalise(raw)
    if not query:
        raise FindRefused(_("请输入姓名、联邦、俱乐部、编号或拼音"))
    if len(raw) > MAX_QUERY or len(query) > MAX_QUERY:
        raise FindRefused(_("搜索词太长（最多 %(n)s 个字符）") % {"n": MAX_QUERY})
    return query


@dataclass
class Place:
    """Where a union or a player sits in a round."""

    round: int
    table: int | None  # None: a bye
    seats: list[int] = field(default_factory=list)
    side: str = ""
    union: str = ""  # a player's union in the round
    partners: list[str] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)
    zone: str = ""

    def as_json(self) -> dict:
        return {
            "round": self.round,
            "table": self.table,
            "bye": self.table is None,
            "seats": self.seats,
            "side": self.side,
            "union": self.union,
            "partners": self.partners,
            "opponents": self.opponents,
            "zone": self.zone,
        }


@dataclass
class Hit:
    kind: str  # "union" or "player"
    id: int
    name: str
    club: str = ""
    union: str = ""
    union_id: int | None = None
    entry: int | None = None
    place: Place | None = None


def zone_name(zones: list, number: int | None) -> str:
    if number is None:
        return ""
    return next((z.name for z in zones if z.holds(number)), "")


#: The columns of a seat that `_places_from` reads, in its order.
_SEAT_COLUMNS = (
    "table_id",
    "table__number",
    "seat",
    "side",
    "player_id",
    "player__name",
    "union_id",
    "union__name",
)


def _seat_rows(seats) -> list[tuple]:
    return list(seats.values_list(*_SEAT_COLUMNS))


def places(round_: Round, union_ids, player_ids, zones=None) -> tuple[dict, dict]:
    """Where the given unions and players sit in `round_`: two dicts id -> Place."""
    if zones is None:
        zones = list(RefereeZone.objects.filter(event_id=round_.event_id))
    wanted = Q()
    if union_ids:
        wanted |= Q(union_id__in=list(union_ids))
    if player_ids:
        wanted |= Q(player_id__in=list(player_ids))
    if not wanted:
        return {}, {}
    # One read: every seat of the tables where the wanted unions and players sit.
    tables = TableSeat.objects.filter(wanted, round=round_).values("table_id")
    rows_read = _seat_rows(TableSeat.objects.filter(table_id__in=tables))
    return _places_from(round_, rows_read, union_ids, player_ids, zones)


def _places_from(
    round_: Round, rows_read, union_ids, player_ids, zones, byes=None
) -> tuple[dict, dict]:
    """`places` from the seats read (`_SEAT_COLUMNS`); `byes`: the union ids of the round's
    byes when already read (else read for the unions without a seat)."""
    seats_by_table: dict[int, list] = {}
    numbers: dict[int, int] = {}
    mine: list[tuple[int, int, int | None]] = []
    for table_id, number, seat, side, pid, pname, uid, uname in rows_read:
        numbers[table_id] = number
        seats_by_table.setdefault(table_id, []).append((seat, side, pid, pname, uid, uname or ""))
        if uid in union_ids or pid in player_ids:
            mine.append((table_id, pid, uid))
    for rows in seats_by_table.values():
        rows.sort()
    by_union: dict[int, Place] = {}
    by_player: dict[int, Place] = {}
    team = round_.event.is_team

    def place_for(table_id: int, side: str, me_player=None, me_union=None) -> Place:
        rows = seats_by_table[table_id]
        number = numbers[table_id]
        place = Place(round=round_.number, table=number, side=side, zone=zone_name(zones, number))
        others = [r for r in rows if (r[1] != side if side else r[2] != me_player)]
        if side and team:
            place.opponents = list(dict.fromkeys(r[5] for r in others if r[5]))
        else:
            place.opponents = [r[3] for r in others]
        if me_union is not None:
            place.seats = [r[0] for r in rows if r[4] == me_union]
        return place

    for table_id, pid, uid in mine:
        if uid is not None and uid in union_ids and uid not in by_union:
            side = next(r[1] for r in seats_by_table[table_id] if r[4] == uid)
            by_union[uid] = place_for(table_id, side, me_union=uid)
        if pid in player_ids:
            row = next(r for r in seats_by_table[table_id] if r[2] == pid)
            place = place_for(table_id, row[1], me_player=pid)
            place.seats = [row[0]]
            place.union = row[5]
            place.partners = [
                r[3] for r in seats_by_table[table_id] if row[1] and r[1] == row[1] and r[2] != pid
            ]
            by_player[pid] = place
    # Byes: a union side without a table.
    missing = [u for u in union_ids if u not in by_union]
    if missing and byes is None:
        byes = Match.objects.filter(
            round=round_, table__isnull=True, sides__union_id__in=missing
        ).values_list("sides__union_id", flat=True)
    for uid in byes or ():
        if uid in union_ids and uid not in by_union:
            by_union[uid] = Place(round=round_.number, table=None)
    return by_union, by_player


# --- the search: an index per event and find version, in each process -----------------------------
#
# A festival's searches come a hundred a second while the answers change a few times a day (a
# round published, an entry renamed). So each process keeps, for the events searched most
# recently, every search term and every entry's answer (its names and where it sits in the
# current public round), read at once (a few reads, about a second at festival size) and kept
# while the event's find counter (`stamps.find_version`) stays the same: a search is then one
# cache read and a binary search.
#
# Reading an index is costly, so nobody may make a process read one for every search (search
# more events in turn than a process keeps): an index for an event the process holds none of is
# read only while the process's reading allowance lasts (`BUILD_SHARE` of its time, a burst of
# `BUILD_BURST` seconds); beyond it the search is answered from the database (the cold path:
# one indexed prefix read of the terms and a few reads of the hits, a few milliseconds). An
# index whose counter moved is read anew at once: only the organisers move counters.

#: the events whose index a process keeps (each a few MB at festival size)
INDEX_EVENTS = 8
#: the share of a process's time that reading indexes of events it holds none of may take
BUILD_SHARE = 0.05
#: ... and the seconds of it that may be spent at once (a process that starts, a new event)
BUILD_BURST = 2.0


class _Index:
    """One event's search terms (sorted) and every entry's answer, as of one find version."""

    def __init__(self, event: Event, version: str):
        self.version = version
        #: what callers derive from this version's answers (a view's rendered hits), dropped
        #: with it
        self.memo: dict = {}
        self.round = current_round(event)
        terms = list(
            SearchTerm.objects.filter(event=event)
            .order_by("term", "weight", "union_id", "player_id")
            .values_list("term", "weight", "union_id", "player_id")
        )
        self.terms = [t[0] for t in terms]
        self.refs = [(w, ("union", u) if u else ("player", p)) for _t, w, u, p in terms]
        union_ids = {i for _w, (k, i) in self.refs if k == "union"}
        player_ids = {i for _w, (k, i) in self.refs if k == "player"}
        self.hits = _hits(event, union_ids, player_ids, everyone=True)
        if self.round is not None and self.hits:
            zones = list(RefereeZone.objects.filter(event_id=event.pk))
            rows_read = _seat_rows(TableSeat.objects.filter(round=self.round))
            byes = Match.objects.filter(round=self.round, table__isnull=True).values_list(
                "sides__union_id", flat=True
            )
            by_union, by_player = _places_from(
                self.round, rows_read, union_ids, player_ids, zones, byes=list(byes)
            )
            for (kind, pk), hit in self.hits.items():
                hit.place = (by_union if kind == "union" else by_player).get(pk)

    def search(self, query: str) -> list[Hit]:
        start = bisect.bisect_left(self.terms, query)
        found = []
        for k in range(start, min(start + MAX_TERMS, len(self.terms))):
            term = self.terms[k]
            if not term.startswith(query):
                break
            found.append((self.refs[k][0], term, self.refs[k][1]))
        # Copies: a view may mark its hits (their card's address).
        return [copy.copy(self.hits[k]) for k in _ranked(query, found) if k in self.hits]


def _ranked(query: str, found: list) -> list[tuple[str, int]]:
    """The entries of the terms found (weight, term, (kind, id)), best first, at most
    `MAX_RESULTS`."""
    found.sort(key=lambda t: (t[0], t[1] != query, len(t[1])))
    keys: list[tuple[str, int]] = []
    for _w, _t, key in found:
        if key not in keys:
            keys.append(key)
        if len(keys) >= MAX_RESULTS:
            break
    return keys


def _search_cold(event: Event, query: str) -> tuple[Round | None, list[Hit]]:
    """The search without an index: the terms read by their prefix, then the hits found."""
    rows = (
        SearchTerm.objects.filter(event=event, term__startswith=query)
        .order_by("term", "weight", "union_id", "player_id")
        .values_list("term", "weight", "union_id", "player_id")[:MAX_TERMS]
    )
    found = [(w, t, ("union", u) if u else ("player", p)) for t, w, u, p in rows]
    keys = _ranked(query, found)
    union_ids = {pk for kind, pk in keys if kind == "union"}
    player_ids = {pk for kind, pk in keys if kind == "player"}
    hits = _hits(event, union_ids, player_ids)
    round_ = current_round(event)
    if round_ is not None and hits:
        by_union, by_player = places(round_, union_ids, player_ids)
        for (kind, pk), hit in hits.items():
            hit.place = (by_union if kind == "union" else by_player).get(pk)
    return round_, [hits[k] for k in keys if k in hits]


_indexes: OrderedDict[int, _Index] = OrderedDict()
_index_lock = threading.Lock()
_allowance = {"seconds": BUILD_BURST, "at": time.monotonic()}


def _may_read_new_index() -> bool:
    now = time.monotonic()
    left = _allowance["seconds"] + (now - _allowance["at"]) * BUILD_SHARE
    _allowance["seconds"], _allowance["at"] = min(BUILD_BURST, left), now
    return _allowance["seconds"] > 0


def find_version(event: Event) -> str:
    """What a search's answer depends on: the event's find counter and its own public settings
    as this request read them (a change to those is seen at once, even one that bypassed
    `save()`)."""
    return f"{stamps.find_version(event.pk)}:{event.published}:{visibility.release_stamp(event)}"


def _index(event: Event, version: str) -> _Index | None:
    """The event's index at `version`, read now if need be; None: answer from the database."""
    index = _indexes.get(event.pk)
    if index is not None and index.version == version:
        return index
    with _index_lock:  # one read per process at a time; the others wait for it
        index = _indexes.get(event.pk)
        if index is None or index.version != version:
            if index is None and not _may_read_new_index():
                return None
            started = time.monotonic()
            index = _Index(event, version)
            _allowance["seconds"] -= time.monotonic() - started
            _indexes[event.pk] = index
        _indexes.move_to_end(event.pk)
        while len(_indexes) > INDEX_EVENTS:
            _indexes.popitem(last=False)
    return index


def _hits(event: Event, union_ids, player_ids, everyone: bool = False) -> dict:
    """The hits (names, clubs, entry numbers) of the given unions and players; `everyone`: of
    all the event's unions and players (then filtered), a few reads without a list of ids."""
    hits: dict[tuple[str, int], Hit] = {}
    if union_ids:
        unions = Union.objects.filter(event=event)
        if not everyone:
            unions = unions.filter(pk__in=list(union_ids))
        for pk, name, club, seed in unions.values_list(
            "pk", "name", "club__name", "registrations__seed"
        ):
            if pk in union_ids:
                hits[("union", pk)] = Hit("union", pk, name, club or "", entry=seed)
    if not player_ids:
        return hits
    # Three plain reads joined here: one statement joining them all is planned badly at
    # festival size (seconds).
    if everyone:
        players = Player.objects.filter(
            pk__in=SearchTerm.objects.filter(event=event, player__isnull=False).values("player_id")
        )
        seeds = Registration.objects.filter(event=event, player__isnull=False)
        members = UnionMember.objects.filter(event=event, round__isnull=True)
    else:
        wanted = list(player_ids)
        players = Player.objects.filter(pk__in=wanted)
        seeds = Registration.objects.filter(event=event, player_id__in=wanted)
        members = UnionMember.objects.filter(event=event, round__isnull=True, player_id__in=wanted)
    entry_of = dict(seeds.values_list("player_id", "seed"))
    union_of = {
        pid: (uid, name)
        for pid, uid, name in members.order_by("pk").values_list(
            "player_id", "union_id", "union__name"
        )
    }
    for pk, name, name_zh, club in players.values_list("pk", "name", "name_zh", "club__name"):
        if pk not in player_ids:
            continue
        member_of, union_name = union_of.get(pk, (None, None))
        shown = f"{name} ({name_zh})" if name_zh and name_zh != name else name
        hits[("player", pk)] = Hit(
            "player",
            pk,
            shown,
            club or "",
            union=union_name or "",
            union_id=member_of,
            entry=entry_of.get(pk),
        )
    return hits


@dataclass
class Found:
    round: Round | None
    hits: list[Hit]
    #: per find version: a caller's own cache of what it makes of these answers
    memo: dict
    #: the find version the answer is of (`find_version`)
    version: str = ""


def lookup(event: Event, query: str) -> Found:
    """The entries `query` (already `parse_query`d) finds and where they sit now: from the
    event's index, read anew when its find version moves, or from the database while this
    process may not read a new index."""
    version = find_version(event)
    index = _index(event, version)
    if index is None:
        round_, hits = _search_cold(event, query)
        return Found(round_, hits, {}, version)
    return Found(index.round, index.search(query), index.memo, version)


def search(event: Event, query: str) -> tuple[Round | None, list[Hit]]:
    found = lookup(event, query)
    return found.round, found.hits


# --- the entry card: every round -----------------------------------------------------------------


@dataclass
class CardRow:
    round: int
    place: Place | None
    result: str = ""  # "3 : 0 (+42)" once the public may read it
    points: int | None = None
    rank: str = ""  # "3", "=3" (shared), "" (no result yet)
    of: int | None = None


def card(event: Event, union: Union | None = None, player: Player | None = None) -> list[CardRow]:
    """A union's or a player's rounds: table, seats, opponents, result and running rank, each
    only as far as the public may read it."""
    rounds = list(visibility.visible_rounds(event))
    zones = list(RefereeZone.objects.filter(event=event))
    kind = "unions" if union is not None else "players"
    ranks = {}
    for snapshot in visibility.visible_snapshots(event, kind):
        key = "union" if union is not None else "player"
        me = union.pk if union is not None else player.pk  # type: ignore[union-attr]
        row = next((r for r in snapshot.rows if r.get(key) == me), None)
        # No rank before the entry's first result ("1/180" before a game said nothing true);
        # a shared rank is marked "=" (`matches.public.ranks`).
        if row and rank_rules.has_result(row):
            ranks[snapshot.round_id] = (
                rank_rules.label(row, rank_rules.shared(snapshot.rows)),
                len(snapshot.rows),
            )
    rows = []
    for round_ in rounds:
        round_.event = event
        u_ids = {union.pk} if union is not None else set()
        p_ids = {player.pk} if player is not None else set()
        by_union, by_player = places(round_, u_ids, p_ids, zones)
        place = by_union.get(union.pk) if union is not None else by_player.get(player.pk)  # type: ignore[union-attr]
        row = CardRow(round=round_.number, place=place)
        if place is not None and visibility.results_visible(round_):
            row.result, row.points = _result(round_, place, union, player)
        if round_.pk in ranks:
            row.rank, row.of = ranks[round_.pk]
        rows.append(row)
    return rows


def _result(round_: Round, place: Place, union, player) -> tuple[str, int | None]:
    """The match's result from this side: "score : score" and match points."""
    if place.table is None:
        return _("轮空"), round_.event.points_bye
    match = Match.objects.filter(round=round_, table__number=place.table).first()
    if match is None or not match.is_complete or not place.side:
        return "", None
    mine, theirs = (
        (match.score_a, match.score_b) if place.side == "A" else (match.score_b, match.score_a)
    )
    points = match.points_a if place.side == "A" else match.points_b
    if mine is None or theirs is None:
        return "", points
    return f"{mine} : {theirs}", points


# --- my page: the private pass --------------------------------------------------------------------


def pass_token(event: Event, union: Union | None = None, player: Player | None = None) -> str:
    """The token of a union's or a player's own page, made on first use."""
    existing = FloorPass.objects.filter(event=event, union=union, player=player).first()
    if existing:
        return existing.token
    try:
        with transaction.atomic():
            return FloorPass.objects.create(
                event=event, union=union, player=player, token=secrets.token_urlsafe(18)
            ).token
    except IntegrityError:  # made at the same moment by another request
        return FloorPass.objects.get(event=event, union=union, player=player).token


def ensure_passes(event: Event) -> None:
    """Make every missing pass of an event at once (the badge sheet)."""
    have_u = set(
        FloorPass.objects.filter(event=event, union__isnull=False).values_list(
            "union_id", flat=True
        )
    )
    have_p = set(
        FloorPass.objects.filter(event=event, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )
    new = []
    for union_id, player_id in event.registrations.values_list("union_id", "player_id"):
        if union_id and union_id not in have_u:
            new.append(_new_pass(event, union_id=union_id))
        if player_id and player_id not in have_p:
            new.append(_new_pass(event, player_id=player_id))
    for player_id in UnionMember.objects.filter(
        event=event, round__isnull=True, union__registrations__isnull=False
    ).values_list("player_id", flat=True):
        if player_id not in have_p:
            new.append(_new_pass(event, player_id=player_id))
    FloorPass.objects.bulk_create(new, batch_size=2000, ignore_conflicts=True)


def _new_pass(event, **owner) -> FloorPass:
    token = secrets.token_urlsafe(18)
    return FloorPass(event=event, token=token, token_digest=token_digest(token), **owner)


def pass_owner(token: str) -> FloorPass | None:
    if not token or len(token) > 64 or not _TOKEN.fullmatch(token):
        return None
    return (
        FloorPass.objects.select_related("event", "union__club", "player__club")
        .filter(token_digest=token_digest(token))
        .first()
    )


def entry_of(floor_pass: FloorPass) -> Registration | None:
    """The registration a pass may check in: the union's (team) or the player's (individual)."""
    if floor_pass.union_id:
        return Registration.objects.filter(event=floor_pass.event, union=floor_pass.union).first()
    return Registration.objects.filter(event=floor_pass.event, player=floor_pass.player).first()
