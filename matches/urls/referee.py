"""Referee and captain pages (included at the site root): a referee link's table, and the
pages of signed-in referees and captains."""

from django.urls import path

from matches.views import referee

app_name = "referee"

urlpatterns = [
    # A referee link: no account, one table.
    path("ref/<str:token>/", referee.link_table, name="link-table"),
    path("ref/<str:token>/deals/<int:number>/check", referee.link_check, name="link-check"),
    path("ref/<str:token>/deals/<int:number>/submit", referee.link_submit, name="link-submit"),
    path(
        "ref/<str:token>/reports/<int:report_id>/confirm", referee.link_confirm, name="link-confirm"
    ),
    path("ref/<str:token>/reports/<int:report_id>/play", referee.link_viewer, name="link-viewer"),
    path("ref/<str:token>/reports/<int:report_id>/pin", referee.link_pin, name="link-pin"),
    path(
        "ref/<str:token>/reports/<int:report_id>/stand-in",
        referee.link_stand_in,
        name="link-stand-in",
    ),
    path(
        "ref/<str:token>/reports/<int:report_id>/player-pin",
        referee.link_player_pin,
        name="link-player-pin",
    ),
    path("ref/<str:token>/call", referee.link_call, name="link-call"),
    path("ref/<str:token>/deals/batch", referee.link_batch, name="link-batch"),
    # Signed-in referees and captains.
    path("referee/", referee.home, name="home"),
    path("referee/tables/<int:table_id>/", referee.user_table, name="table-table"),
    path(
        "referee/tables/<int:table_id>/deals/<int:number>/check",
        referee.user_check,
        name="table-check",
    ),
    path(
        "referee/tables/<int:table_id>/deals/<int:number>/submit",
        referee.user_submit,
        name="table-submit",
    ),
    path("referee/tables/<int:table_id>/deals/batch", referee.user_batch, name="table-batch"),
    path(
        "referee/tables/<int:table_id>/reports/<int:report_id>/play",
        referee.user_viewer,
        name="table-viewer",
    ),
    path(
        "referee/tables/<int:table_id>/reports/<int:report_id>/stand-in",
        referee.user_stand_in,
        name="table-stand-in",
    ),
    path(
        "referee/tables/<int:table_id>/unions/<int:union_id>/unlock",
        referee.unlock_pin,
        name="table-unlock",
    ),
    path(
        "referee/calls/<int:call_id>/acknowledge",
        referee.acknowledge_call,
        name="call-acknowledge",
    ),
    path("referee/reports/<int:report_id>/", referee.report_page, name="report"),
    path("referee/unions/<int:union_id>/", referee.union_private, name="union"),
]
