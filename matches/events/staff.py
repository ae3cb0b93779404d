"""Per-event staff: invite assistants and referees by link or one-time code, accept, revoke."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.events import zones as zone_service
from matches.models import (
    Event,
    EventStaff,
    RefereeTable,
    RefereeZone,
    StaffInvitation,
    StaffRole,
)
from matches.models.staff import CODE_ALPHABET


class StaffRefused(Exception):
    pass


def _placement(
    event: Event, role: str, zone: RefereeZone | None, tables: str
) -> tuple[RefereeZone | None, str]:
    """The zone and the single tables an invitation carries, checked: a referee's only, the
    event's own zone, table numbers as the zones page takes them (stored normalised)."""
    try:
        numbers = zone_service.parse_tables(tables)
    except zone_service.ZoneError as error:
        raise StaffRefused(str(error)) from error
    if (zone is not None or numbers) and role != StaffRole.REFEREE:
        raise StaffRefused(_("只有裁判的邀请可以指定区域或桌号"))
    if zone is not None and zone.event_id != event.pk:
        raise StaffRefused(_("区域不属于本赛事"))
    return zone, zone_service.compress(numbers)


def invite(
    event: Event,
    role: str,
    *,
    by=None,
    note: str = "",
    zone: RefereeZone | None = None,
    tables: str = "",
) -> StaffInvitation:
    if role not in StaffRole.values:
        raise StaffRefused(_("未知的角色"))
    zone, tables = _placement(event, role, zone, tables)
    for _attempt in range(5):  # codes are short: a clash is possible, try again
        try:
            with transaction.atomic():
                return StaffInvitation.objects.create(
                    event=event,
                    role=role,
                    created_by=by,
                    note=note[:120],
                    zone=zone,
                    tables=tables,
                )
        except IntegrityError:
            continue
    raise StaffRefused(_("暂时无法生成邀请码，请重试"))  # pragma: no cover


def signed_up_through(invitation: StaffInvitation) -> EventStaff | None:
    """The active staff member who took this invitation (None: open, revoked, or their role
    was taken back or replaced since)."""
    if invitation.used_by_id is None:
        return None
    return EventStaff.objects.filter(
        event_id=invitation.event_id,
        user_id=invitation.used_by_id,
        invitation=invitation,
        revoked_at__isnull=True,
    ).first()


def _place(invitation: StaffInvitation, user, old_zone_id=None, old_tables: str = "") -> None:
    """Give `user` the invitation's zone and tables; on an edit, take back what the invitation
    gave before and no longer gives (what the zones page gave by hand stays)."""
    event = invitation.event
    if old_zone_id and old_zone_id != invitation.zone_id:
        zone = RefereeZone.objects.filter(pk=old_zone_id, event=event).first()
        if zone is not None:
            zone.referees.remove(user)
    if invitation.zone_id:
        invitation.zone.referees.add(user)  # type: ignore[union-attr]
    numbers = zone_service.parse_tables(invitation.tables)
    dropped = set(zone_service.parse_tables(old_tables)) - set(numbers)
    if dropped:
        RefereeTable.objects.filter(event=event, referee=user, number__in=dropped).delete()
    RefereeTable.objects.bulk_create(
        [RefereeTable(event=event, referee=user, number=n) for n in numbers],
        ignore_conflicts=True,
    )


@transaction.atomic
def edit_invitation(
    invitation: StaffInvitation, *, note: str, zone: RefereeZone | None, tables: str
) -> EventStaff | None:
    """Change an invitation's note, zone and tables. An open one carries them to whoever signs
    up; a used one moves its referee at once. Returns that referee's staff row (or None)."""
    invitation = StaffInvitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.revoked_at is not None:
        raise StaffRefused(_("邀请已作废"))
    zone, tables = _placement(invitation.event, invitation.role, zone, tables)
    old_zone_id, old_tables = invitation.zone_id, invitation.tables
    invitation.note, invitation.zone, invitation.tables = note[:120], zone, tables
    invitation.save(update_fields=["note", "zone", "tables"])
    member = signed_up_through(invitation)
    if member is not None and member.role == StaffRole.REFEREE:
        _place(invitation, member.user, old_zone_id, old_tables)
    return member


def normalise_code(code: str | None) -> str:
    return "".join(c for c in (code or "").upper() if c in CODE_ALPHABET)


def find_invitation(*, token: str | None = None, code: str | None = None) -> StaffInvitation:
    """The open invitation for a link token or a typed code; refused when used, revoked or
    unknown (one message for all three, so guessing learns nothing)."""
    if token:
        invitation = StaffInvitation.objects.filter(token=token).select_related("event").first()
    else:
        invitation = (
            StaffInvitation.objects.filter(code=normalise_code(code))
            .select_related("event")
            .first()
        )
    if invitation is None or not invitation.is_open:
        raise StaffRefused(_("邀请无效：已被使用、已收回或不存在。请向组织者索取新的邀请。"))
    return invitation


@transaction.atomic
def accept(invitation: StaffInvitation, user) -> EventStaff:
    invitation = StaffInvitation.objects.select_for_update().get(pk=invitation.pk)
    if not invitation.is_open:
        raise StaffRefused(_("邀请无效：已被使用、已收回或不存在。请向组织者索取新的邀请。"))
    event = invitation.event
    if event.organisers.filter(pk=user.pk).exists():
        raise StaffRefused(_("你已是本赛事的组织者"))
    now = timezone.now()
    EventStaff.objects.filter(event=event, user=user, revoked_at__isnull=True).update(
        revoked_at=now
    )  # a new role replaces the old one
    staff = EventStaff.objects.create(
        event=event, user=user, role=invitation.role, invitation=invitation, added_at=now
    )
    invitation.used_by, invitation.used_at = user, now
    invitation.save(update_fields=["used_by", "used_at"])
    if staff.role == StaffRole.REFEREE:
        _place(invitation, user)  # the referee lands where the invitation says
    return staff


def revoke_staff(staff: EventStaff) -> None:
    if staff.revoked_at is None:
        staff.revoked_at = timezone.now()
        staff.save(update_fields=["revoked_at"])


def revoke_invitation(invitation: StaffInvitation) -> None:
    if invitation.revoked_at is None and invitation.used_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
