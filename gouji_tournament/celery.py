"""The Celery application. Its configuration lives in Django settings (CELERY_*)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gouji_tournament.settings")

app = Celery("gouji_tournament")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
