"""Referee and captain pages (included at the site root): a referee link's table, and the
pages of signed-in referees and captains, grouped by their address."""

from django.urls import URLPattern, URLResolver, include, path

from matches.views import referee

app_name = "referee"

#: ref/<token>/…: a referee link, no account, one table
link_urls: list[URLPattern | URLResolver] = [
    path("", referee.link_table, name="link-table"),
    path("deals/<int:number>/check", referee.link_check, name="link-check"),
    path("deals/<int:number>/submit", referee.link_submit, name="link-submit"),
    path("reports/<int:report_id>/confirm", referee.link_confirm, name="link-confirm"),
    path("reports/<int:report_id>/play", referee.link_viewer, name="link-viewer"),
    path("reports/<int:report_id>/pin", referee.link_pin, name="link-pin"),
    path("reports/<int:report_id>/stand-in", referee.link_stand_in, name="link-stand-in"),
    path("reports/<int:report_id>/player-pin", referee.link_player_pin, name="link-player-pin"),
    path("call", referee.link_call, name="link-call"),
    path("announcements", referee.link_announcements, name="link-announcements"),
    path("deals/batch", referee.link_batch, name="link-batch"),
]

#: referee/tables/<table_id>/…: a table of a signed-in referee or captain
table_urls: list[URLPattern | URLResolver] = [
    path("", referee.user_table, name="table-table"),
    path("deals/<int:number>/check", referee.user_check, name="table-check"),
    path("deals/<int:number>/submit", referee.user_submit, name="table-submit"),
    path("deals/batch", referee.user_batch, name="table-batch"),
    path("announcements", referee.user_announcements, name="table-announcements"),
    path("reports/<int:report_id>/play", referee.user_viewer, name="table-viewer"),
    path("reports/<int:report_id>/stand-in", referee.user_stand_in, name="table-stand-in"),
    path("unions/<int:union_id>/unlock", referee.unlock_pin, name="table-unlock"),
]

urlpatterns = [
    path("ref/<str:token>/", include(link_urls)),
    path("referee/", referee.home, name="home"),
    path("referee/announcements/", referee.home_announcements, name="home-announcements"),
    path("referee/tables/<int:table_id>/", include(table_urls)),
    path(
        "referee/calls/<int:call_id>/acknowledge", referee.acknowledge_call, name="call-acknowledge"
    ),
    path("referee/reports/<int:report_id>/", referee.report_page, name="report"),
    path("referee/unions/<int:union_id>/", referee.union_private, name="union"),
]
