"""Create an event (a wizard of three htmx steps that also works without JavaScript), change its
settings, and its game's rule settings (Gou Ji's rule set, Giog's place points)."""

from __future__ import annotations

import datetime
import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django_htmx.http import HttpResponseClientRedirect

from matches.events import lifecycle, setup
from matches.events.forms import BasicsForm, EventSettingsForm, FormatForm, StagesForm
from matches.kernel.games.registry import default_game, settings_form_class
from matches.models import Event
from matches.permissions import can_manage_event, role_in_event
from matches.signals import request_recompute
from matches.views.organiser.access import (
    CONFIRM_SAME_NAME,
    organised_event,
    running_event,
    same_name_unconfirmed,
)

SESSION_KEY = "new-event"
STEPS = ("basics", "format", "rules")


def _stored(request) -> dict:
    return request.session.get(SESSION_KEY) or {}


def _store(request, step: str, data: dict) -> None:
    stored = _stored(request)
    stored[step] = {
        k: (v.isoformat() if isinstance(v, datetime.date) else v) for k, v in data.items()
    }
    request.session[SESSION_KEY] = stored


def _step_form(step: str, request, data=None, stored=None):
    stored = stored if stored is not None else _stored(request)
    if step == "basics":
        return BasicsForm(
            data,
            initial=stored.get("basics")
            or {"game": default_game(), "entry_type": Event.EntryType.TEAM},
        )
    if step == "format":
        individual = (stored.get("basics") or {}).get("entry_type") == Event.EntryType.INDIVIDUAL
        return FormatForm(
            data,
            game=(stored.get("basics") or {}).get("game", default_game()),
            entry_type=(stored.get("basics") or {}).get("entry_type"),
            initial=stored.get("format")
            or {
                "stage1_format": "swiss",
                "stage1_rounds": 5,
                "deals_per_match": 6,
                "result_confirmation": Event.Confirmation.PLAYER
                if individual
                else Event.Confirmation.CAPTAIN,
            },
        )
    game = (stored.get("basics") or {}).get("game", default_game())
    form_class = settings_form_class(game)
    return form_class.from_values(stored.get("rules"), data)


def _token(request) -> str:
    """The wizard's one-time token, made when the wizard starts: the final form posts it back
    and the event keeps it, so a second submit finds the event instead of making another."""
    stored = _stored(request)
    if not stored.get("token"):
        stored["token"] = secrets.token_urlsafe(24)
        request.session[SESSION_KEY] = stored
    return stored["token"]


def _reached(request, step: str) -> None:
    """Remember the step on screen: a reload (GET without ?step) comes back to it."""
    stored = _stored(request)
    if stored and stored.get("at") != step:
        stored["at"] = step
        request.session[SESSION_KEY] = stored


def _resume_step(request) -> str:
    """The step a reload returns to: the one last shown, if the steps before it are stored."""
    stored = _stored(request)
    step = stored.get("at") or "basics"
    if step not in STEPS or any(s not in stored for s in STEPS[: STEPS.index(step)]):
        return "basics"
    return step


def _render_step(request, step: str, form, status: int = 200, same_name_error: str = ""):
    _token(request)
    _reached(request, step)
    stored = _stored(request)
    game = (stored.get("basics") or {}).get("game", default_game())
    name = (stored.get("basics") or {}).get("name", "")
    if step == "basics" and form.is_bound:
        name = form.data.get("name", name)
    context = {
        "step": step,
        "steps": STEPS,
        "index": STEPS.index(step) + 1,
        "form": form,
        "game": game,
        "site_game": game if step != "basics" else None,
        "token": _token(request),
        "same_name": list(lifecycle.same_name_events(request.user, name)[:3]),
        "confirm_same_name": request.POST.get(CONFIRM_SAME_NAME) == "yes",
        "same_name_error": same_name_error,
        "draft": "basics" in stored,
    }
    if request.htmx:  # htmx swaps only 2xx answers: the errors must show all the same
        return render(request, "manage/new/_wizard.html", context)
    return render(request, "manage/new/wizard.html", context, status=status)


@login_required
def new_event(request):
    """GET ?step=…; POST the step's form. `back` returns a step without checking; `apply_preset`
    refills the rule flags from the chosen preset."""
    step = request.POST.get("step") or request.GET.get("step") or "basics"
    if step not in STEPS:
        step = "basics"
    if request.GET.get("restart"):
        # Dropped, then away from ?restart=1: the address bar must not keep it, or a reload on
        # step 3 would throw steps 1 and 2 away again.
        request.session.pop(SESSION_KEY, None)
        return redirect(reverse("manage:new-event"))
    if request.method != "POST":
        if "step" not in request.GET:  # a reload, or the link back: where the organiser was
            step = _resume_step(request)
        if step != "basics" and "basics" not in _stored(request):
            step = "basics"
        return _render_step(request, step, _step_form(step, request))
    made = _already_made(request)
    if made is not None:
        messages.info(request, _("赛事“%(name)s”已创建，没有重复创建") % {"name": made.name})
        url = reverse("manage:dashboard", args=[made.pk])
        return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
    index = STEPS.index(step)
    if step == "rules" and (request.POST.get("back") or request.POST.get("keep_rules")):
        _keep_rules(request)
        if not request.POST.get("back"):  # the page's script keeps step 3 as it is changed
            return HttpResponse(status=204)
    if request.POST.get("back") and index > 0:
        previous = STEPS[index - 1]
        return _render_step(request, previous, _step_form(previous, request))
    if step == "rules" and request.POST.get("apply_preset"):
        form_class = settings_form_class(
            _stored(request).get("basics", {}).get("game", default_game())
        )
        # Kept at once: a reload of step 3 shows the preset picked, not the default again.
        values = form_class.preset_values(request.POST.get("preset", "standard"))
        _store(request, "rules", values)
        return _render_step(request, step, form_class.from_values(values))
    form = _step_form(step, request, request.POST)
    if not form.is_valid():
        return _render_step(request, step, form, status=400)
    if step == "basics":
        _store(request, "basics", form.cleaned_data)
        return _render_step(request, "format", _step_form("format", request))
    if step == "format":
        _store(request, "format", form.cleaned_data)
        return _render_step(request, "rules", _step_form("rules", request))
    return _create(request, form)


def _keep_rules(request) -> None:
    """Step 3 as posted, kept when the game's form takes it (else the last kept values stay):
    a reload or the way back and forth returns to the rule set chosen, not to the default."""
    if "basics" not in _stored(request):
        return
    form = _step_form("rules", request, request.POST)
    if form.is_valid():
        _store(request, "rules", form.values())


def _already_made(request) -> Event | None:
    """The event a posted wizard token already made (a second press of 创建赛事)."""
    token = request.POST.get("token", "")
    if not token:
        return None
    return Event.objects.filter(creation_token=token, organisers=request.user).first()


def _create(request, settings_form):
    stored = _stored(request)
    basics = BasicsForm(stored.get("basics"))
    layout = FormatForm(
        stored.get("format"),
        game=(stored.get("basics") or {}).get("game", default_game()),
        entry_type=(stored.get("basics") or {}).get("entry_type"),
    )
    if not basics.is_valid():
        return _render_step(request, "basics", basics, status=400)
    if not layout.is_valid():
        return _render_step(request, "format", layout, status=400)
    if same_name_unconfirmed(request, basics.cleaned_data["name"]):
        return _render_step(
            request,
            "rules",
            settings_form,
            status=400,
            same_name_error=_("已有同名赛事：请勾选“是的，再建一个同名赛事”，或在第 1 步改名。"),
        )
    details = {**basics.cleaned_data, **layout.details()}
    event = setup.create_event(
        request.user,
        details=details,
        stages=layout.stages(),
        settings=settings_form.values(),
        token=request.POST.get("token") or stored.get("token"),
    )
    request.session.pop(SESSION_KEY, None)
    messages.success(request, _("赛事“%(name)s”已创建") % {"name": event.name})
    url = reverse("manage:dashboard", args=[event.pk])
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


@login_required
def event_settings(request, event_id: int):
    event = organised_event(request, event_id)
    frozen = setup.is_frozen(event)
    stages = list(event.stages.order_by("order"))
    posted_stages = request.method == "POST" and "stages" in request.POST
    form = EventSettingsForm(
        request.POST if request.method == "POST" and not posted_stages else None,
        instance=event,
        frozen=frozen,
    )
    stages_form = StagesForm(
        request.POST if posted_stages else None,
        initial=StagesForm.initial_for(stages),
        entry_type=event.entry_type,
    )
    if posted_stages and stages_form.is_valid():
        try:
            setup.replace_stages(event, stages_form.stages())
        except setup.SetupRefused as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("阶段已保存"))
        return redirect("manage:settings", event.pk)
    if request.method == "POST" and not posted_stages and form.is_valid():
        form.save()
        if "rated" in form.changed_data:
            request_recompute(event.pk)  # the rating list takes the event in (or leaves it)
        messages.success(request, _("设置已保存"))
        return redirect("manage:settings", event.pk)
    return render(
        request,
        "manage/settings/event.html",
        {
            "event": event,
            "form": form,
            "frozen": frozen,
            "stages": stages,
            "stages_form": stages_form,
            "started": setup.started(event),
        },
        status=400 if form.errors or stages_form.errors else 200,
    )


@login_required
def rules(request, event_id: int):
    """The game's rule settings; assistants see them read-only, organisers change them until
    round 1 is published."""
    event = running_event(request, event_id)
    frozen = setup.is_frozen(event)
    may_change = can_manage_event(request.user, event) and not frozen
    form_class = settings_form_class(event.game)
    if request.method == "POST":
        if not can_manage_event(request.user, event):
            return render(request, "manage/forbidden.html", {"event": event}, status=403)
        if frozen:
            messages.error(request, _("第 1 轮公布后规则已锁定，不能再改"))
            return redirect("manage:rules", event.pk)
        if request.POST.get("apply_preset"):
            form = form_class.from_preset(request.POST.get("preset"))
        else:
            form = form_class.for_event(event, request.POST)
            if form.is_valid():
                try:
                    setup.save_game_settings(event, form.values())
                except setup.SetupRefused as error:
                    messages.error(request, str(error))
                else:
                    messages.success(request, _("规则已保存"))
                    return redirect("manage:rules", event.pk)
    else:
        form = form_class.for_event(event, frozen=not may_change)
    template = "manage/settings/_rules_form.html" if request.htmx else "manage/settings/rules.html"
    return render(
        request,
        template,
        {
            "event": event,
            "form": form,
            "frozen": frozen,
            "may_change": may_change,
            "role": role_in_event(request.user, event),
        },
        status=400 if form.is_bound and form.errors else 200,
    )
