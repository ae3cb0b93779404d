from django.urls import path

from seasons import views

app_name = "seasons-manage"

urlpatterns = [
    path("series/", views.manage_series_list, name="series-list"),
    path("series/<int:series_id>/", views.manage_series, name="series"),
    path("series/<int:series_id>/delete/", views.delete_series, name="series-delete"),
    path(
        "series/<int:series_id>/organisers/", views.add_series_organiser, name="series-organisers"
    ),
    path(
        "series/<int:series_id>/organisers/<int:user_id>/remove/",
        views.remove_series_organiser,
        name="series-organiser-remove",
    ),
    path("series/deleted/<int:log_id>/restore/", views.restore_series, name="series-restore"),
    path("players/", views.manage_players, name="players"),
    path("players/merge/", views.merge_confirm, name="merge"),
    path("players/merges/<int:merge_id>/split/", views.split_merge, name="split"),
    path(
        "players/requests/<int:request_id>/<str:answer>/",
        views.answer_merge_request,
        name="merge-answer",
    ),
]
