from django.urls import path

from seasons import views

app_name = "seasons"

urlpatterns = [
    path("ratings/", views.rating_list, name="ratings"),
    path("players/<int:player_id>/", views.player_card, name="player"),
    path("series/", views.series_list, name="series-list"),
    path("series/<int:series_id>/", views.series_page, name="series"),
]
