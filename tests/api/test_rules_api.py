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
    from matches.kernel.games.registry import get_game

    hand = next(iter(get_game("giog").selfplay(1, 3)))
    verdict = post(client, "/api/v1/rules/giog/replay", hand).json()
    assert verdict["valid"] is True and verdict["complete"] is True
    same = post(client, "/api/v1/rules/gouji/settle", OUTCOME).json()
    assert same == post(client, SETTLE, OUTCOME).json()
    assert post(client, "/api/v1/rules/snap/settle", OUTCOME).status_code == 404


# --- the variants (gouji-rules.md §10–14): the CLI and the API answer the same ------------------

EIGHT = {"format": "gouji-outcome/1", "rules": "eight-players", "points": list(range(1, 9))}
TWO_REVOLUTIONS = {"preset": "standard", "two_revolutions": True}


def _cli(kind: str, document: dict, tmp_path) -> tuple[int, dict]:
    import io

    from django.core.management import call_command

    path = tmp_path / f"{kind}.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    try:
        call_command("gouji", kind, str(path), stdout=out)
        status = 0
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    return status, json.loads(out.getvalue())


VARIANT_CASES = [
    # (operation, document, HTTP status, CLI exit, what the verdict says)
    (  # R47/D23: a string of four scores 24
        "settle",
        {**EIGHT, "finish": [1, 2, 3, 4, 5, 6, 7, 8]},
        200,
        0,
        {"valid": True, "union_scores": {"A": 24, "B": -24}},
    ),
    (  # R49/D24: three place tributes at eight seats
        "settle",
        {**EIGHT, "finish": [1, 5, 2, 6, 3, 7, 4, 8]},
        200,
        0,
        {
            "valid": True,
            "tributes": [
                {"from": 8, "to": 1, "kind": "place", "cards": 2},
                {"from": 4, "to": 5, "kind": "place", "cards": 1},
                {"from": 7, "to": 2, "kind": "place", "cards": 1},
            ],
        },
    ),
    (  # R50: one revolutionary at eight seats is 5th
        "settle",
        {**EIGHT, "finish": [5, 1, 6, 4, 2, 3, 7, 8], "revolution": [4], "points": [8]},
        200,
        1,
        {"valid": False, "codes": [("R29", "revolution_place")]},
    ),
    (  # R56: three revolutions void the deal under two_revolutions
        "settle",
        {
            "format": "gouji-outcome/1",
            "rules": TWO_REVOLUTIONS,
            "finish": [4, 5, 1, 2, 3, 6],
            "revolution": [1, 2, 3],
        },
        200,
        1,
        {"valid": False, "codes": [("R56", "deal_void")]},
    ),
    (  # R55: neither opened a point, nobody declared: no point tributes
        "settle",
        {
            "format": "gouji-outcome/1",
            "rules": {"preset": "standard", "point_tributes_cancel": True},
            "finish": [1, 2, 3, 4, 5, 6],
            "points": [],
        },
        200,
        0,
        {
            "valid": True,
            "tributes": [
                {"from": 6, "to": 1, "kind": "place", "cards": 2},
                {"from": 5, "to": 2, "kind": "place", "cards": 1},
            ],
        },
    ),
    (  # D28: players = 8 with six place points is not a rule set
        "settle",
        {"format": "gouji-outcome/1", "rules": {"preset": "standard", "players": 8}},
        400,
        2,
        {"code": "bad_document"},
    ),
    (  # deal-record.md: a seat "7" under six players is unreadable
        "replay",
        {
            "format": "gouji-deal/1",
            "hands": {str(s): "9" for s in range(1, 8)},
            "leader": 1,
            "actions": [],
        },
        400,
        2,
        {"code": "bad_document"},
    ),
    (  # R52: a lighter joker group does not beat
        "replay",
        {
            "format": "gouji-deal/1",
            "rules": "six-decks",
            "hands": {"1": "R3", "2": "4", "3": "5", "4": "BB6", "5": "7", "6": "8"},
            "leader": 1,
            "actions": [{"seat": 1, "cards": "R"}, {"seat": 4, "cards": "BB"}],
        },
        200,
        1,
        {"valid": False, "error": ("R52", "does_not_beat", 1)},
    ),
    (  # R52: a heavier group of another size does
        "replay",
        {
            "format": "gouji-deal/1",
            "rules": "six-decks",
            "hands": {"1": "R3", "2": "4", "3": "5", "4": "BBB6", "5": "7", "6": "8"},
            "leader": 1,
            "actions": [{"seat": 1, "cards": "R"}, {"seat": 4, "cards": "BBB"}],
        },
        200,
        0,
        {"valid": True},
    ),
]


def _deal(rules, hands: list[str], moves: str, **fields) -> dict:
    """A gouji-deal/1 position: hands of seats 1…n, moves as "seat:CARDS" / "seat:pass"."""
    doc = {
        "format": "gouji-deal/1",
        "rules": rules,
        "hands": {str(seat): cards for seat, cards in enumerate(hands, start=1)},
        "leader": 1,
        "actions": [
            {"seat": int(seat), "pass": True}
            if what == "pass"
            else {"seat": int(seat), "cards": what}
            for seat, what in (token.split(":") for token in moves.split())
        ],
    }
    doc.update(fields)
    return doc


def _outcome(rules, finish, points=(), **fields) -> dict:
    return {
        "format": "gouji-outcome/1",
        "rules": rules,
        "finish": finish,
        "points": list(points),
        **fields,
    }


EIGHT_RULES = "eight-players"
ALL8 = range(1, 9)
CANCEL = {"preset": "standard", "point_tributes_cancel": True}
TWO_EIGHT = {"preset": "eight-players", "two_revolutions": True}
BURN_2_5 = [{"burner": 2, "burned": 5, "outcome": "success"}]
BURN_3_5 = [{"burner": 3, "burned": 5, "outcome": "success"}]
SIX_SINGLES = ["3", "4", "5", "6", "7", "8"]

#: the rest of the spec's examples and tables of §10–14, each through the API and the CLI
SPEC_CASES: list[tuple[str, object, int, int, object]] = [
    # R45/D16: at eight seats the head rival is the seat opposite: 5 answers 1's Gou Ji hand,
    # its unbeaten AA opens a point (R20) …
    (
        "replay",
        _deal(EIGHT_RULES, ["KK3", "AA9", "AA", "AA", "AA4", "AA", "AA", "AA"], "1:KK 5:AA 1:pass"),
        200,
        0,
        {"valid": True, "points": [5]},
    ),
    # … and seat 2, a mate sitting next to it, can only burn (R21), not answer
    (
        "replay",
        _deal(EIGHT_RULES, ["KK3", "AA9", "AA", "AA", "AA4", "AA", "AA", "AA"], "1:KK 2:AA"),
        200,
        0,
        {"valid": True, "burns": [{"burner": 2, "burned": 1, "outcome": None}]},
    ),
    # R46/D18: eight players play four packs, never six nor the short deck
    (
        "settle",
        _outcome({"preset": EIGHT_RULES, "decks": 6}, list(ALL8)),
        400,
        2,
        {"code": "bad_document"},
    ),
    (
        "settle",
        _outcome({"preset": EIGHT_RULES, "short_deck": True}, list(ALL8)),
        400,
        2,
        {"code": "bad_document"},
    ),
    # R47/D22: 1st–3rd is no string at eight seats: A 3+2+1+0 = 6, B 0-1-2-3 = -6: 12, not 24
    (
        "settle",
        _outcome(EIGHT_RULES, [1, 2, 3, 5, 4, 6, 7, 8], ALL8),
        200,
        0,
        {"valid": True, "union_scores": {"A": 12, "B": -12}},
    ),
    # R47/R33: 1st and 8th union mates is a draw under the flag
    (
        "settle",
        _outcome(
            {"preset": EIGHT_RULES, "first_last_same_union_draw": True},
            [1, 5, 6, 7, 2, 3, 8, 4],
            ALL8,
        ),
        200,
        0,
        {"valid": True, "union_scores": {"A": 0, "B": 0}},
    ),
    # R47: union_score "own" sums a union's own place points, no string bonus (±6 at most)
    (
        "settle",
        _outcome({"preset": EIGHT_RULES, "union_score": "own"}, list(ALL8), ALL8),
        200,
        0,
        {"valid": True, "union_scores": {"A": 6, "B": -6}},
    ),
    # R49: a string of four: each loser owes its head rival one card, lowest place first
    (
        "settle",
        _outcome(EIGHT_RULES, list(ALL8), ALL8),
        200,
        0,
        {
            "valid": True,
            "tributes": [
                {"from": loser, "to": loser - 4, "kind": "string_three", "cards": 1}
                for loser in (8, 7, 6, 5)
            ],
        },
    ),
    # R49/R41: 7th pays 2nd nothing when they are union mates
    (
        "settle",
        _outcome(EIGHT_RULES, [1, 2, 5, 6, 7, 3, 4, 8], ALL8),
        200,
        0,
        {
            "valid": True,
            "tributes": [
                {"from": 8, "to": 1, "kind": "place", "cards": 2},
                {"from": 3, "to": 5, "kind": "place", "cards": 1},
            ],
        },
    ),
    # R50/D25: a revolutionary whose three mates take 1st–3rd is 4th, completing 串四户 …
    (
        "settle",
        _outcome(EIGHT_RULES, list(ALL8), [1, 2, 3, 5, 6, 7, 8], revolution=[4]),
        200,
        0,
        {"valid": True, "union_scores": {"A": 24, "B": -24}},
    ),
    # … and when the four enemies take 1st–4th it is 5th and its union is strung
    (
        "settle",
        _outcome(EIGHT_RULES, [5, 6, 7, 8, 4, 1, 2, 3], [1, 2, 3, 5, 6, 7, 8], revolution=[4]),
        200,
        0,
        {"valid": True, "union_scores": {"B": 24, "A": -24}},
    ),
    # D11/R48: a successful burner is among 1st–4th at eight seats, not 5th
    (
        "settle",
        _outcome(EIGHT_RULES, [1, 3, 4, 6, 2, 5, 7, 8], ALL8, burns=BURN_2_5),
        200,
        1,
        {"valid": False, "codes": [("D11", "burner_not_top_two")]},
    ),
    # R55/D34: seat 1 declared clear (4 owes it 2), seat 1 owes 4 the plain 1: 4 owes 1
    (
        "settle",
        _outcome(CANCEL, [1, 2, 3, 4, 5, 6], [2, 3, 5, 6], declarations={"1": "clear"}),
        200,
        0,
        {"valid": True, "point_tributes": [(4, 1, 1)]},
    ),
    # R29/R56: two revolutions without the flag void the deal
    (
        "settle",
        _outcome("standard", [3, 5, 1, 2, 4, 6], revolution=[1, 2]),
        200,
        1,
        {"valid": False, "codes": [("R29", "deal_void")]},
    ),
    # D39: with the flag the two take 3rd and 4th, the lower seat 3rd …
    (
        "settle",
        _outcome(TWO_REVOLUTIONS, [4, 3, 1, 2, 5, 6], revolution=[1, 2]),
        200,
        0,
        {"valid": True},
    ),
    (
        "settle",
        _outcome(TWO_REVOLUTIONS, [4, 3, 2, 1, 5, 6], revolution=[1, 2]),
        200,
        1,
        {"valid": False, "codes": [("R56", "revolution_place")] * 2},
    ),
    # … unless the other's union strings: B (4 and 6) 1st and 2nd put seat 2 (B) 3rd
    (
        "settle",
        _outcome(TWO_REVOLUTIONS, [4, 6, 2, 1, 3, 5], revolution=[1, 2]),
        200,
        0,
        {"valid": True},
    ),
    # R56 at eight seats: 4th and 5th
    (
        "settle",
        _outcome(TWO_EIGHT, [2, 5, 3, 1, 6, 4, 7, 8], revolution=[1, 6]),
        200,
        0,
        {"valid": True},
    ),
    (
        "settle",
        _outcome(TWO_EIGHT, [2, 3, 4, 6, 1, 5, 7, 8], revolution=[1, 6]),
        200,
        1,
        {"valid": False, "codes": [("R56", "revolution_place")] * 2},
    ),
    # D37/R48: two revolutions at six seats: a burner can only be 1st (m = 3)
    (
        "settle",
        _outcome(TWO_REVOLUTIONS, [4, 3, 1, 2, 5, 6], revolution=[1, 2], burns=BURN_3_5),
        200,
        1,
        {"valid": False, "codes": [("D11", "burner_not_top_two")]},
    ),
    # R56: each revolutionary's head rival (4 and 5) opens its point automatically
    (
        "settle",
        _outcome(TWO_REVOLUTIONS, [4, 3, 1, 2, 5, 6], revolution=[1, 2]),
        200,
        0,
        {"valid": True, "point_tributes": [(1, 4, 1), (2, 5, 1), (3, 6, 1), (6, 3, 1)]},
    ),
    # D40: two revolutionaries who are head rivals get no point and owe each other the plain 1 …
    (
        "settle",
        _outcome(TWO_REVOLUTIONS, [3, 2, 1, 4, 5, 6], [2, 3, 5, 6], revolution=[1, 4]),
        200,
        0,
        {"valid": True, "point_tributes": [(1, 4, 1), (4, 1, 1)]},
    ),
    # … which cancel under point_tributes_cancel
    (
        "settle",
        _outcome(
            {**TWO_REVOLUTIONS, "point_tributes_cancel": True},
            [3, 2, 1, 4, 5, 6],
            [2, 3, 5, 6],
            revolution=[1, 4],
        ),
        200,
        0,
        {"valid": True, "point_tributes": []},
    ),
    # R56/D37 in a replay: 1 and 2 revolt, their rivals 4 and 5 have points from the start
    (
        "replay",
        _deal(
            TWO_REVOLUTIONS,
            ["33", "44", "9", "T", "J", "Q"],
            "3:9 6:Q",
            revolution=[1, 2],
            leader=3,
        ),
        200,
        0,
        {"valid": True, "points": [4, 5]},
    ),
    # R52/D30: BR (weight 3) beats BB (2), which R11 alone would refuse …
    (
        "replay",
        _deal("six-decks", ["BB3", "4", "5", "BR6", "7", "8"], "1:BB 4:BR"),
        200,
        0,
        {"valid": True},
    ),
    (
        "replay",
        _deal("standard", ["BB3", "4", "5", "BR6", "7", "8"], "1:BB 4:BR"),
        200,
        1,
        {"valid": False, "error": ("R11", "does_not_beat", 1)},
    ),
    # … RRRR beats RR (ZH's example) …
    (
        "replay",
        _deal("six-decks", ["RR3", "4", "5", "RRRR6", "7", "8"], "1:RR 4:RRRR 1:pass"),
        200,
        0,
        {"valid": True},
    ),
    # … and a group on a single 9 keeps R9
    (
        "replay",
        _deal("six-decks", ["93", "RR4", "5", "6", "7", "8"], "1:9 2:RR"),
        200,
        1,
        {"valid": False, "error": ("R9", "size_mismatch", 1)},
    ),
    # R54/D32: under six-decks an unbeaten 2222 opens no point, JJJ2 still does
    (
        "replay",
        _deal("six-decks", ["22223", *SIX_SINGLES[1:]], "1:2222 4:pass"),
        200,
        0,
        {"valid": True, "points": []},
    ),
    (
        "replay",
        _deal("standard", ["22223", *SIX_SINGLES[1:]], "1:2222 4:pass"),
        200,
        0,
        {"valid": True, "points": [1]},
    ),
    (
        "replay",
        _deal("six-decks", ["JJJ23", *SIX_SINGLES[1:]], "1:JJJ2 4:pass"),
        200,
        0,
        {"valid": True, "points": [1]},
    ),
]


@pytest.mark.parametrize(
    "operation, document, status, exit_code, expected", VARIANT_CASES + SPEC_CASES
)
def test_the_variants_through_the_api_and_the_command_line(
    client, tmp_path, operation, document, status, exit_code, expected
):
    response = post(client, SETTLE if operation == "settle" else REPLAY, document)
    assert response.status_code == status
    verdict = response.json()
    code, by_cli = _cli(operation, document, tmp_path)
    assert code == exit_code and by_cli == verdict
    if "code" in expected:
        assert verdict["error"]["code"] == expected["code"]
        return
    assert verdict["valid"] is expected["valid"]
    if "union_scores" in expected:
        assert verdict["union_scores"] == expected["union_scores"]
    if "tributes" in expected:
        assert verdict["tributes"] == expected["tributes"]
    if "points" in expected:
        assert verdict["points"] == expected["points"]
    if "burns" in expected:
        assert verdict["burns"] == expected["burns"]
    if "point_tributes" in expected:
        owed = [
            (t["from"], t["to"], t["cards"]) for t in verdict["tributes"] if t["kind"] == "point"
        ]
        assert owed == expected["point_tributes"]
    if "codes" in expected:
        assert [(e["rule"], e["code"]) for e in verdict["errors"]] == expected["codes"]
    if "error" in expected:
        error = verdict["error"]
        assert (error["rule"], error["code"], error["action"]) == expected["error"]


def test_a_self_played_eight_player_deal_replays_through_the_api(client):
    from matches.games.gouji.engine.selfplay import selfplay

    (doc,) = selfplay(1, 7, "eight-players")
    verdict = post(client, REPLAY, doc).json()
    assert verdict["valid"] and verdict["complete"] and verdict["mismatches"] == []
    assert sorted(verdict["finish"]) == list(range(1, 9))
