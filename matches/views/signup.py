"""The public registration page and the registrant's private page (docs/registration.md).

The form is phone-first and works without a script: the challenge is a sum the server wrote,
the honeypot a field no person sees, the form's one-time key (inside the signed challenge) makes
a second submit find the first request. Posts are counted per address (`signup_posts`). On the
hall box's public mirror the page shows but every post is refused (hall/guard.py).
"""

from __future__ import annotations

from django.contrib import messages
from django.core.cache import cache
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from matches import ratelimit
from matches.events import challenge, fees, signup
from matches.events.signup_forms import SignupForm
from matches.models import EntryRequest, Event, Registration, SignupSettings
from matches.models.digest import token_digest
from matches.views.addresses import public_url
from matches.views.qr import qr_svg
from matches.views.sheets import keep_private
from players import clubs

SIGNUP_POSTS = ratelimit.Limit("signup_posts")


def _event(event_id: int) -> tuple[Event, SignupSettings]:
    """The event's page is there once the organiser has opened registration (even before the
    event itself is published: the form is how it is announced)."""
    event = get_object_or_404(
        Event.objects.select_related("signup"), pk=event_id, archived_at__isnull=True
    )
    try:
        found = event.signup
    except SignupSettings.DoesNotExist:
        raise Http404 from None
    if not (found.is_open or event.published):
        raise Http404
    return event, found


def _page(request, event, settings_, form, guard, status=200, error="", code=""):
    state = signup.window(settings_)
    context = {
        "event": event,
        "signup": settings_,
        "state": state,
        "form": form,
        "fields_html": _fresh_fields(event, form) if not form.is_bound and state == "open" else "",
        "guard": guard,
        "error": error,
        "error_code": code,
        "places": _places(event, settings_),
        "fee": fees.yuan(settings_.fee_fen),
    }
    response = render(request, "signup/form.html", context, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _places(event, settings_) -> dict:
    taken, waiting = signup.places(event)
    left = None if settings_.capacity is None else max(0, settings_.capacity - taken)
    return {"left": left, "waiting": waiting}


#: How long the drawn fields of an empty form are kept (a deployment's new template shows
#: after this at the latest; a change of the settings or of the known clubs at once).
FIELDS_SECONDS = 300


def _fresh_fields(event, form: SignupForm) -> str:
    """The fields of a form nobody has typed in yet and the known clubs to pick from: the same
    for every registrant until the organiser changes the fields asked or a club is added, so
    drawn once (per language) and kept in the cache. Every registrant of a rush draws this
    page; its fields were most of its CPU."""
    key = "signup-fields:%s:%s:%s:%s" % (
        event.pk,
        get_language(),
        form.layout(),
        clubs.names_stamp(),
    )
    html = cache.get(key)
    if html is None:
        html = render_to_string("signup/_fields.html", {"form": form})
        cache.set(key, html, FIELDS_SECONDS)
    return mark_safe(html)  # noqa: S308 - drawn by the template above, escaped there


def _guard(form_key: str | None = None, error: str = "") -> dict:
    """The form's sum (a new one each time the page is drawn) for the same form key."""
    sum_ = challenge.new_challenge(form_key)
    return {"token": sum_.token, "a": sum_.a, "b": sum_.b, "error": error}


@require_http_methods(["GET", "POST"])
def signup_page(request, event_id: int):
    event, settings_ = _event(event_id)
    if request.method != "POST":
        form = SignupForm(event=event, signup=settings_)
        return _page(request, event, settings_, form, _guard())
    form = SignupForm(request.POST, event=event, signup=settings_)
    token = request.POST.get("challenge", "")
    wait = SIGNUP_POSTS.hit(ratelimit.client_ip(request))
    if wait:
        guard = _guard(challenge.form_key_of(token) or None)
        error = _("这个网络地址提交得太频繁，请 %(m)s 分钟后再试。已填写的内容都还在。") % {
            "m": max(1, wait // 60)
        }
        response = _page(request, event, settings_, form, guard, 429, error, "rate_limit")
        response["Retry-After"] = str(wait)
        return response
    if request.POST.get("website"):
        # The honeypot: a field hidden from people; only a bot fills it.
        guard = _guard()
        return _page(request, event, settings_, form, guard, 400, _("提交未成功，请重试。"), "bot")
    try:
        form_key = challenge.solve(token, request.POST.get("answer", ""))
    except challenge.ChallengeFailed as failed:
        message = (
            _("表单已过期，请再算一次下面的算式")
            if failed.code == "expired"
            else _("算式答案不对，请再算一次")
        )
        guard = _guard(challenge.form_key_of(token) or None, message)
        form.is_valid()  # every other field says what is wrong too, in one go
        return _page(request, event, settings_, form, guard, 400, code="challenge")
    # Solved: a form sent back for another field keeps its answer (nothing typed is lost).
    guard = {"token": token, "answer": request.POST.get("answer", ""), "solved": True}
    if not form.is_valid():
        return _page(request, event, settings_, form, guard, 400, code="bad")
    try:
        entry, _new = signup.submit(event, form_key=form_key, signup=settings_, **form.entry())
    except signup.SignupRefused as refused:
        if refused.field and refused.field in form.fields:
            form.add_error(refused.field, str(refused))
            return _page(request, event, settings_, form, guard, 400, code=refused.code)
        status = 409 if refused.code in ("full", "closed", "duplicate") else 400
        return _page(request, event, settings_, form, guard, status, str(refused), refused.code)
    return redirect(f"{reverse('signup-page', args=[entry.token])}?new=1")


# --- the registrant's private page ------------------------------------------------------------


def _request_of(token: str) -> EntryRequest:
    found = (
        EntryRequest.objects.select_related("event", "registration", "event__signup")
        .filter(token_digest=token_digest(token))
        .first()
    )
    if found is None or not token:
        raise Http404
    return found


def _editable(entry: EntryRequest) -> bool:
    closes = entry.event.signup.closes_at
    from django.utils import timezone

    return entry.status not in (
        EntryRequest.Status.DECLINED,
        EntryRequest.Status.WITHDRAWN,
    ) and (closes is None or timezone.now() < closes)


def _private(request, entry: EntryRequest, token: str, form=None, status=200):
    event = entry.event
    url = public_url(request, reverse("signup-page", args=[token]))
    registration = entry.registration
    withdrawn = entry.status == EntryRequest.Status.WITHDRAWN or (
        registration is not None and registration.status == Registration.Status.WITHDRAWN
    )
    editable = _editable(entry) and not withdrawn
    if form is None and editable:
        form = SignupForm(event=event, signup=event.signup, initial=SignupForm.initial_from(entry))
    context = {
        "event": event,
        "entry": entry,
        "withdrawn": withdrawn,
        "place": signup.waitlist_place(entry),
        "balance": fees.balance(registration) if registration is not None else None,
        "fee": fees.yuan(event.signup.fee_fen),
        "url": url,
        "qr": qr_svg(url),
        "form": form if editable else None,
        "new": request.GET.get("new") == "1",
        "ways": event.signup.payment_ways,
    }
    return keep_private(render(request, "signup/private.html", context, status=status))


def signup_private(request, token: str):
    entry = _request_of(token)
    return _private(request, entry, token)


@require_POST
def signup_edit(request, token: str):
    entry = _request_of(token)
    if SIGNUP_POSTS.hit(ratelimit.client_ip(request)):
        messages.error(request, _("这个网络地址提交得太频繁，请稍后再试。"))
        return redirect("signup-page", token)
    if not _editable(entry):
        messages.error(request, _("报名已截止，不能再修改：请联系组织者"))
        return redirect("signup-page", token)
    form = SignupForm(request.POST, event=entry.event, signup=entry.event.signup)
    if not form.is_valid():
        return _private(request, entry, token, form, 400)
    try:
        signup.edit(entry, **form.entry())
    except signup.SignupRefused as refused:
        form.add_error(refused.field if refused.field in form.fields else None, str(refused))
        return _private(request, entry, token, form, 400)
    messages.success(request, _("已保存修改"))
    return redirect("signup-page", token)


@require_POST
def signup_withdraw(request, token: str):
    entry = _request_of(token)
    if request.POST.get("confirm") != "yes":
        # One tap on a phone must not give the place away: the box is ticked first.
        messages.error(request, _("请先勾选确认：撤回后名额让给候补，不能恢复"))
        return redirect("signup-page", token)
    try:
        signup.withdraw(entry)
    except signup.SignupRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, _("已撤回报名"))
    return redirect("signup-page", token)
