import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")
application = get_wsgi_application()


def _warm_up() -> None:
    """Import the URL configuration (every view, DRF, the games' adapters) and the template
    engine now, in the worker's start, instead of in its first requests: a profile of
    the festival bench found a fifth of gunicorn's first-round CPU in imports made while
    referees waited for their first answers. Nothing here touches the database."""
    # Besides the URL configuration: what the first referee requests still imported (issue
    # 40's profile under gunicorn): the cache's backend with its Redis client (built on first
    # use), each game's adapter (the registry imports them by name), and the session and
    # message storages the middleware use.
    import django.contrib.messages.storage.fallback  # noqa: F401
    import django.contrib.sessions.serializers  # noqa: F401
    from django.conf import settings
    from django.conf.urls.i18n import is_language_prefix_patterns_used
    from django.core.cache import caches
    from django.template import engines
    from django.urls import get_resolver

    import matches.results.confirm  # noqa: F401
    import matches.results.submit  # noqa: F401
    import matches.store.chain  # noqa: F401
    import matches.tasks  # noqa: F401 (the settlement's enqueue, called on commit)
    from matches.kernel.games.registry import ADAPTERS, adapter_named

    get_resolver().url_patterns  # noqa: B018 (imports every URL module and its views)
    is_language_prefix_patterns_used(settings.ROOT_URLCONF)
    for engine in engines.all():
        getattr(getattr(engine, "engine", None), "template_loaders", None)
    caches["default"]  # noqa: B018 (imports the backend; connects on first use, not here)
    for name in ADAPTERS:
        adapter_named(name)
    # Celery's app, finalized with its message machinery (about 70 ms, once): the first
    # standings run a worker queues would pay it. Neither connects to the broker.
    from gouji_tournament.celery import app as celery_app

    celery_app.finalize()
    celery_app.producer_pool  # noqa: B018


if os.environ.get("GOUJI_WARM_UP", "1") != "0":
    _warm_up()
