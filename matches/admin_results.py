"""Admin pages for deal results, referee links and player accounts.

Imported from `matches/admin.py` (`from matches import admin_results  # noqa: F401`) so Django's
admin autodiscovery registers them. Reports and confirmations are read-only here: a result is
never edited in place, an organiser corrects it on the results pages (a new row).
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from matches.models import Confirmation, DealReport, PlayerAccount, RefereeLink


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ConfirmationInline(admin.TabularInline):
    model = Confirmation
    extra = 0
    can_delete = False
    readonly_fields = ["user", "referee_link", "role", "agrees", "note", "at"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(DealReport)
class DealReportAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "deal",
        "kind",
        "state",
        "score_a",
        "score_b",
        "submitted_by",
        "via",
        "created_at",
    ]
    list_filter = ["state", "kind", "via", "deal__match__round__event"]
    search_fields = ["reason", "submitted_by__username"]
    raw_id_fields = ["deal", "replaces", "referee_link", "submitted_by"]
    inlines = [ConfirmationInline]


@admin.register(RefereeLink)
class RefereeLinkAdmin(admin.ModelAdmin):
    list_display = ["id", "table", "label", "created_by", "created_at", "revoked_at"]
    list_filter = ["table__round__event"]
    raw_id_fields = ["table", "created_by"]
    readonly_fields = ["token", "created_at"]
    actions = ["revoke"]

    @admin.action(description=_("收回所选的裁判链接"))
    def revoke(self, request, queryset):
        for link in queryset:
            link.revoke()


@admin.register(PlayerAccount)
class PlayerAccountAdmin(admin.ModelAdmin):
    list_display = ["user", "player"]
    search_fields = ["user__username", "player__name", "player__name_zh"]
    raw_id_fields = ["user", "player"]
