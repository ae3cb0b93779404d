from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MatchesConfig(AppConfig):
    name = "matches"
    verbose_name = _("赛事与对局")

    def ready(self):
        from matches import receivers  # noqa: F401  (connects the signal receivers)
