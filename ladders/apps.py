from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LaddersConfig(AppConfig):
    name = "ladders"
    verbose_name = _("擂台赛")
