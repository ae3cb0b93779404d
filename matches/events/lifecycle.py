"""An event's life at event level: archive and restore it, delete it while it has no results,
copy its settings into a new event ("next year's cup").

Archiving keeps every row and hides the event from the organisers' list and from the public
pages; restoring shows it again. Deleting removes the event and everything under it, and is
refused once any result exists (archive it instead). A copy takes the game, the rules, the
stages, the release settings, the tie-breaks and the labels, the hall's referee zones and the
event's referees (their zones and single tables: the same hall, the same crew next year);
never entries, rounds, results, assistants or open invitations.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.draw.service import clear_round
from matches.models import (
    DealReport,
    Event,
    EventStaff,
    Match,
    RefereeTable,
    RefereeZone,
    RoundLog,
    StaffRole,
    Stage,
)

#: Event fields a copy never takes: who and when, the state of play, the wizard's token.
NOT_COPIED = {
    "id",
    "name",
    "start_date",
    "end_date",
    "rules_frozen_at",
    "concluded_at",
    "published",
    "created_at",
    "archived_at",
    "creation_token",
}
#: Stage fields a copy never takes: its event, and the confirmed break (last year's unions).
STAGE_NOT_COPIED = {"id", "event", "break_unions"}


class EventRefused(Exception):
    pass


def _log(event: Event, action: str, user) -> None:
    RoundLog.objects.create(event=event, action=action, user=user)


def archive(event: Event, *, user=None) -> Event:
    if event.archived_at is not None:
        raise EventRefused(_("赛事已归档"))
    event.archived_at = timezone.now()
    event.save(update_fields=["archived_at"])
    _log(event, RoundLog.Action.ARCHIVE, user)
    return event


def restore(event: Event, *, user=None) -> Event:
    if event.archived_at is None:
        raise EventRefused(_("赛事没有归档"))
    event.archived_at = None
    event.save(update_fields=["archived_at"])
    _log(event, RoundLog.Action.RESTORE, user)
    return event


def has_results(event: Event) -> bool:
    """Any reported deal, forfeit, stopped match or played match score in any round."""
    matches = Match.objects.filter(round__event=event)
    return (
        DealReport.objects.filter(deal__match__round__event=event).exists()
        or matches.exclude(forfeit="").exists()
        or matches.filter(stopped_after__isnull=False).exists()
        or matches.played().filter(completed_at__isnull=False).exists()
    )


@transaction.atomic
def delete(event: Event) -> str:
    """Delete an event without results; returns its name for the message."""
    if has_results(event):
        raise EventRefused(_("赛事已有成绩，不能删除；可以归档"))
    name = event.name
    # Matches and seats hold their unions with PROTECT: the rounds go first, as a draft does.
    for round_ in event.rounds.all():
        clear_round(round_)
        round_.delete()
    event.delete()
    return name


def same_name_events(user, name: str):
    """The user's own events of this name (the wizard warns before making another)."""
    name = (name or "").strip()
    if not name or not getattr(user, "is_authenticated", False):
        return Event.objects.none()
    return Event.objects.filter(organisers=user, name=name).order_by("-created_at")


@transaction.atomic
def copy_event(event: Event, *, user, name: str, start_date, end_date=None) -> Event:
    """A new event with `event`'s settings, stages, referee zones and referees, no entries and
    no results; `user` is its organiser, and it starts unpublished."""
    name = (name or "").strip()
    if not name:
        raise EventRefused(_("请填写新赛事的名称"))
    values = {
        field.attname: getattr(event, field.attname)
        for field in Event._meta.concrete_fields
        if field.name not in NOT_COPIED
    }
    copy = Event(**values, name=name, start_date=start_date, end_date=end_date)
    copy.full_clean()
    copy.save()
    copy.organisers.add(user)
    for stage in event.stages.order_by("order"):
        Stage.objects.create(
            event=copy,
            **{
                field.attname: getattr(stage, field.attname)
                for field in Stage._meta.concrete_fields
                if field.name not in STAGE_NOT_COPIED
            },
        )
    _copy_floor(event, copy)
    return copy


def _copy_floor(event: Event, copy: Event) -> None:
    """The active referees keep their role, their zones and their single tables; a referee
    whose role was revoked stays behind, and so does their place in a zone."""
    referees = list(
        EventStaff.objects.filter(
            event=event, role=StaffRole.REFEREE, revoked_at__isnull=True
        ).values_list("user_id", flat=True)
    )
    EventStaff.objects.bulk_create(
        [EventStaff(event=copy, user_id=u, role=StaffRole.REFEREE) for u in referees]
    )
    for zone in event.zones.prefetch_related("referees"):
        new = RefereeZone.objects.create(
            event=copy, name=zone.name, first_table=zone.first_table, last_table=zone.last_table
        )
        new.referees.set([r.pk for r in zone.referees.all() if r.pk in referees])
    RefereeTable.objects.bulk_create(
        [
            RefereeTable(event=copy, referee_id=t.referee_id, number=t.number)
            for t in RefereeTable.objects.filter(event=event, referee_id__in=referees)
        ]
    )
