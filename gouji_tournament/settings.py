"""Settings for gouji-tournament, driven entirely by the environment.

With nothing set, `runserver` works right after a checkout: SQLite in var/ and Celery tasks run
eagerly in-process (the embedded default), DEBUG off, and a secret key generated once into
var/secret_key. DATABASE_URL and CELERY_BROKER_URL switch to PostgreSQL and a real broker with
workers; such a deployment must set SECRET_KEY (it refuses to start without). deploy/README.md
gives the production environment, which passes `manage.py check --deploy`.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: str) -> bool:
    value = os.environ.get(name, default)
    if value not in ("True", "False", "1", "0", "true", "false"):
        raise ValueError(f"{name} must be True or False, not {value!r}")
    return value in ("True", "1", "true")


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


# Off unless asked for: a forgotten variable must not show tracebacks to the hall.
DEBUG = envbool("DEBUG", "False")
DATABASE_URL = os.environ.get("DATABASE_URL", "")


def _secret_key() -> str:
    """SECRET_KEY from the environment. Without it, the embedded default (SQLite, one machine)
    generates a key once into SECRET_KEY_FILE (var/secret_key, readable by its owner only); a
    deployment with DATABASE_URL refuses to start: its processes must share one key, and a key
    written in this file would be public."""
    key = os.environ.get("SECRET_KEY", "")
    if key:
        return key
    if DATABASE_URL and not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set: a deployment (DATABASE_URL) needs a long random SECRET_KEY "
            "in its environment (deploy/README.md)"
        )
    path = Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / "var" / "secret_key"))
    try:
        return path.read_text().strip() or _new_key(path)
    except FileNotFoundError:
        return _new_key(path)


def _new_key(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    try:  # O_EXCL: two processes starting at once keep the first one's key
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_text().strip()
    with os.fdopen(fd, "w") as out:
        out.write(key)
    return key


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

# --- HTTPS (deploy/README.md: TLS is the documented way) ---------------------------------
# Referee links and sessions must not cross the venue's Wi-Fi in clear. Off by default so the
# embedded default works over plain http on a laptop; a deployment turns them on.
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", "False")
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", "False")
LANGUAGE_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", "False")
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", "False")
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", "False")
# HSTS for every subdomain and the browsers' preload list are the domain owner's decision (the
# app often lives on one subdomain of a club's site): `check --deploy` does not ask for them.
SILENCED_SYSTEM_CHECKS = ["security.W005", "security.W021"]
# "HTTP_X_FORWARDED_PROTO,https" behind nginx terminating TLS (deploy/nginx.conf sets it).
_proxy_ssl = envlist("SECURE_PROXY_SSL_HEADER", "")
SECURE_PROXY_SSL_HEADER = tuple(_proxy_ssl) if len(_proxy_ssl) == 2 else None
# /healthz is for the load balancer, which asks over plain http on the inside.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served by the app, not from a CDN
    "csp",
    "django_htmx",
    "players",
    "matches",
    "seasons",
    "ladders",
    "hall",
]

MIDDLEWARE = [
    # A referee link's deal results take the shorter stack below (gouji_tournament/lean.py).
    "gouji_tournament.lean.LeanPathMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # A page asked for while the database restarts answers 503 (gouji_tournament/middleware.py).
    "gouji_tournament.middleware.DatabaseUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # A mirror (SITE_ROLE=mirror) refuses every staff route and every write (hall/guard.py).
    "hall.guard.MirrorGuardMiddleware",
    "django.middleware.common.CommonMiddleware",
    # No control character reaches a view, no id past a column's range a 500 (gouji_tournament/text.py).
    "gouji_tournament.text.CleanTextMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "csp.middleware.CSPMiddleware",
]

# The lean path's stack: what a referee link's JSON deal results need of the list
# above, in its order; tests/api/test_lean_path.py names why each one left out is not needed.
LEAN_MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "gouji_tournament.middleware.DatabaseUnavailableMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "hall.guard.MirrorGuardMiddleware",
    "gouji_tournament.text.CleanTextMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

# --- Content-Security-Policy (django-csp) -----------------------------------------------
# Strict: scripts and styles from this site only (htmx is vendored in static/vendor; inline
# handlers live in static/js/site.js; htmx's own inline indicator style is switched off in
# templates/base.html). /api/docs/ loosens style-src for Swagger UI (gouji_tournament/urls.py).
from csp.constants import NONE, SELF  # noqa: E402

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "frame-ancestors": [NONE],
        "form-action": [SELF],
    },
}

ROOT_URLCONF = "gouji_tournament.urls"
WSGI_APPLICATION = "gouji_tournament.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        # Each game folder keeps its own templates (matches/games/<game>/templates/<game>/...).
        "DIRS": [
            BASE_DIR / "templates",
            *sorted((BASE_DIR / "matches" / "games").glob("*/templates")),
        ],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "hall.context.hall",
            ],
        },
    },
]

# --- Database ---------------------------------------------------------------------------
SQLITE_PATH = Path(os.environ.get("SQLITE_PATH", BASE_DIR / "var" / "db.sqlite3"))
if DATABASE_URL:
    # CI runs its worker with DATABASE_CONN_MAX_AGE=0 so no idle connection blocks dropping the test DB.
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL, conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60"))
        )
    }
    # A connection kept between requests is tested before reuse, so a server survives a
    # PostgreSQL restart: the request after it reconnects instead of failing (tests/faults).
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # psycopg sends the parameters apart from the statement instead of quoting each one into
    # the SQL text in Python (its client-side binding, Django's default): 4-14% less app CPU a
    # deal at the festival bench (docs/performance.md, "Speed III"). It also prepares what a
    # connection runs again and again, which a PgBouncer in transaction mode cannot follow:
    # DATABASE_SERVER_SIDE_BINDING=0 behind one.
    if os.environ.get("DATABASE_SERVER_SIDE_BINDING", "1") == "1":
        DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = True
    # DATABASE_POOL_SIZE=n: each process shares at most n connections among its threads
    # (psycopg's pool, Django's PostgreSQL backend) instead of one per thread; with the health
    # checks above, Django has the pool check a connection when it is taken, so a PostgreSQL
    # restart costs no failed request either.
    # For gunicorn's gthread workers: n about the threads of a worker.
    POOL_SIZE = int(os.environ.get("DATABASE_POOL_SIZE", "0") or 0)
    if POOL_SIZE > 0:
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # the pool keeps the connections
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": min(2, POOL_SIZE),
            "max_size": POOL_SIZE,
            "timeout": 30,
        }
else:
    SQLITE_PATH.parent.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(SQLITE_PATH),
            # Wait for a writer instead of failing at once: the demo's eager tasks and the
            # dev server write from more than one thread.
            # WAL: readers do not wait for the writer, and a commit costs one fsync less
            # (`make demo` loads its event 3x faster).
            # IMMEDIATE: a transaction takes the write lock when it begins. Deferred, a
            # transaction that read first and then wrote could not wait for another writer
            # (SQLite answers "database is locked" at once, whatever the timeout): the 503s
            # of four phones reporting at one laptop.
            "OPTIONS": {
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Celery -----------------------------------------------------------------------------
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
if CELERY_BROKER_URL:
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # The embedded default: tasks run in-process, at once, and raise their errors.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ACKS_LATE = True  # a task killed mid-way is redelivered, so tasks are idempotent
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A task sent while the broker restarts is sent again for up to ~20 s rather than dropped: a
# settlement that never reaches a worker would leave its match unsettled (the fault drills).
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 12,
    "interval_start": 0.2,
    "interval_step": 0.5,
    "interval_max": 2,
}
CELERY_TIMEZONE = "Asia/Shanghai"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# The queue tasks go to and workers read by default; tests/faults gives its own worker a queue
# of its own so the shared CI worker never takes its tasks.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
# JSON, e.g. '{"visibility_timeout": 3600}': with Redis, a task whose worker died unacked is
# handed out again after visibility_timeout seconds (default one hour; tests/faults shortens it).
CELERY_BROKER_TRANSPORT_OPTIONS = json.loads(
    os.environ.get("CELERY_BROKER_TRANSPORT_OPTIONS") or "{}"
)
# Seconds between standings runs while a round's matches complete (the round's last result
# asks at once; a deal that completes no match asks for none); see matches/tasks.py. 2 s keeps
# the standings within 2 s of a match's end at the festival bench for less Celery CPU than 5 s
# cost while every deal asked for a run (docs/performance.md, "Speed III, second pass").
STANDINGS_MIN_INTERVAL = float(os.environ.get("STANDINGS_MIN_INTERVAL", "2"))
# ...or STANDINGS_DUTY_FACTOR times the last run's duration, when longer (matches/tasks.py).
STANDINGS_DUTY_FACTOR = float(os.environ.get("STANDINGS_DUTY_FACTOR", "3"))
# How long the public pages' version stamp may be cached (see matches/public/stamps.py).
PUBLIC_VERSION_SECONDS = float(os.environ.get("PUBLIC_VERSION_SECONDS", "2"))
# The public standings page (each language, page and live fragment) written as files
# after every standings run, for nginx to serve with gzip_static (deploy/nginx.conf,
# matches/public/standings_files.py). The directory nginx's __STANDINGS_DIR__ names; empty: off.
# Uploaded files kept by the app: the photographed score sheets (docs/scoresheets.md). No URL
# serves MEDIA_ROOT: a photo is sent by a view that checks who asks, never by nginx.
MEDIA_ROOT = os.environ.get("MEDIA_ROOT", str(BASE_DIR / "var" / "media"))
#: how many days a score sheet's photo is kept (`manage.py purge_sheet_photos`)
SHEET_PHOTO_RETENTION_DAYS = int(os.environ.get("SHEET_PHOTO_RETENTION_DAYS", "180"))
STANDINGS_FILES_DIR = os.environ.get("STANDINGS_FILES_DIR", str(BASE_DIR / "var" / "standings"))

# --- Live push (matches/push.py) -----------------------------------------------
# Server-sent events to the open pages. LIVE_REDIS_URL (e.g. redis://127.0.0.1:6379/2) shares
# the notices among every web process; unset, they stay in the one process (runserver).
# LIVE_ENABLED=False: no streams (503) and no notices; the pages poll as before.
LIVE_ENABLED = os.environ.get("LIVE_ENABLED", "True").lower() in ("1", "true", "yes")
LIVE_REDIS_URL = os.environ.get("LIVE_REDIS_URL", "")
# A stream ends after this many seconds and the browser opens it again (frees a WSGI thread).
LIVE_STREAM_SECONDS = float(os.environ.get("LIVE_STREAM_SECONDS", "600"))
LIVE_HEARTBEAT_SECONDS = float(os.environ.get("LIVE_HEARTBEAT_SECONDS", "15"))
# The public stamps are compared at most this often per process (matches/events/notify.py).
LIVE_PUBLIC_INTERVAL = float(os.environ.get("LIVE_PUBLIC_INTERVAL", "0.5"))

# --- Cache ------------------------------------------------------------------------------
CACHE_URL = os.environ.get("CACHE_URL", "")
if CACHE_URL:
    CACHES = {
        # RedisCache that misses instead of failing while Redis restarts (gouji_tournament/cache.py)
        "default": {"BACKEND": "gouji_tournament.cache.TolerantRedisCache", "LOCATION": CACHE_URL}
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- Auth -------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Wrong passwords lock the client IP and the account for a while (matches/ratelimit.py).
AUTHENTICATION_BACKENDS = ["matches.ratelimit.LockoutModelBackend"]
# Overrides of matches.ratelimit.DEFAULTS, e.g. {"login_failures": {"limit": 10}}.
RATE_LIMITS = json.loads(os.environ.get("RATE_LIMITS") or "{}")
# Reverse proxies in front of the app that append the client to X-Forwarded-For (0: none).
RATE_LIMIT_PROXIES = int(os.environ.get("RATE_LIMIT_PROXIES", "0"))
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- Internationalisation ---------------------------------------------------------------
LANGUAGE_CODE = "zh-hans"
# Each language is named in itself, so a reader can find their own in the switch.
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Shanghai"
USE_I18N = True
USE_TZ = True

# --- Static files -----------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
# Serve straight from static/ so the demo and tests need no collectstatic step.
WHITENOISE_USE_FINDERS = True

# --- API --------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "matches.api.auth.LimitedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "EXCEPTION_HANDLER": "matches.api.errors.api_exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "gouji-tournament API",
    "DESCRIPTION": "Gou Ji (够级) tournaments: events, pairings, deal results and standings.",
    "VERSION": "1",
    # Swagger UI from drf-spectacular-sidecar's static files: /api/docs/ works offline.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "matches.api.schema.add_error_responses",
    ],
}

# Large enough for a 10,000-action play log, small enough to refuse abuse.
DATA_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
# Uploaded files (registration sheets, play-log files): a file over FILE_UPLOAD_MAX_SIZE is
# dropped while it arrives (gouji_tournament/uploads.py), one under FILE_UPLOAD_MAX_MEMORY_SIZE
# stays in memory. The importer's own limit is 2 MiB (matches/events/importing.py); nginx
# refuses bodies over 4 MiB (deploy/nginx.conf).
FILE_UPLOAD_MAX_SIZE = 2 * 1024 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = 2 * 1024 * 1024
# A phone's photo of a score sheet (matches/views/referee/sheet.py raises the cap for its own
# route; nginx lets such a body through on that route only).
SHEET_PHOTO_MAX_BYTES = 15 * 1024 * 1024
# The desk's stack of sheets: files in one form (Django's own cap on a request's files).
SHEET_STACK_MAX_FILES = 100
DATA_UPLOAD_MAX_NUMBER_FILES = SHEET_STACK_MAX_FILES
FILE_UPLOAD_HANDLERS = [
    "gouji_tournament.uploads.CappedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # Referee-link tokens are masked in every logged path (gouji_tournament/logs.py).
    "filters": {"mask_tokens": {"()": "gouji_tournament.logs.MaskRefereeTokens"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["mask_tokens"]}},
    "loggers": {
        "django.request": {"filters": ["mask_tokens"]},
        "django.server": {
            "handlers": ["console"],
            "filters": ["mask_tokens"],
            "level": "INFO",
            "propagate": False,
        },
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# --- The hall box (docs/hall-box.md) ----------------------------------------------------
# `single` (the default): one server does everything, as before. `box`: the server on the
# hall's LAN where every result is written; it publishes its rows to the mirror. `mirror`: the
# public site on the internet, a read-only copy fed by PostgreSQL logical replication; every
# staff route answers that the event is run from the hall (hall/guard.py).
SITE_ROLE = os.environ.get("SITE_ROLE", "single")
if SITE_ROLE not in ("single", "box", "mirror"):
    raise ImproperlyConfigured(f"SITE_ROLE must be single, box or mirror, not {SITE_ROLE!r}")
if SITE_ROLE == "mirror":
    # Nobody signs in on a mirror: sessions (messages, the language) live in a signed cookie,
    # so not even a session row is written.
    SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
# Where table cards, referee links and staff invitations point (the box's LAN address, e.g.
# http://192.168.1.10); empty: the address the request came to.
STAFF_BASE_URL = os.environ.get("STAFF_BASE_URL", "").rstrip("/")
# Where badges, the projector's find-my-table QR and the poster point (the public site).
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "").rstrip("/")
# The box writes its heartbeat row this often (`manage.py hallbox beat`); the mirror says the
# hall's network is down when the last one it received is older than HALLBOX_STALE_SECONDS.
HALLBOX_BEAT_SECONDS = float(os.environ.get("HALLBOX_BEAT_SECONDS", "10"))
HALLBOX_STALE_SECONDS = float(os.environ.get("HALLBOX_STALE_SECONDS", "45"))
