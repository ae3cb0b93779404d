from django.urls import path

from seasons import views

app_name = "seasons-manage"

urlpatterns = [
    path("series/", views.manage_series_list, name="series-list"),
    path("series/<int:series_id>/", views.manage_series, name="series"),
    path("series/<int:series_id>/delete/", views.delete_series, name="series-delete"),
    path("players/", views.manage_players, name="players"),
    path("players/merges/<int:merge_id>/split/", views.split_merge, name="split"),
]
