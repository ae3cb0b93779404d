"""One person across events: the known player a new entry is. Registration (matches/events/
entries.py) and the import (matches/events/importing.py) ask it before making a new record;
the form and the import's preview name each record found, and only the ones the organiser
confirms are linked. Merging and splitting records: seasons/.

Who may change a record (docs/security.md, "Who owns a person"): matching looks only at the
records the organiser may see (`among`: players of their own events, of public events, or of
none); a found record is linked, never written to (a typed member number stays the organiser's
typing, not the record's).
"""

from __future__ import annotations

from django.db.models import Q, QuerySet

from players.models import Club, Player


def seen_in(events: QuerySet) -> QuerySet:
    """The records an organiser may match or look up: players of `events` (a union, an entry or
    a seat there), or of no event at all. A player only in another organiser's unpublished event
    is not found: that would tell that they are entered there."""
    ids = events.values("pk")
    return Player.objects.filter(
        Q(memberships__event__in=ids)
        | Q(registrations__event__in=ids)
        | Q(seats__round__event__in=ids)
        | Q(memberships__isnull=True, registrations__isnull=True, seats__isnull=True)
    ).distinct()


def find_existing(
    name: str,
    club: Club | str | None = None,
    member_number: str = "",
    *,
    among: QuerySet | None = None,
) -> Player | None:
    """By member number first; else by name (or Chinese name) and club, when exactly one
    record fits (two namesakes of one club: a new record, the organiser merges later).
    `among`: the records the organiser may see (`seen_in`); None: every record (the admin)."""
    records = Player.objects.all() if among is None else among
    member_number = (member_number or "").strip()
    if member_number:
        numbered = records.filter(member_number=member_number).order_by("pk").first()
        if numbered:
            return numbered
    name = (name or "").strip()
    if not name:
        return None
    same = records.filter(Q(name=name) | Q(name_zh=name))
    if isinstance(club, Club):
        same = same.filter(club=club)
    elif club and club.strip():
        same = same.filter(club__name=club.strip())
    else:
        same = same.filter(club__isnull=True)
    found = list(same.order_by("pk")[:2])
    return found[0] if len(found) == 1 else None


def find_or_create(
    name: str,
    club: Club | None,
    member_number: str = "",
    taken: set[int] | None = None,
    *,
    among: QuerySet | None = None,
    confirmed: set[int] | frozenset[int] = frozenset(),
) -> Player:
    """The known player the organiser confirmed (`confirmed`: ids they ticked in the form or the
    import's preview), or a new record. `taken`: players already in the event (or earlier in
    the same import): a namesake there is another person, so a new record is made (and its id
    added to `taken`). A found record is never changed here: its member number stays its own."""
    found = find_existing(name, club, member_number, among=among)
    if found is not None and (found.pk not in confirmed or (taken and found.pk in taken)):
        found = None
    if found is not None:
        if taken is not None:
            taken.add(found.pk)
        return found
    made = Player.objects.create(
        name=name.strip(), club=club, member_number=(member_number or "").strip()
    )
    if taken is not None:
        taken.add(made.pk)
    return made
