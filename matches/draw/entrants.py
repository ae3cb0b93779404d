"""Who plays a round, as the draw reads it from the rows: the entries checked in for it (a
check-in made for an earlier round counts unless a later round started check-in afresh,
`CheckInRound.carry_over`), in seed order, and the entries a draft's redraw takes in.

Check-in itself (`matches/events/checkin.py`) writes these rows and asks these reads too; the
draw never imports the events' services."""

from __future__ import annotations

from django.db.models import F, Max, Q

from matches.models import CheckInRound, Event, Registration, Stage, TableSeat
from matches.models.fees import held_out_q


def fresh_from(event: Event, round_number: int) -> int | None:
    """The latest round up to `round_number` that starts check-in afresh (None: every check-in
    counts)."""
    return CheckInRound.objects.filter(
        event=event, number__lte=round_number, carry_over=False
    ).aggregate(n=Max("number"))["n"]


def present_q(event: Event, round_number: int) -> Q:
    """Registrations checked in for `round_number` (as the draw will count them)."""
    q = Q(status=Registration.Status.CHECKED_IN)
    fresh = fresh_from(event, round_number)
    if fresh is not None:
        q &= Q(checked_in_round__isnull=True) | Q(checked_in_round__gte=fresh)
    return q


def active_registrations(event: Event, round_number: int) -> list[Registration]:
    # Seeded entries first, in seed order (NULLs last on every database), then by entry order.
    # An entry that owes its fee stays out when the organiser holds unpaid entries out.
    registrations = (
        event.registrations.exclude(held_out_q(event))
        .select_related("union", "player")
        .order_by(F("seed").asc(nulls_last=True), "id")
    )
    fresh = fresh_from(event, round_number)
    return [r for r in registrations if r.plays_in(round_number, event.check_in_required, fresh)]


def in_seed_order(registrations):
    return registrations.select_related("union", "player").order_by(*Registration.SEED_ORDER)


def missing_from_draft(round_) -> list[Registration]:
    """Entries that would play the draft `round_` (checked in for it, or check-in not required;
    registered before it or while it is a draft) but are not in its draw, in seed order."""
    event, number = round_.event, round_.number
    if not round_.is_draft or (event.is_team and round_.stage.format != Stage.Format.SWISS):
        return []  # a round robin or a knockout draws its own field, not everyone here
    here = event.registrations.filter(
        Q(joins_round__lte=number + 1)
        & (~Q(status=Registration.Status.WITHDRAWN) | Q(withdrawn_after__gte=number))
    )
    if event.check_in_required:
        here = here.filter(present_q(event, number))
    here = here.exclude(held_out_q(event))
    if event.is_team:
        here = here.exclude(union_id__in=round_.sides.exclude(union=None).values("union_id"))
    else:
        seated = TableSeat.objects.filter(round=round_).values("player_id")
        here = here.exclude(player_id__in=seated).exclude(
            player_id__in=round_.quality.get("sitting_out", [])
        )
    return list(in_seed_order(here))


def admit_to_draft(round_) -> list[int]:
    """Before a redraw: entries that arrived while `round_` was a draft join it. Returns the
    registration ids whose first round moved to this one."""
    late = [r.pk for r in missing_from_draft(round_) if r.joins_round > round_.number]
    Registration.objects.filter(pk__in=late).update(joins_round=round_.number)
    return late
