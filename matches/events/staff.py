"""Per-event staff: invite assistants and referees by link or one-time code, accept, revoke."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from matches.models import Event, EventStaff, StaffInvitation, StaffRole
from matches.models.staff import CODE_ALPHABET


class StaffRefused(Exception):
    pass


def invite(event: Event, role: str, *, by=None, note: str = "") -> StaffInvitation:
    if role not in StaffRole.values:
        raise StaffRefused(_("未知的角色"))
    for _attempt in range(5):  # codes are short: a clash is possible, try again
        try:
            with transaction.atomic():
                return StaffInvitation.objects.create(
                    event=event, role=role, created_by=by, note=note[:120]
                )
        except IntegrityError:
            continue
    raise StaffRefused(_("暂时无法生成邀请码，请重试"))  # pragma: no cover


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
    return staff


def revoke_staff(staff: EventStaff) -> None:
    if staff.revoked_at is None:
        staff.revoked_at = timezone.now()
        staff.save(update_fields=["revoked_at"])


def revoke_invitation(invitation: StaffInvitation) -> None:
    if invitation.revoked_at is None and invitation.used_at is None:
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
