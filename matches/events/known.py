"""Known players in an import or a paste (one person across events: players/identity.py): who
each typed player already is, looked up for the whole sheet at once, and where each record
comes from, so that the organiser can tell a namesake from the person.

A sheet of 5,000 unions names 15,000 players; asked one by one that was about 40,000 queries.
Here it is a few queries for the sheet: every club read once, the typed names in chunks, the
records' events in chunks.

A record is the organiser's own when every event it played is theirs: the preview ticks it.
Any other record (another organiser's players in a public event) is offered unticked, named
with its events and their organisers: a common name and a club alone do not make two people
one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Q

from matches.events.registration import union_size
from matches.models import Event, Registration, TableSeat, UnionMember
from players import clubs
from players.identity import CHUNK, NEW_CLUB, Wanted, find_many
from players.models import Club, Player


@dataclass
class Source:
    """Where a known record comes from: the events it played that the organiser may see (each
    with its organisers' names), and whether they are all the organiser's own."""

    own: bool
    events: list[dict] = field(default_factory=list)  # {"name", "organisers"}


def orders(event: Event) -> range:
    """The player columns of a row: a union's players, or one player."""
    return range(1, union_size(event) + 1) if event.is_team else range(1, 2)


def wanted(row: dict, order: int, club: Club | None) -> Wanted:
    """Who a row's player is typed as: name, club (`NEW_CLUB`: typed, not on record), number."""
    typed_club = (row.get("club") or "").strip()
    club_id = club.pk if club is not None else (NEW_CLUB if typed_club else None)
    return (
        (row.get(f"player{order}") or "").strip(),
        club_id,
        (row.get(f"member{order}") or "").strip(),
    )


def lookup(event: Event, rows: list[dict], among, club_of: dict[str, Club | None]):
    """Every row's typed players against the records `among` allows: {wanted: Player}."""
    keys = [
        wanted(row, order, club_of.get((row.get("club") or "").strip()))
        for row in rows
        for order in orders(event)
    ]
    return find_many(keys, among=among)


def events_of(player_ids) -> dict[int, set[int]]:
    """The events each player played in (a union, an entry, a seat), in chunks."""
    played: dict[int, set[int]] = {pk: set() for pk in player_ids}
    ids = sorted(played)
    for k in range(0, len(ids), CHUNK):
        chunk = ids[k : k + CHUNK]
        for model, column in (
            (UnionMember, "event_id"),
            (Registration, "event_id"),
            (TableSeat, "round__event_id"),
        ):
            for player_id, event_id in model.objects.filter(player_id__in=chunk).values_list(
                "player_id", column
            ):
                played[player_id].add(event_id)
    return played


def own_events(event: Event, user=None):
    """The events whose players this organiser owns: the ones they organise (`user`), or, when
    the service is called without one, the ones any organiser of `event` runs."""
    if user is not None and user.is_superuser:
        return Event.objects.all()
    if user is not None:
        return Event.objects.filter(organisers=user)
    return Event.objects.filter(organisers__in=event.organisers.all()).distinct()


def sources(records, event: Event, user=None) -> dict[int, Source]:
    """Where each record comes from, as this organiser may see it (their own events and public
    ones; the event being entered is left out)."""
    played = events_of([p.pk for p in records])
    every = set().union(*played.values()) - {event.pk} if played else set()
    own = set(own_events(event, user).filter(pk__in=every).values_list("pk", flat=True))
    visible = Event.objects.filter(Q(pk__in=own) | Q(pk__in=every, published=True))
    names = dict(visible.values_list("pk", "name"))
    organisers: dict[int, list[str]] = {}
    for event_id, username in (
        Event.organisers.through.objects.filter(event_id__in=names)
        .order_by("user__username")
        .values_list("event_id", "user__username")
    ):
        organisers.setdefault(event_id, []).append(username)
    found = {}
    for pk, events in played.items():
        events = events - {event.pk}
        found[pk] = Source(
            own=bool(events) and events <= own,
            events=[
                {"name": names[e], "organisers": "、".join(organisers.get(e, []))}
                for e in sorted(events, key=lambda e: names.get(e, ""))
                if e in names
            ],
        )
    return found


def known_rows(event: Event, rows: list[dict], taken: set[int], among, user=None) -> list[list]:
    """Per row, its known players for the preview: each with a box to tick (ticked when the
    record is the organiser's own) and where it comes from. A known player already in the
    event, or earlier in the sheet, is a namesake: not offered (a new record)."""
    club_of = clubs.same_clubs(row.get("club", "") for row in rows)
    found = lookup(event, rows, among, club_of)
    where = sources(list({p.pk: p for p in found.values()}.values()), event, user)
    known = []
    for row in rows:
        club = club_of.get((row.get("club") or "").strip())
        offered = []
        for order in orders(event):
            key = wanted(row, order, club)
            record: Player | None = found.get(key)
            if record is None or record.pk in taken:
                continue
            taken.add(record.pk)
            source = where[record.pk]
            offered.append(
                {
                    "name": key[0],
                    "id": record.pk,
                    "club": record.club.name if record.club else "",
                    "own": source.own,
                    "events": source.events,
                }
            )
        known.append(offered)
    return known
