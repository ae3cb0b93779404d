from django.urls import path

from matches.api import batch, live, public, results, rules

app_name = "api"

urlpatterns = [
    # /api/v1/rules/: stateless checks, same JSON as the command line
    path("rules/replay", rules.replay, name="rules-replay"),
    path("rules/settle", rules.settle, name="rules-settle"),
    path("rules/<str:game>/replay", rules.game_replay, name="rules-game-replay"),
    path("rules/<str:game>/settle", rules.game_settle, name="rules-game-settle"),
    # /api/v1/public/: published events only (matches/api/public.py)
    path("public/events/", public.events, name="public-events"),
    path("public/events/<int:event_id>/", public.event_detail, name="public-event"),
    path("public/events/<int:event_id>/rounds/", public.rounds, name="public-rounds"),
    path(
        "public/events/<int:event_id>/rounds/<int:number>/pairings/",
        public.pairings,
        name="public-pairings",
    ),
    path(
        "public/events/<int:event_id>/features/<int:feature_id>/",
        live.feature_json,
        name="public-feature",
    ),
    path("public/events/<int:event_id>/standings/", public.standings, name="public-standings"),
    # Find my table.
    path("events/<int:event_id>/find", public.find_table, name="find"),
    # deal results (matches/api/results.py)
    path("tables/<int:table_id>", results.table_detail, name="table-detail"),
    path(
        "tables/<int:table_id>/deals/<int:number>/reports",
        results.submit_deal_report,
        name="deal-report-submit",
    ),
    # feature tables, action by action (matches/api/live.py)
    path("tables/<int:table_id>/deals/<int:number>/hands", live.deal_hands, name="live-hands"),
    path("tables/<int:table_id>/deals/<int:number>/actions", live.deal_action, name="live-actions"),
    path("tables/<int:table_id>/deals/<int:number>/finish", live.deal_finish, name="live-finish"),
    path("tables/<int:table_id>/reports/batch", batch.submit_batch, name="deal-report-batch"),
    path("reports/<int:report_id>", results.report_detail, name="report-detail"),
    path("reports/<int:report_id>/confirm", results.confirm_deal_report, name="report-confirm"),
    path("deals/<int:deal_id>/corrections", results.correct_deal, name="deal-correct"),
]
