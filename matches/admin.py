"""Simple admin pages for the tournament model (the organiser's own pages come later)."""

from django.contrib import admin

from .models import (
    Deal,
    Event,
    Match,
    MatchSide,
    Registration,
    Round,
    RoundLog,
    Stage,
    Table,
    TableSeat,
    Union,
    UnionMember,
    WorkerProbe,
)


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "venue", "start_date", "entry_type", "game", "rules_frozen_at"]
    list_filter = ["entry_type", "game"]
    search_fields = ["name", "venue"]
    filter_horizontal = ["organisers"]
    inlines = [StageInline]
    # Set when round 1 is published (matches.receivers); never by hand.
    readonly_fields = ["rules_frozen_at"]


class UnionMemberInline(admin.TabularInline):
    model = UnionMember
    extra = 0
    fields = ["player", "order", "is_captain"]
    raw_id_fields = ["player"]


@admin.register(Union)
class UnionAdmin(admin.ModelAdmin):
    list_display = ["name", "event", "club", "round"]
    list_filter = ["event"]
    search_fields = ["name"]
    inlines = [UnionMemberInline]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["event", "union", "player", "status", "seed", "joins_round", "withdrawn_after"]
    list_filter = ["event", "status"]
    raw_id_fields = ["union", "player"]


class RoundLogInline(admin.TabularInline):
    model = RoundLog
    extra = 0
    readonly_fields = ["action", "user", "at", "details"]
    can_delete = False


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "stage", "state", "silent", "seed", "published_at"]
    list_filter = ["state", "event"]
    readonly_fields = ["quality", "seed"]
    inlines = [RoundLogInline]


class TableSeatInline(admin.TabularInline):
    model = TableSeat
    extra = 0
    fields = ["seat", "side", "player", "union"]
    raw_id_fields = ["player", "union"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number"]
    filter_horizontal = ["referees"]
    inlines = [TableSeatInline]


class DealInline(admin.TabularInline):
    model = Deal
    extra = 0


class SideInline(admin.TabularInline):
    model = MatchSide
    extra = 0
    raw_id_fields = ["union", "player", "round"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["round", "table", "completed_at", "points_a", "points_b", "flags"]
    list_filter = ["round__event"]
    raw_id_fields = ["table"]
    inlines = [SideInline, DealInline]


admin.site.register(Stage)
admin.site.register(RoundLog)
admin.site.register(WorkerProbe)

# Deal results live in their own module; importing it registers them.
from matches import admin_results  # noqa: E402,F401
