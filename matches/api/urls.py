from django.urls import path

from matches.api import results, rules

app_name = "api"

urlpatterns = [
    # /api/v1/rules/: stateless checks, same JSON as the command line
    path("rules/replay", rules.gouji_replay, name="rules-replay"),
    path("rules/settle", rules.gouji_settle, name="rules-settle"),
    # deal results (matches/api/results.py)
    path("tables/<int:table_id>", results.table_detail, name="table-detail"),
    path("tables/<int:table_id>/deals/<int:number>/reports", results.submit_deal_report,
         name="deal-report-submit"),
    path("reports/<int:report_id>", results.report_detail, name="report-detail"),
    path("reports/<int:report_id>/confirm", results.confirm_deal_report, name="report-confirm"),
    path("deals/<int:deal_id>/corrections", results.correct_deal, name="deal-correct"),
]
