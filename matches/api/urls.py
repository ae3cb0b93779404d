from django.urls import path

from matches.api import rules

app_name = "api"

urlpatterns = [
    # /api/v1/rules/: stateless checks, same JSON as the command line
    path("rules/replay", rules.gouji_replay, name="rules-replay"),
    path("rules/settle", rules.gouji_settle, name="rules-settle"),
]
