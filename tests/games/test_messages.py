"""Every error code an engine can return has a message in zh-hans and in English (issue 16).

The codes are found by reading the engines' sources: `RuleViolation("R21", "burn_self", ...)`
style calls (a rule id, then the code), `code="..."` keywords and `"code": "..."` literals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from matches.games.registry import adapter_named

GAMES = Path(__file__).resolve().parents[2] / "matches" / "games"
CALL = re.compile(r'\(\s*"(?:[A-Z]{1,2}\d+[a-z]?)",\s*"([a-z][a-z0-9_]*)"')
KEYWORD = re.compile(r'\bcode\s*=\s*"([a-z][a-z0-9_]*)"|"code"\s*:\s*"([a-z][a-z0-9_]*)"')


def engine_codes(game: str) -> set[str]:
    codes = set()
    for source in (GAMES / game / "engine").rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        codes.update(CALL.findall(text))
        codes.update(a or b for a, b in KEYWORD.findall(text))
    return codes


@pytest.mark.parametrize("game", ["gouji", "giog"])
def test_the_scan_finds_the_engines_codes(game):
    known = {
        "gouji": {"burn_self", "finish_not_permutation", "does_not_beat"},
        "giog": {"won_total", "not_in_hand", "must_compete"},
    }[game]
    assert known <= engine_codes(game)


@pytest.mark.parametrize("game", ["gouji", "giog"])
def test_every_engine_code_has_a_chinese_and_an_english_message(game):
    adapter = adapter_named(game)
    missing, untranslated = [], []
    for code in sorted(engine_codes(game)):
        with translation.override("zh-hans"):
            chinese = adapter.message(code)
        with translation.override("en"):
            english = adapter.message(code)
        if not chinese or not re.search(r"[\u4e00-\u9fff]", chinese):
            missing.append(code)
        elif not english or english == chinese or re.search(r"[\u4e00-\u9fff]", english):
            untranslated.append(code)
    assert not missing, f"{game}: no zh-hans message for {missing}"
    assert not untranslated, f"{game}: no English message for {untranslated}"


def test_the_api_answers_a_rule_error_in_the_requests_language(db):
    import json

    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    from tests.personas import make_setup
    from tests.results.conftest import BAD_FINISH

    setup = make_setup()
    table, organiser = setup.table, setup.organiser
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    url = f"/api/v1/tables/{table.pk}/deals/1/reports"
    body = json.dumps({"summary": BAD_FINISH})
    zh = client.post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    en = client.post(url, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert zh.status_code == en.status_code == 422
    zh_error, en_error = zh.json()["error"]["errors"][0], en.json()["error"]["errors"][0]
    assert zh_error["code"] == en_error["code"] == "finish_not_permutation"
    assert zh_error["message"] == "出完顺序须包含全部六个座位，每个座位一次"
    assert en_error["message"].startswith("The finishing order must list all six seats")
    assert "[1, 1, 3" in en_error["engine_message"]  # the engine's own text, with its numbers
