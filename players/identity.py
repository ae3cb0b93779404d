"""One person across events: the known player a new entry is. Registration (matches/events/
entries.py) and the import (matches/events/importing.py) ask it before making a new record;
the import's preview says which names it found. Merging and splitting records: seasons/."""

from __future__ import annotations

from django.db.models import Q

from players.models import Club, Player


def find_existing(
    name: str, club: Club | str | None = None, member_number: str = ""
) -> Player | None:
    """By member number first; else by name (or Chinese name) and club, when exactly one
    record fits (two namesakes of one club: a new record, the organiser merges later)."""
    member_number = (member_number or "").strip()
    if member_number:
        numbered = Player.objects.filter(member_number=member_number).first()
        if numbered:
            return numbered
    name = (name or "").strip()
    if not name:
        return None
    same = Player.objects.filter(Q(name=name) | Q(name_zh=name))
    if isinstance(club, Club):
        same = same.filter(club=club)
    elif club and club.strip():
        same = same.filter(club__name=club.strip())
    else:
        same = same.filter(club__isnull=True)
    found = list(same.order_by("pk")[:2])
    return found[0] if len(found) == 1 else None


def find_or_create(
    name: str, club: Club | None, member_number: str = "", taken: set[int] | None = None
) -> Player:
    """The known player, or a new record. `taken`: players already in the event (or earlier
    in the same import): a namesake there is another person, so a new record is made (and
    its id added to `taken`)."""
    found = find_existing(name, club, member_number)
    if found is not None and taken is not None and found.pk in taken:
        found = None
    if found is not None:
        if taken is not None:
            taken.add(found.pk)
        if member_number and not found.member_number:
            found.member_number = member_number.strip()
            found.save(update_fields=["member_number"])
        return found
    made = Player.objects.create(
        name=name.strip(), club=club, member_number=(member_number or "").strip()
    )
    if taken is not None:
        taken.add(made.pk)
    return made
