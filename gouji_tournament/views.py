"""Project-wide pages: the home page, the health check, the login page and the language switch."""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.db import connection
from django.http import HttpResponseBadRequest, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext, ngettext
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from hall.roles import role
from ladders.models import LadderSeason
from matches import ratelimit
from matches.public import visibility
from matches.public.front_cache import front_cacheable


@front_cacheable
def home(request):
    """The site's front door: the published events and 擂台赛 ladders (two apps, one page)."""
    events = visibility.public_events().order_by("-start_date", "name")
    ladders = LadderSeason.objects.filter(published=True)
    return render(request, "home.html", {"events": events, "ladders": ladders})


logger = logging.getLogger(__name__)


def _database_state() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return {"ok": True, "vendor": connection.vendor}
    except Exception as exc:  # any failure means "down"
        # The error names hosts, ports and users: for the operator's log, not for anyone asking.
        logger.error("healthz: the database is down: %s", exc)
        return {"ok": False, "vendor": connection.vendor}


def _broker_state() -> dict:
    if settings.CELERY_TASK_ALWAYS_EAGER:
        return {"ok": True, "mode": "eager"}
    from kombu import Connection

    try:
        # A fresh connection with a short timeout: the answer must be quick and must not come
        # from a pooled connection that was fine a minute ago.
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
        return {"ok": True, "mode": "broker"}
    except Exception as exc:
        logger.error("healthz: the broker is down: %s", exc)
        return {"ok": False, "mode": "broker"}


@never_cache
def healthz(request):
    database, broker = _database_state(), _broker_state()
    healthy = database["ok"] and broker["ok"]
    return JsonResponse(
        {
            "status": "ok" if healthy else "down",
            "database": database,
            "broker": broker,
            # Which server answered: on the hall's Wi-Fi the public name must reach the box
            # (docs/hall-box.md, step 5), and a phone there shows "box".
            "site": role(),
        },
        status=200 if healthy else 503,
    )


@never_cache
@require_safe
def switch_language(request):
    """`GET /lang/?language=en&next=/events/1/`: Django's `set_language` without its POST.

    Django's view needs a CSRF token, and a token on every page sets a cookie on every page,
    which no shared front cache may keep (deploy/nginx.conf). Choosing a language is harmless
    to forge, so a plain link or GET form will do; the cookie is the one LocaleMiddleware
    reads, with the attributes `set_language` gives it."""
    language = request.GET.get("language", "")
    if language not in dict(settings.LANGUAGES):
        return HttpResponseBadRequest(
            gettext("不支持的语言。"), content_type="text/plain; charset=utf-8"
        )
    target = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"  # never send a reader to another site (an open redirect)
    response = HttpResponseRedirect(target)
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response


class LoginView(auth_views.LoginView):
    """Django's login page behind the rate limit and the lockouts of matches/ratelimit.py: a
    locked IP or account gets the page again with a clear message, status 429."""

    def post(self, request, *args, **kwargs):
        wait = ratelimit.LOGIN_REQUESTS.hit(ratelimit.client_ip(request))
        if wait:
            return self._locked(self.get_form(), wait)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        wait = getattr(self.request, "login_locked_for", 0)
        if wait:
            return self._locked(form, wait)
        return super().form_invalid(form)

    def _locked(self, form, wait: int):
        minutes = max(1, (wait + 59) // 60)
        response = self.render_to_response(
            self.get_context_data(
                form=form,
                locked_message=ngettext(
                    "登录失败次数过多，请 %(minutes)d 分钟后再试。",
                    "登录失败次数过多，请 %(minutes)d 分钟后再试。",
                    minutes,
                )
                % {"minutes": minutes},
            )
        )
        response.status_code = 429
        response["Retry-After"] = str(wait)
        return response


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request, exception=None):
    """404 for a URL no route matches (e.g. a negative id): JSON in the API's error shape under
    /api/, Django's page elsewhere."""
    if _is_api(request):
        return JsonResponse({"error": {"code": "not_found", "message": "no such URL"}}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request):
    if _is_api(request):
        return JsonResponse(
            {
                "error": {
                    "code": "internal_error",
                    "message": "the server could not handle this request",
                }
            },
            status=500,
        )
    return defaults.server_error(request)


def bad_request(request, exception=None):
    if _is_api(request):
        return JsonResponse(
            {"error": {"code": "bad_request", "message": "bad request"}}, status=400
        )
    return defaults.bad_request(request, exception)
