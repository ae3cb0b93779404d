"""The live streams (server-sent events) of `matches/views/live.py`, under /live/."""

from django.urls import path

from matches.views import live

app_name = "live"

urlpatterns = [
    path("events/<int:event_id>/", live.public_event_stream, name="event"),
    path("tables/<int:match_id>/", live.public_table_stream, name="table"),
    path("staff/<int:event_id>/", live.staff_stream, name="staff"),
    path("referee/", live.referee_stream, name="referee"),
    path("ref/<str:token>/", live.link_stream, name="link"),
    path("players/<str:token>/", live.player_stream, name="player"),
]
