"""Referee, captain and organiser result pages (included at the site root)."""
from django.urls import path

from matches.views import referee
from matches.views import organiser_results as manage

app_name = "referee"

urlpatterns = [
    # A referee link: no account, one table.
    path("ref/<str:token>/", referee.link_table, name="link-table"),
    path("ref/<str:token>/deals/<int:number>/check", referee.link_check, name="link-check"),
    path("ref/<str:token>/deals/<int:number>/submit", referee.link_submit, name="link-submit"),
    path("ref/<str:token>/reports/<int:report_id>/confirm", referee.link_confirm,
         name="link-confirm"),
    # Signed-in referees and captains.
    path("referee/", referee.home, name="home"),
    path("referee/tables/<int:table_id>/", referee.user_table, name="table-table"),
    path("referee/tables/<int:table_id>/deals/<int:number>/check", referee.user_check,
         name="table-check"),
    path("referee/tables/<int:table_id>/deals/<int:number>/submit", referee.user_submit,
         name="table-submit"),
    path("referee/reports/<int:report_id>/", referee.report_page, name="report"),
    # Organisers.
    path("manage/events/<int:event_id>/results/", manage.event_results, name="manage-event"),
    path("manage/events/<int:event_id>/results/tables/<int:table_id>/", manage.table_results,
         name="manage-table"),
    path("manage/events/<int:event_id>/results/tables/<int:table_id>/deals/<int:number>/correct",
         manage.correct_deal, name="manage-correct"),
    path("manage/events/<int:event_id>/results/tables/<int:table_id>/deals/<int:number>/recheck",
         manage.recheck_deal, name="manage-recheck"),
    path("manage/events/<int:event_id>/results/tables/<int:table_id>/links", manage.create_link,
         name="manage-link-create"),
    path("manage/events/<int:event_id>/results/links/<int:link_id>/revoke", manage.revoke_link,
         name="manage-link-revoke"),
    path("manage/events/<int:event_id>/results/links/<int:link_id>/qr.<str:fmt>", manage.link_qr,
         name="manage-link-qr"),
]
