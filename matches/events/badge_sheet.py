"""The badge sheet's entries (docs/floor.md): every entry of an event in the order its badges
print, as entered, grouped by club or grouped by table. The sheet itself (the passes' QR codes,
the cards, the headings) is the page's: `matches/views/find.py`."""

from __future__ import annotations

from django.db.models import Case, F, OuterRef, QuerySet, Subquery, Value, When
from django.db.models.functions import Coalesce

from matches.models import Event, Registration, Round, TableSeat

#: The badge sheet's orders: as entered (seed), grouped by club, grouped by table.
BADGE_ORDERS = ("seed", "club", "table")


def badge_entries(event: Event, order: str) -> tuple[QuerySet[Registration], Round | None]:
    """The event's entries in the sheet's order, and the round whose tables `table` follows.
    By club: the union's club (or the player's), clubless last. By table: the table of the
    newest round not closed (published before a draft), byes and unseated last."""
    entries = event.registrations.select_related("union__club", "player__club")
    seating = None
    if order == "club":
        entries = entries.annotate(
            club_name=Coalesce(F("union__club__name"), F("player__club__name"), Value(""))
        ).order_by(
            Case(When(club_name="", then=Value(1)), default=Value(0)),
            "club_name",
            *Registration.SEED_ORDER,
        )
    elif order == "table":
        seating = (
            event.rounds.exclude(state=Round.State.CLOSED)
            .order_by(
                Case(When(state=Round.State.PUBLISHED, then=Value(0)), default=Value(1)), "-number"
            )
            .first()
        )
        seats = TableSeat.objects.filter(round=seating).order_by("table__number")
        entries = entries.annotate(
            table_no=Coalesce(
                Subquery(seats.filter(union=OuterRef("union")).values("table__number")[:1]),
                Subquery(seats.filter(player=OuterRef("player")).values("table__number")[:1]),
            )
        ).order_by(F("table_no").asc(nulls_last=True), *Registration.SEED_ORDER)
    else:
        entries = entries.order_by(*Registration.SEED_ORDER)
    return entries, seating
