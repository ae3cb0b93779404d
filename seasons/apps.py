from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonsConfig(AppConfig):
    name = "seasons"
    verbose_name = _("赛季与等级分")

    def ready(self):
        from seasons import receivers  # noqa: F401  (connects the signal receivers)
