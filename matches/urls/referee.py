"""Referee and captain pages (included at the site root): a referee link's table, and the
pages of signed-in referees and captains, grouped by their address. A view of a table serves
both routes to it (`matches/views/referee/access.py`, `at_table`)."""

from django.urls import URLPattern, URLResolver, include, path

from matches.views.referee import batch, confirm, floor, live, sheet, table, union, viewer

app_name = "referee"

#: ref/<token>/…: a referee link, no account, one table
link_urls: list[URLPattern | URLResolver] = [
    path("", table.table_page, name="link-table"),
    path("deals/<int:number>/check", table.check_deal, name="link-check"),
    path("deals/<int:number>/submit", table.submit_deal, name="link-submit"),
    path("reports/<int:report_id>/confirm", confirm.link_answer, name="link-confirm"),
    path("reports/<int:report_id>/play", viewer.deal_viewer, name="link-viewer"),
    path("reports/<int:report_id>/pin", confirm.captain_pin, name="link-pin"),
    path("reports/<int:report_id>/stand-in", confirm.stand_in, name="link-stand-in"),
    path("reports/<int:report_id>/player-pin", confirm.player_pin, name="link-player-pin"),
    path("call", floor.call_referee, name="link-call"),
    path("announcements", floor.table_announcements, name="link-announcements"),
    path("deals/batch", batch.submit_batch, name="link-batch"),
    path("photo", sheet.upload_photo, name="link-photo"),
    path("photos/<int:photo_id>.jpg", sheet.photo_image, name="link-photo-image"),
    # A feature table's operator (matches/views/referee/live.py).
    path("live/", live.operator_page, name="link-live"),
    path("live/deals/<int:number>/hands", live.operator_hands, name="link-live-hands"),
    path("live/deals/<int:number>/actions", live.operator_action, name="link-live-action"),
    path("live/deals/<int:number>/undo", live.operator_undo, name="link-live-undo"),
    path("live/deals/<int:number>/end", live.operator_end, name="link-live-end"),
    path("live/deals/<int:number>/board", live.operator_board, name="link-live-board"),
    path("live/note", live.operator_note, name="link-live-note"),
]

#: referee/tables/<table_id>/…: a table of a signed-in referee or captain
table_urls: list[URLPattern | URLResolver] = [
    path("", table.table_page, name="table-table"),
    path("deals/<int:number>/check", table.check_deal, name="table-check"),
    path("deals/<int:number>/submit", table.submit_deal, name="table-submit"),
    path("deals/batch", batch.submit_batch, name="table-batch"),
    path("photo", sheet.upload_photo, name="table-photo"),
    path("photos/<int:photo_id>.jpg", sheet.photo_image, name="table-photo-image"),
    path("announcements", floor.table_announcements, name="table-announcements"),
    path("reports/<int:report_id>/play", viewer.deal_viewer, name="table-viewer"),
    path("reports/<int:report_id>/stand-in", confirm.stand_in, name="table-stand-in"),
    path("unions/<int:union_id>/unlock", confirm.unlock_pin, name="table-unlock"),
]

urlpatterns = [
    path("ref/<str:token>/", include(link_urls)),
    path("referee/", floor.home, name="home"),
    path("referee/announcements/", floor.home_announcements, name="home-announcements"),
    path("referee/tables/<int:table_id>/", include(table_urls)),
    path(
        "referee/calls/<int:call_id>/acknowledge", floor.acknowledge_call, name="call-acknowledge"
    ),
    path("referee/reports/<int:report_id>/", confirm.report_page, name="report"),
    path("referee/unions/<int:union_id>/", union.union_private, name="union"),
]
