import json
from django.db import connection
from django.test.utils import CaptureQueriesContext
from matches.models import RefereeLink, Event
from tests.results.conftest import build_table

def test_counts(db, client):
    round_, table, match = build_table(result_confirmation=Event.Confirmation.REFEREE)
    a = RefereeLink.objects.create(table=table); b = RefereeLink.objects.create(table=table)
    body = {"summary": {"format": "gouji-outcome/1", "finish": [1, 2, 3, 4, 5, 6], "points": [3]}}
    with CaptureQueriesContext(connection) as q1:
        r = client.post(f"/api/v1/tables/{table.pk}/deals/1/reports", data=json.dumps(body), content_type="application/json",
                        HTTP_AUTHORIZATION=f"Referee {a.token}", HTTP_IDEMPOTENCY_KEY="k1")
    assert r.status_code == 201, r.content
    rid = r.json()["report"]["id"]
    with CaptureQueriesContext(connection) as q2:
        r = client.post(f"/api/v1/reports/{rid}/confirm", data=json.dumps({"agrees": True}), content_type="application/json",
                        HTTP_AUTHORIZATION=f"Referee {b.token}")
    assert r.status_code == 200, r.content
    print("\nSUBMIT", len(q1.captured_queries)); [print("  ", x["sql"][:150]) for x in q1.captured_queries]
    print("CONFIRM", len(q2.captured_queries)); [print("  ", x["sql"][:150]) for x in q2.captured_queries]
