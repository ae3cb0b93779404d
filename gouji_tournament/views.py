"""Project-wide pages: the home page and the health check."""
from __future__ import annotations

from django.conf import settings
from django.db import connection
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache


def home(request):
    return render(request, "home.html")


def _database_state() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return {"ok": True, "vendor": connection.vendor}
    except Exception as exc:  # any failure means "down"; the message helps the operator
        return {"ok": False, "vendor": connection.vendor, "error": str(exc)[:200]}


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
        return {"ok": False, "mode": "broker", "error": str(exc)[:200]}


@never_cache
def healthz(request):
    database, broker = _database_state(), _broker_state()
    healthy = database["ok"] and broker["ok"]
    return JsonResponse(
        {"status": "ok" if healthy else "down", "database": database, "broker": broker},
        status=200 if healthy else 503,
    )
