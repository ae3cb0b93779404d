"""Find my table: search an event's unions and players (by the terms `matches.public.find_terms`
writes) and answer where each sits in the current round (`matches.public.seats`).

Only published data: the seats are those of the latest round whose draw is public
(`matches.public.visibility`). The entry card is `matches.public.entry_card`, the private
pages' passes `matches.public.floor_passes`.
"""

from __future__ import annotations

import bisect
import copy
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

from django.utils.translation import gettext as _

from matches.models import (
    Event,
    Match,
    RefereeZone,
    Registration,
    Round,
    SearchTerm,
    TableSeat,
    Union,
    UnionMember,
)
from matches.public import stamps, visibility
from matches.public.find_terms import normalise
from matches.public.seats import Place, current_round, places, places_from, seat_rows
from players.models import Player

#: the longest query read (longer is refused: nothing is named that long)
MAX_QUERY = 40
#: the most entries one answer lists
MAX_RESULTS = 20
#: terms read from the index for one query (then grouped by entry)
MAX_TERMS = 200


class FindRefused(ValueError):
    pass


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
class Hit:
    kind: str  # "union" or "player"
    id: int
    name: str
    club: str = ""
    union: str = ""
    union_id: int | None = None
    entry: int | None = None
    place: Place | None = None


@dataclass
class Found:
    round: Round | None
    hits: list[Hit]
    #: per find version: a caller's own cache of what it makes of these answers
    memo: dict
    #: the find version the answer is of (`find_version`)
    version: str = ""


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
            rows_read = seat_rows(TableSeat.objects.filter(round=self.round))
            byes = Match.objects.filter(round=self.round, table__isnull=True).values_list(
                "sides__union_id", flat=True
            )
            by_union, by_player = places_from(
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
