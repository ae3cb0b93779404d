from django.urls import path

from matches.views import organiser as manage

app_name = "manage"

urlpatterns = [
    path("", manage.events, name="events"),
    path("events/<int:event_id>/", manage.dashboard, name="dashboard"),
    path("events/<int:event_id>/progress/", manage.progress, name="progress"),
    path("events/<int:event_id>/publish/", manage.toggle_published, name="toggle-published"),
    path("events/<int:event_id>/recompute/", manage.recompute, name="recompute"),
    path("events/<int:event_id>/rounds/draw/", manage.draw_round, name="draw"),
    path("events/<int:event_id>/rounds/<int:number>/<str:action>/", manage.round_action, name="round-action"),
    path("events/<int:event_id>/rounds/<int:number>/tables.pdf", manage.table_cards, name="table-cards"),
    path("events/<int:event_id>/rounds/<int:number>/pairings.pdf", manage.pairings_pdf, name="pairings-pdf"),
    path("events/<int:event_id>/checkin/", manage.checkin, name="checkin"),
    path("events/<int:event_id>/register/", manage.register, name="register"),
    path("events/<int:event_id>/import/", manage.import_entries, name="import"),
    path("events/<int:event_id>/export/<str:what>.<str:fmt>", manage.export, name="export"),
]
