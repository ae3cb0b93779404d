"""POST /api/v1/rules/replay and /api/v1/rules/settle: the deal-record.md JSON in and out."""

from __future__ import annotations

import json

import pytest

SETTLE = "/api/v1/rules/settle"
REPLAY = "/api/v1/rules/replay"

OUTCOME = {
    "format": "gouji-outcome/1",
    "rules": "standard",
    "finish": [3, 1, 5, 2, 4, 6],
    "points": [3, 1],
    "declarations": {},
    "burns": [],
    "suffocated": [],
    "revolution": [],
    "string_three_streak": 0,
}


def post(client, url, body, content_type="application/json"):
    if not isinstance(body, (bytes, str)):
        body = json.dumps(body)
    return client.post(url, data=body, content_type=content_type)


def test_settle_scores_a_string_of_three(client):
    response = post(client, SETTLE, OUTCOME)
    assert response.status_code == 200
    verdict = response.json()
    assert verdict["valid"] is True
    # Union A (1, 3, 5) took 1st, 2nd and 3rd: stringing three scores ±12 (R32).
    assert verdict["union_scores"] == {"A": 12, "B": -12}


def test_settle_reports_an_inconsistency_with_its_rule(client):
    response = post(client, SETTLE, {**OUTCOME, "finish": [1, 1, 5, 2, 4, 6]})
    assert response.status_code == 200
    verdict = response.json()
    assert verdict["valid"] is False
    assert verdict["errors"] and all(e["rule"] and e["code"] for e in verdict["errors"])
    # Exactly the spec's error object: the app's own `params` (numbers for translations) stay inside.
    assert all(set(e) == {"rule", "code", "message"} for e in verdict["errors"])


def test_settle_rejects_an_unknown_field_as_a_bad_document(client):
    response = post(client, SETTLE, {**OUTCOME, "colour": "red"})
    assert response.status_code == 400
    assert response.json() == {
        "valid": False,
        "error": {"code": "bad_document", "message": response.json()["error"]["message"]},
    }


def test_replay_of_an_unreadable_record_is_a_bad_document(client):
    response = post(client, REPLAY, {"format": "gouji-deal/1", "hands": {"1": "33X"}})
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "bad_document"


@pytest.mark.parametrize(
    "body, code, status",
    [
        (b"{not json", "bad_document", 400),
        (b'{"format": "\xff\xfe"}', "bad_document", 400),
        ("[" * 5000 + "]" * 5000, "bad_document", 400),
    ],
    ids=["not-json", "not-utf8", "deeply-nested"],
)
def test_unreadable_bodies_get_a_clear_error_not_a_500(client, body, code, status):
    response = post(client, SETTLE, body)
    assert response.status_code == status
    assert response.json()["error"]["code"] == code


def test_an_oversized_body_is_refused(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    response = post(client, REPLAY, {"format": "gouji-deal/1", "padding": "x" * 2000})
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "too_large"


def test_get_is_not_allowed_and_says_so_in_json(client):
    response = client.get(SETTLE)
    assert response.status_code == 405
    assert response.json()["error"]["code"] == "method_not_allowed"


@pytest.mark.django_db
def test_the_openapi_schema_lists_the_rules_endpoints(client):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    paths = json.loads(response.content)["paths"]
    assert "/api/v1/rules/replay" in paths and "/api/v1/rules/settle" in paths


def test_each_game_has_its_rules_endpoints(client):
    """/rules/<game>/replay and /settle for every game; /rules/replay and /settle stay Gou Ji's."""
    from matches.kernel.games.engines import get_game

    hand = next(iter(get_game("giog").selfplay(1, 3)))
    verdict = post(client, "/api/v1/rules/giog/replay", hand).json()
    assert verdict["valid"] is True and verdict["complete"] is True
    same = post(client, "/api/v1/rules/gouji/settle", OUTCOME).json()
    assert same == post(client, SETTLE, OUTCOME).json()
    assert post(client, "/api/v1/rules/snap/settle", OUTCOME).status_code == 404
