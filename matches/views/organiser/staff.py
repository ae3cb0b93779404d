"""Staff: the organiser invites assistants and referees by a link or a one-time code, lists
them and revokes them. The invited person opens the link (or types the code), signs in or makes
an account on the spot, and takes the role for this event only."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from matches import ratelimit
from matches.events import links
from matches.events import staff as service
from matches.events.forms import CodeForm, InvitationForm, InviteForm, SignUpForm
from matches.models import EventStaff, StaffInvitation, StaffRole
from matches.views.addresses import staff_url
from matches.views.organiser.access import organised_event
from matches.views.qr import qr_svg
from matches.views.sheets import keep_private, private_table_download


def _join_url(request) -> str:
    return staff_url(request, "/manage/join/")


def _links(request, invitations, with_qr: bool) -> list[links.InvitationLink]:
    join = _join_url(request)
    rows = []
    for invitation in invitations:
        url = f"{join}{invitation.token}/"
        qr = qr_svg(url) if with_qr else ""
        rows.append(links.InvitationLink(invitation, url, qr))
    return rows


@login_required
def staff(request, event_id: int):
    event = organised_event(request, event_id)
    form = InviteForm(event, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            invitation = service.invite(
                event,
                form.cleaned_data["role"],
                by=request.user,
                note=form.cleaned_data["note"],
                zone=form.cleaned_data.get("zone"),
                tables=form.cleaned_data["tables"],
            )
        except service.StaffRefused as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(
                request,
                _("邀请已生成：把链接或邀请码 %(code)s 交给对方，只能使用一次。")
                % {"code": invitation.code},
            )
            return redirect("manage:staff", event.pk)
    members = (
        event.staff.filter(revoked_at__isnull=True)
        .select_related("user", "invitation__zone")
        .order_by("role", "added_at", "id")
    )
    return keep_private(
        render(
            request,
            "manage/staff/list.html",
            {
                "event": event,
                "form": form,
                "invitations": _links(request, links.open_invitations(event), with_qr=True),
                "members": members,
                "join_url": _join_url(request),
            },
            status=400 if form.errors else 200,
        )
    )


@login_required
@require_http_methods(["GET", "POST"])
def edit_invitation(request, event_id: int, invitation_id: int):
    """Change an invitation's note, zone and tables: an open one carries them to whoever signs
    up, a used one moves its referee at once (the zones are often set after the invitations)."""
    event = organised_event(request, event_id)
    invitation = get_object_or_404(
        StaffInvitation.objects.select_related("zone"),
        pk=invitation_id,
        event=event,
        revoked_at__isnull=True,
    )
    initial = {"note": invitation.note, "zone": invitation.zone, "tables": invitation.tables}
    form = InvitationForm(event, request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            member = service.edit_invitation(
                invitation,
                note=form.cleaned_data["note"],
                zone=form.cleaned_data.get("zone"),
                tables=form.cleaned_data["tables"],
            )
        except service.StaffRefused as refused:
            form.add_error(None, str(refused))
        else:
            if member is not None and member.role == StaffRole.REFEREE:
                messages.success(
                    request,
                    _("邀请已保存，%(user)s 的区域和桌号已随之更新")
                    % {"user": member.user.get_username()},
                )
            else:
                messages.success(request, _("邀请已保存"))
            return redirect("manage:staff", event.pk)
    return render(
        request,
        "manage/staff/edit_invitation.html",
        {
            "event": event,
            "invitation": invitation,
            "form": form,
            "member": service.signed_up_through(invitation),
        },
        status=400 if form.errors else 200,
    )


@login_required
@require_GET
def invitation_sheet(request, event_id: int):
    """A4 sheet of the open invitations: note, role, zone/tables, code, link and QR, cut apart
    and handed to each referee."""
    event = organised_event(request, event_id)
    return keep_private(
        render(
            request,
            "manage/staff/invitation_sheet.html",
            {
                "event": event,
                "invitations": _links(request, links.open_invitations(event), with_qr=True),
                "join_url": _join_url(request),
            },
        )
    )


@login_required
@require_GET
def invitation_export(request, event_id: int, fmt: str):
    """The open invitations as CSV (UTF-8 with a BOM, for Excel) or XLSX."""
    event = organised_event(request, event_id)
    header, rows = links.invitation_table(
        _links(request, links.open_invitations(event), with_qr=False)
    )
    return private_table_download(
        header, rows, fmt, title=_("邀请"), filename=f"invitations-{event.pk}"
    )


@login_required
@require_POST
def revoke_staff(request, event_id: int, staff_id: int):
    event = organised_event(request, event_id)
    member = get_object_or_404(EventStaff, pk=staff_id, event=event)
    service.revoke_staff(member)
    messages.success(request, _("已收回 %(user)s 的权限") % {"user": member.user.get_username()})
    return redirect("manage:staff", event.pk)


@login_required
@require_POST
def revoke_invitation(request, event_id: int, invitation_id: int):
    event = organised_event(request, event_id)
    invitation = get_object_or_404(StaffInvitation, pk=invitation_id, event=event)
    service.revoke_invitation(invitation)
    messages.success(request, _("邀请已作废"))
    return redirect("manage:staff", event.pk)


def _too_many(request, wait: int):
    response = render(
        request, "too_many_attempts.html", {"minutes": max(1, (wait + 59) // 60)}, status=429
    )
    response["Retry-After"] = str(wait)
    return response


def join(request, token: str | None = None):
    """/manage/join/<token>/ (the link) or /manage/join/ (type the code).

    A link's token (192 bits) is looked up *before* the address lock, so a
    guesser behind the hall's address never stops a valid link; only a wrong token is refused by
    the lock and counts against it. A typed code is short: a locked address is refused before
    the code is looked at."""
    ip = ratelimit.client_ip(request)
    code_form = CodeForm(
        request.POST if request.method == "POST" and "code" in request.POST else None
    )
    typed_code = None
    if not token:
        if code_form.is_bound and code_form.is_valid():
            typed_code = code_form.cleaned_data["code"]
        else:
            typed_code = request.GET.get("code") or request.POST.get("invitation_code")
        if typed_code:
            wait = ratelimit.REFEREE_TOKEN_FAILURES.locked_for(ip)
            if wait:
                return _too_many(request, wait)
    invitation, error = None, None
    try:
        if token:
            invitation = service.find_invitation(token=token)
        elif typed_code:
            invitation = service.find_invitation(code=typed_code)
    except service.StaffRefused as refused:
        wait = ratelimit.REFEREE_TOKEN_FAILURES.locked_for(ip)
        if wait:
            return _too_many(request, wait)
        ratelimit.REFEREE_TOKEN_FAILURES.fail(ip)
        error = str(refused)
    if invitation is None:
        return render(
            request,
            "manage/staff/join.html",
            {"code_form": code_form, "error": error},
            status=404 if error else 200,
        )
    signup = SignUpForm(request.POST if request.POST.get("signup") else None)
    if request.method == "POST" and request.POST.get("accept"):
        user = request.user if request.user.is_authenticated else None
        if user is None and request.POST.get("signup") and signup.is_valid():
            user = signup.save()
            # The site's own backend: a session naming a backend that is not in
            # AUTHENTICATION_BACKENDS is dropped on the next request (back to the login page).
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
        if user is not None:
            try:
                member = service.accept(invitation, user)
            except service.StaffRefused as refused:
                return render(
                    request,
                    "manage/staff/join.html",
                    {"code_form": CodeForm(), "error": str(refused)},
                    status=400,
                )
            messages.success(
                request,
                _("你已成为“%(event)s”的%(role)s")
                % {"event": invitation.event.name, "role": member.get_role_display()},
            )
            if member.role == StaffRole.ASSISTANT:
                return redirect("manage:dashboard", invitation.event_id)
            return redirect("referee:home")
    return render(
        request,
        "manage/staff/accept.html",
        {"invitation": invitation, "signup": signup, "token": token},
        status=400 if signup.errors else 200,
    )
