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


#: Names or ids a query carries at most (SQLite allows 32,766 parameters; two lists of these).
CHUNK = 2000

#: Who a typed player is: (name, the club's id or None, member number), the name and member
#: number stripped. A club typed but not on record is `NEW_CLUB`: no known record can match.
Wanted = tuple[str, int | None, str]
NEW_CLUB = -1


def _chunks(items: list, size: int = CHUNK):
    for k in range(0, len(items), size):
        yield items[k : k + size]


def find_many(wanted, *, among: QuerySet | None = None) -> dict[Wanted, Player]:
    """`find_existing` for many typed players at once (an import's, a paste's): a few queries
    for all of them instead of one or two each. Only the keys with a record found are in the
    answer; the rule is `find_existing`'s (member number first, else exactly one record of
    that name and club, among the records `among` allows)."""
    keys = set(wanted)
    numbers = sorted({m for _n, _c, m in keys if m})
    by_number: dict[str, int] = {}
    for chunk in _chunks(numbers):
        scope = Player.objects.all() if among is None else among
        found = scope.filter(member_number__in=chunk).order_by("pk")
        for pk, number in found.values_list("pk", "member_number"):
            by_number.setdefault(number, pk)
    names = sorted({n for n, _c, _m in keys if n})
    by_name: dict[tuple[str, int | None], list[int]] = {}
    for chunk in _chunks(names, CHUNK // 2):
        rows = Player.objects.filter(Q(name__in=chunk) | Q(name_zh__in=chunk)).order_by("pk")
        for pk, name, name_zh, club_id in rows.values_list("pk", "name", "name_zh", "club_id"):
            for said in {name, name_zh} - {""}:
                by_name.setdefault((said, club_id), []).append(pk)
    if among is not None:
        # Which of the namesakes are the organiser's to match, asked once for all of them.
        seen = sorted({pk for pks in by_name.values() for pk in pks})
        allowed: set[int] = set()
        for chunk in _chunks(seen):
            allowed |= set(among.filter(pk__in=chunk).values_list("pk", flat=True))
        by_name = {k: [pk for pk in pks if pk in allowed] for k, pks in by_name.items()}
    chosen: dict[Wanted, int] = {}
    for key in keys:
        name, club_id, number = key
        if number and number in by_number:
            chosen[key] = by_number[number]
        elif name and club_id != NEW_CLUB:
            fits = by_name.get((name, club_id), [])
            if len(fits) == 1:
                chosen[key] = fits[0]
    players = Player.objects.select_related("club").in_bulk(sorted(set(chosen.values())))
    return {key: players[pk] for key, pk in chosen.items()}


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
