from django.contrib import admin

from .models import Club, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "name_zh", "club", "contact"]
    list_filter = ["club"]
    search_fields = ["name", "name_zh", "id_number"]
