"""Undo pages: delete a draft round, reopen the last closed round, archive, restore or
delete an event, and copy an event's settings into a new one.

Each action is a confirmation page (GET) and its POST; a refusal is a message on the page.
Deleting a draft is the day's work (organisers and assistants); the rest changes the event's
record and is the organisers' alone.
"""

from __future__ import annotations

import datetime

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.draw import undo
from matches.draw.refusals import SeatingRefused
from matches.events import lifecycle
from matches.events.forms import DATE
from matches.models import Round, StaffRole
from matches.views.organiser.access import (
    organised_event,
    running_event,
    same_name_unconfirmed,
)


def _confirm(request, event, context: dict, status: int = 200):
    return render(request, "manage/confirm.html", {"event": event, **context}, status=status)


@login_required
def delete_draft(request, event_id: int, number: int):
    event = running_event(request, event_id)
    round_ = get_object_or_404(Round.objects.select_related("stage"), event=event, number=number)
    error = None
    if request.method == "POST":
        try:
            undo.delete_draft(round_, user=request.user)
        except SeatingRefused as refused:
            error = str(refused)
        else:
            messages.success(request, _("第 %(n)s 轮草稿已删除") % {"n": number})
            return redirect("manage:dashboard", event.pk)
    elif not round_.is_draft:
        error = _("只能删除草稿轮次；已公布的轮次请先撤回公布")
    return _confirm(
        request,
        event,
        {
            "action": "delete-draft",
            "title": _("删除第 %(n)s 轮草稿") % {"n": number},
            "lines": [
                _("阶段：%(stage)s") % {"stage": round_.stage},
                _("本轮的牌桌与座位一并删除；没有任何成绩受影响。"),
                _("删除后可在控制台重新编排，阶段按顺序自动选定。"),
            ],
            "button": _("确认删除草稿"),
            "danger": True,
            "error": error,
            "disabled": not round_.is_draft,
            "back": reverse("manage:round", args=[event.pk, number]),
        },
        status=400 if error and request.method == "POST" else 200,
    )


@login_required
def reopen_round(request, event_id: int, number: int):
    event = organised_event(request, event_id)
    round_ = get_object_or_404(Round, event=event, number=number)
    error = None
    if request.method == "POST":
        try:
            undo.reopen_round(round_, reason=request.POST.get("reason", ""), user=request.user)
        except SeatingRefused as refused:
            error = str(refused)
        else:
            messages.success(
                request,
                _("第 %(n)s 轮已重新开启：在下方各桌点局号更正成绩，然后再结束本轮")
                % {"n": number},
            )
            # Straight to the tables, each with its deals' correction links.
            return redirect(reverse("manage:round", args=[event.pk, number]) + "#tables")
    return _confirm(
        request,
        event,
        {
            "action": "reopen",
            "title": _("重新开启第 %(n)s 轮") % {"n": number},
            "lines": [
                _("本轮回到“已公布”：成绩可以更正，排名将重新计算。"),
                _("只能重新开启最后一轮；原因记入本轮日志。"),
            ],
            "reason": True,
            "reason_value": request.POST.get("reason", ""),
            "button": _("确认重新开启"),
            "error": error,
            "back": reverse("manage:round", args=[event.pk, number]),
        },
        status=400 if error else 200,
    )


@login_required
def archive_event(request, event_id: int):
    event = organised_event(request, event_id)
    restoring = event.archived_at is not None
    error = None
    if request.method == "POST":
        try:
            if restoring:
                lifecycle.restore(event, user=request.user)
            else:
                lifecycle.archive(event, user=request.user)
        except lifecycle.EventRefused as refused:
            error = str(refused)
        else:
            if restoring:
                messages.success(request, _("赛事“%(name)s”已恢复") % {"name": event.name})
                return redirect("manage:dashboard", event.pk)
            messages.success(
                request, _("赛事“%(name)s”已归档：可在“已归档”中恢复") % {"name": event.name}
            )
            return redirect("manage:events")
    lines = (
        [_("赛事回到“我的赛事”列表；若已公开，公开页面重新可见。")]
        if restoring
        else [
            _("赛事从“我的赛事”列表和公开页面中隐藏，所有数据保留。"),
            _("随时可以在“已归档”中恢复。"),
        ]
    )
    return _confirm(
        request,
        event,
        {
            "action": "restore" if restoring else "archive",
            "title": (_("恢复赛事“%(name)s”") if restoring else _("归档赛事“%(name)s”"))
            % {"name": event.name},
            "lines": lines,
            "button": _("确认恢复") if restoring else _("确认归档"),
            "error": error,
            "back": reverse("manage:dashboard", args=[event.pk]),
        },
        status=400 if error else 200,
    )


@login_required
def delete_event(request, event_id: int):
    event = organised_event(request, event_id)
    error = _("赛事已有成绩，不能删除；可以归档") if lifecycle.has_results(event) else None
    if request.method == "POST" and error is None:
        if request.POST.get("name", "").strip() != event.name:
            error = _("请输入赛事名称以确认删除")
        else:
            try:
                name = lifecycle.delete(event)
            except lifecycle.EventRefused as refused:
                error = str(refused)
            else:
                messages.success(request, _("赛事“%(name)s”已删除") % {"name": name})
                return redirect("manage:events")
    return _confirm(
        request,
        event,
        {
            "action": "delete-event",
            "title": _("删除赛事“%(name)s”") % {"name": event.name},
            "lines": [
                _("赛事、报名、轮次与编排全部删除，不能恢复。"),
                _("只有尚无任何成绩的赛事可以删除；有成绩的赛事请归档。"),
            ],
            "confirm_name": True,
            "button": _("永久删除赛事"),
            "danger": True,
            "error": error,
            "disabled": lifecycle.has_results(event),
            "back": reverse("manage:dashboard", args=[event.pk]),
        },
        status=400 if error and request.method == "POST" else 200,
    )


class CopyEventForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("新赛事名称"), max_length=200)
    start_date = forms.DateField(label=gettext_lazy("开始日期"), widget=DATE)
    end_date = forms.DateField(label=gettext_lazy("结束日期"), widget=DATE, required=False)

    def clean(self):
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("结束日期不能早于开始日期"))
        return data


def _a_year_later(day: datetime.date) -> datetime.date:
    try:
        return day.replace(year=day.year + 1)
    except ValueError:  # 29 February
        return day + datetime.timedelta(days=365)


def _next_years_name(name: str, year: int) -> str:
    """ "2026 青岛杯" becomes "2027 青岛杯"; a name without its year stays as it is."""
    return name.replace(str(year), str(year + 1))


@login_required
def copy_event(request, event_id: int):
    """Next year's cup: the same game, rules, stages, release settings, tie-breaks, labels,
    referee zones and referees; no entries, rounds or results."""
    event = organised_event(request, event_id)
    form = CopyEventForm(
        request.POST or None,
        initial={
            "name": _next_years_name(event.name, event.start_date.year),
            "start_date": _a_year_later(event.start_date),
        },
    )
    if (
        request.method == "POST"
        and form.is_valid()
        and same_name_unconfirmed(request, form.cleaned_data["name"])
    ):
        form.add_error(None, _("已有同名赛事：请勾选“是的，再建一个同名赛事”，或改个名字。"))
    if request.method == "POST" and form.is_valid():
        try:
            copy = lifecycle.copy_event(event, user=request.user, **form.cleaned_data)
        except lifecycle.EventRefused as refused:
            form.add_error(None, str(refused))
        else:
            messages.success(
                request,
                _("已按“%(old)s”的设置创建“%(name)s”：请添加报名")
                % {"old": event.name, "name": copy.name},
            )
            return redirect("manage:dashboard", copy.pk)
    name = form.data.get("name", "") if form.is_bound else form.initial["name"]
    return render(
        request,
        "manage/copy_event.html",
        {
            "event": event,
            "form": form,
            "stages": list(event.stages.order_by("order")),
            "zones": list(event.zones.all()),
            "referees": [
                s.user
                for s in event.staff.filter(
                    role=StaffRole.REFEREE, revoked_at__isnull=True
                ).select_related("user")
            ],
            "same_name": list(lifecycle.same_name_events(request.user, name)[:3]),
        },
        status=400 if form.errors else 200,
    )
