"""Players and their clubs. Unions belong to an event and live in matches/models/event.py."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Club(models.Model):
    name = models.CharField(_("名称"), max_length=120, unique=True)
    city = models.CharField(_("城市"), max_length=60, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("俱乐部")
        verbose_name_plural = _("俱乐部")

    def __str__(self):
        return self.name


class Player(models.Model):
    name = models.CharField(_("姓名"), max_length=120)
    name_zh = models.CharField(_("中文名"), max_length=60, blank=True)
    club = models.ForeignKey(
        Club,
        verbose_name=_("俱乐部"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    # Optional: events that check identity at the door record it; nothing else needs it.
    id_number = models.CharField(_("证件号"), max_length=40, blank=True)
    contact = models.CharField(_("联系方式"), max_length=120, blank=True)
    # Optional: a club or league's member number; registration and import match a known
    # player by it before name and club (seasons/identity.py).
    member_number = models.CharField(_("会员号"), max_length=40, blank=True, db_index=True)

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("选手")
        verbose_name_plural = _("选手")

    def __str__(self):
        if self.name_zh and self.name_zh != self.name:
            return f"{self.name} ({self.name_zh})"
        return self.name
