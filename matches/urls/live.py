"""The live streams (server-sent events) of `matches/views/live.py`, under /live/."""

from django.urls import path

from matches.views import live, live_features

app_name = "live"

urlpatterns = [
    path("events/<int:event_id>/", live.public_event_stream, name="event"),
    path("tables/<int:match_id>/", live.public_table_stream, name="table"),
    path("staff/<int:event_id>/", live.staff_stream, name="staff"),
    path("referee/", live.referee_stream, name="referee"),
    path("ref/<str:token>/", live.link_stream, name="link"),
    path("players/<str:token>/", live.player_stream, name="player"),
    # Feature tables: notices held until the table's delay has passed.
    path("events/<int:event_id>/features/", live_features.features_stream, name="features"),
    path(
        "events/<int:event_id>/features/<int:feature_id>/",
        live_features.feature_stream,
        name="feature",
    ),
]
