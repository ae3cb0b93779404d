"""Issue 17, findings 4 (production settings), 7 (headers and logs), 8 (offline API docs) and 9
(SQLite writers on the embedded default)."""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import CommandError, call_command
from django.test import Client

ROOT = Path(django_settings.BASE_DIR)


def _python(code: str, env: dict, *args) -> subprocess.CompletedProcess:
    base = {
        "PATH": "/usr/bin:/bin",
        "SQLITE_PATH": "/tmp/gouji-h2-probe/db.sqlite3",
        "SECRET_KEY_FILE": "/tmp/gouji-h2-probe/secret_key",
    }
    return subprocess.run(
        [sys.executable, *(["-c", code] if code else []), *args],
        env={**base, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
    )


PROBE = (
    "import json, gouji_tournament.settings as s; print(json.dumps({'debug': s.DEBUG, "
    "'key': s.SECRET_KEY, 'secure': [s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
    "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS], 'options': "
    "s.DATABASES['default'].get('OPTIONS', {})}))"
)

PRODUCTION = {
    "DEBUG": "False",
    "SECRET_KEY": "k" * 10 + "-Zq8v2LrW9xT4mN7pB3sD6fH1jK5gC0aE-" + "Y" * 10,
    "ALLOWED_HOSTS": "gouji.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://gouji.example.org",
    "SECURE_SSL_REDIRECT": "True",
    "SECURE_HSTS_SECONDS": "31536000",
    "SESSION_COOKIE_SECURE": "True",
    "CSRF_COOKIE_SECURE": "True",
    "SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https",
}


# --- finding 4 --------------------------------------------------------------------------------


def test_debug_is_off_unless_asked_for():
    probe = _python(PROBE, {})
    assert probe.returncode == 0, probe.stderr
    assert json.loads(probe.stdout)["debug"] is False


def test_production_refuses_to_start_without_a_secret_key():
    probe = _python(PROBE, {"DEBUG": "False", "DATABASE_URL": "postgres://u@127.0.0.1/x"})
    assert probe.returncode != 0
    assert "SECRET_KEY" in probe.stderr


def test_the_embedded_default_uses_a_key_of_its_own_never_the_one_in_the_repository(tmp_path):
    env = {
        "SQLITE_PATH": str(tmp_path / "db.sqlite3"),
        "SECRET_KEY_FILE": str(tmp_path / "secret_key"),
    }
    first = json.loads(_python(PROBE, env).stdout)["key"]
    again = json.loads(_python(PROBE, env).stdout)["key"]
    other = json.loads(_python(PROBE, {**env, "SECRET_KEY_FILE": str(tmp_path / "k2")}).stdout)
    assert first == again and first != other["key"] and len(first) >= 50
    assert first not in (ROOT / "gouji_tournament" / "settings.py").read_text()
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0  # readable by its owner only


def test_secure_cookies_and_hsts_come_from_the_environment():
    probe = json.loads(_python(PROBE, PRODUCTION).stdout)
    assert probe["secure"] == [True, True, True, 31536000]


def test_the_documented_production_environment_passes_check_deploy():
    """deploy/README.md's table is the environment `check --deploy` runs with."""
    readme = (ROOT / "deploy" / "README.md").read_text()
    documented = dict(re.findall(r"^\| `([A-Z_]+)` \| `([^`]*)`", readme, re.M))
    for name, value in PRODUCTION.items():
        if name != "SECRET_KEY":
            assert documented.get(name) == value, name
    env = {
        **{
            k: v
            for k, v in documented.items()
            if k not in ("DATABASE_URL", "CACHE_URL", "CELERY_BROKER_URL")
        },
        "SECRET_KEY": PRODUCTION["SECRET_KEY"],
    }
    result = _python("", env, "manage.py", "check", "--deploy")
    assert result.returncode == 0, result.stdout + result.stderr
    # Not one deployment warning (other apps' warnings, e.g. drf-spectacular's, are not ours).
    assert "(security." not in result.stdout + result.stderr, result.stdout + result.stderr
    # TLS is the documented way: the nginx guide sets up a certificate.
    assert "ssl_certificate" in readme and ("certbot" in readme or "openssl req" in readme)


@pytest.mark.django_db
def test_load_demo_refuses_demo_demo_when_debug_is_off(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG"):
        call_command("load_demo")
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username="demo").exists()


# --- finding 7 --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_pages_carry_a_strict_content_security_policy(setup):
    policy = Client().get("/")["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


def test_no_template_needs_inline_script_or_style():
    """What a strict policy blocks: inline <script>, on*= handlers, style= attributes."""
    offenders = []
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        for pattern in (r"<script(?![^>]*\bsrc=)", r"\son[a-z]+=", r"\sstyle=", r"javascript:"):
            if re.search(pattern, text):
                offenders.append((path.name, pattern))
    assert offenders == []
    # htmx adds an inline <style> for its indicators unless told not to.
    base = (ROOT / "templates" / "base.html").read_text()
    assert '"includeIndicatorStyles":false' in base.replace(" ", "")


@pytest.mark.django_db
def test_referee_link_pages_are_never_stored(setup):
    for url in (f"/ref/{setup.link.token}/", "/ref/not-a-link/"):
        response = Client().get(url)
        assert "no-store" in response.get("Cache-Control", ""), url


@pytest.mark.django_db
def test_a_referee_token_is_masked_in_the_500_log(setup, caplog, monkeypatch):
    from matches.views.referee import table

    def boom(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(table, "table_context", boom)
    client = Client(raise_request_exception=False)
    with caplog.at_level(logging.ERROR, logger="django.request"):
        response = client.get(f"/ref/{setup.link.token}/")
    assert response.status_code == 500
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "/ref/<token>/" in logged
    assert setup.link.token not in logged


def test_nginx_logs_referee_paths_with_the_token_masked():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "log_format" in conf and "access_log" in conf
    assert re.search(r"map \$(?:request_)?uri \$\w+ \{[^}]*/ref/", conf, re.S)
    assert "$request_uri" not in re.search(r"log_format[^;]*;", conf, re.S).group(0)
    assert "$request " not in re.search(r"log_format[^;]*;", conf, re.S).group(0)


@pytest.mark.django_db
def test_healthz_does_not_show_the_database_error(monkeypatch):
    from gouji_tournament import views

    class Broken:
        vendor = "postgresql"

        def cursor(self):
            raise RuntimeError('connection to server at "10.1.2.3", port 5432 failed: password')

    monkeypatch.setattr(views, "connection", Broken())
    response = Client().get("/healthz")
    assert response.status_code == 503
    assert "10.1.2.3" not in response.content.decode()
    assert "password" not in response.content.decode()


# --- finding 8 --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_api_docs_load_nothing_from_a_cdn():
    page = Client().get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "cdn" not in html.lower() and "//" not in re.sub(r"https?://testserver", "", html)
    for src in re.findall(r'(?:src|href)="([^"]+)"', html):
        assert src.startswith("/"), src
        if "swagger" in src or "static" in src:
            assert Client().get(src).status_code == 200, src


@pytest.mark.django_db
def test_api_docs_keep_the_strict_policy():
    """Issue 17's loose end (issue 27): /api/docs/ allowed inline styles for Swagger UI. The page
    is now served without drf-spectacular's inline <style>; the browser test
    (tests/browser/test_csp.py) sees Swagger UI render with no violation under this policy."""
    page = Client().get("/api/docs/")
    assert page["Content-Security-Policy"] == Client().get("/")["Content-Security-Policy"]
    assert "unsafe" not in page["Content-Security-Policy"]
    html = page.content.decode()
    assert "<style" not in html and " style=" not in html
    assert re.search(r"<script(?![^>]*\bsrc=)", html) is None
    assert Client().get("/static/css/api_docs.css").status_code == 200


# --- finding 9 --------------------------------------------------------------------------------


def test_the_embedded_sqlite_waits_for_writers_instead_of_failing(tmp_path):
    """Four writers that read first and then write (as every result submission does) on one
    SQLite file: with deferred transactions the second writer got "database is locked" at once
    (a 503); with IMMEDIATE transactions, WAL and a busy timeout, they queue."""
    code = """
import os, threading, django
os.environ["DJANGO_SETTINGS_MODULE"] = "gouji_tournament.settings"
django.setup()
from django.db import connection, transaction
with connection.cursor() as c:
    c.execute("CREATE TABLE IF NOT EXISTS probe (n integer)")
    c.execute("PRAGMA journal_mode")
    print("journal", c.fetchone()[0])
errors, barrier = [], threading.Barrier(4)
def writer():
    try:
        barrier.wait()
        for _ in range(15):
            with transaction.atomic():
                with connection.cursor() as c:
                    c.execute("SELECT count(*) FROM probe")
                    c.fetchone()
                    c.execute("INSERT INTO probe VALUES (1)")
    except Exception as exc:
        errors.append(repr(exc))
    finally:
        connection.close()
threads = [threading.Thread(target=writer) for _ in range(4)]
[t.start() for t in threads]
[t.join() for t in threads]
print("errors", len(errors), errors[:1])
"""
    result = _python(
        code,
        {"SQLITE_PATH": str(tmp_path / "db.sqlite3"), "SECRET_KEY_FILE": str(tmp_path / "key")},
    )
    assert result.returncode == 0, result.stderr
    assert "journal wal" in result.stdout
    assert "errors 0 []" in result.stdout, result.stdout
    assert (
        sqlite3.connect(tmp_path / "db.sqlite3").execute("SELECT count(*) FROM probe").fetchone()[0]
        == 60
    )
