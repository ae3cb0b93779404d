"""The project's foundation: settings from the environment, home page, health check."""

from __future__ import annotations

import subprocess
import sys

import pytest
from django.conf import settings


@pytest.mark.django_db  # the home page lists the published events
def test_home_page_renders_in_chinese_by_default(client):
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    assert '<html lang="zh-hans">' in body
    assert "够级赛事" in body
    # htmx is vendored, pinned and served by us, not by a CDN.
    assert "vendor/htmx-2.0.11.min.js" in body
    # An anonymous reader gets no CSRF token, hence no cookie (tests/public/test_front_cache.py).
    assert "X-CSRFToken" not in body and not response.cookies


@pytest.mark.django_db
def test_language_switch_turns_the_page_english(client):
    response = client.get("/lang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    body = client.get("/").content.decode()
    assert '<html lang="en">' in body
    assert "Gou Ji events" in body
    assert "Skip to content" in body


@pytest.mark.django_db
def test_healthz_reports_database_and_broker(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    data = response.json()
    assert data["status"] == "ok"
    assert data["database"]["ok"] is True
    assert data["broker"]["ok"] is True
    assert data["site"] == "single"  # "box" or "mirror" behind the hall box (docs/hall-box.md)


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_is_down(client, monkeypatch):
    from gouji_tournament import views

    monkeypatch.setattr(views, "_database_state", lambda: {"ok": False, "error": "refused"})
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "down"


@pytest.mark.django_db
def test_healthz_is_503_when_the_broker_is_down(client, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"]["ok"] is False


def _settings_under(env: dict) -> dict:
    """Import the settings in a fresh interpreter with exactly this environment."""
    code = (
        "import json, gouji_tournament.settings as s;"
        "print(json.dumps({'engine': s.DATABASES['default']['ENGINE'],"
        " 'name': str(s.DATABASES['default']['NAME']), 'eager': s.CELERY_TASK_ALWAYS_EAGER,"
        " 'broker': s.CELERY_BROKER_URL, 'debug': s.DEBUG, 'hosts': s.ALLOWED_HOSTS,"
        " 'options': s.DATABASES['default'].get('OPTIONS', {})}))"
    )
    base = {"PATH": "/usr/bin:/bin", "SQLITE_PATH": "/tmp/gouji-settings-probe.sqlite3"}
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**base, **env},
        cwd=settings.BASE_DIR,
        capture_output=True,
        text=True,
        check=True,
    )
    import json

    return json.loads(out.stdout)


def test_nothing_set_means_sqlite_and_eager_celery():
    probe = _settings_under({})
    assert probe["engine"] == "django.db.backends.sqlite3"
    assert probe["eager"] is True


def test_environment_switches_to_postgres_and_a_real_broker():
    probe = _settings_under(
        {
            "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/somewhere",
            "CELERY_BROKER_URL": "redis://127.0.0.1:6379/3",
            "DEBUG": "False",
            "SECRET_KEY": "a-deployment-sets-its-own-key",  # refused without (tests/hostile)
            "ALLOWED_HOSTS": "gouji.example,127.0.0.1",
        }
    )
    assert probe["engine"] == "django.db.backends.postgresql"
    assert probe["name"] == "somewhere"
    assert probe["eager"] is False
    assert probe["broker"] == "redis://127.0.0.1:6379/3"
    assert probe["debug"] is False
    assert probe["hosts"] == ["gouji.example", "127.0.0.1"]


def test_postgres_binds_parameters_on_the_server_unless_told_not_to():
    """psycopg's server-side binding by default (issue 40: the app quoted every parameter in
    Python); 0 for a PgBouncer in transaction mode. SQLite has no such option."""
    deployment = {
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/somewhere",
        "SECRET_KEY": "a-deployment-sets-its-own-key",
    }
    assert _settings_under(deployment)["options"]["server_side_binding"] is True
    off = _settings_under({**deployment, "DATABASE_SERVER_SIDE_BINDING": "0"})
    assert "server_side_binding" not in off["options"]
    assert "server_side_binding" not in _settings_under({})["options"]


def test_settings_are_the_ones_the_design_card_names():
    assert settings.TIME_ZONE == "Asia/Shanghai"
    assert [code for code, _ in settings.LANGUAGES] == ["zh-hans", "en"]
