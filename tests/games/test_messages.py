"""Every error code an engine can return has a message in zh-hans and in English, with the
numbers of the error filled in (issue 16); so has every rule id and every refusal of the results
service.

The codes are found by reading the sources: each `RuleViolation(rule, "code", message, **params)`
or `_error(rule, "code", message, **params)` call and each `{"code": "...", "params": {...}}`
literal. For each call the numbers it gives are read too, and a message may only name numbers
that every call of its code gives."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from django.utils import translation

from matches.kernel.games.registry import adapter_named
from matches.results.messages import REFUSALS, localized, refusal_text

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "matches" / "games"
HAN = re.compile(r"[\u4e00-\u9fff]")
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
#: Helpers outside a replay, never reached from a report: their calls name no seat.
NOT_FROM_A_REPORT = {("gouji/engine/cards.py", "cards_not_held")}
#: `**at` in Gou Ji's burn checks: the burn's number, its burner and the burned seat.
SPREAD = {"at": {"burn", "burner", "burned"}}


def _code_calls(tree: ast.AST):
    """(rule, code, param names) of every RuleViolation/_error call and code dict literal."""
    params: set | None  # None: passed on from the engine's error
    rule: ast.expr | None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name not in ("RuleViolation", "_error") or len(node.args) < 2:
                continue
            code = node.args[1]
            if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
                continue
            params = set()
            for keyword in node.keywords:
                if keyword.arg is None:
                    params |= SPREAD.get(getattr(keyword.value, "id", ""), set())
                else:
                    params.add(keyword.arg)
            rule = node.args[0]
            yield (rule.value if isinstance(rule, ast.Constant) else None), code.value, params
        elif isinstance(node, ast.Dict):
            keys = [k.value if isinstance(k, ast.Constant) else None for k in node.keys]
            if "code" not in keys or "message" not in keys:
                continue  # not an error (a deal viewer's step events have codes too)
            code = node.values[keys.index("code")]
            if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
                continue
            params = set()
            if "params" in keys:
                given = node.values[keys.index("params")]
                if isinstance(given, ast.Dict):
                    params = {k.value for k in given.keys if isinstance(k, ast.Constant)}
                else:
                    params = None  # passed on from the engine's error: checked there
            rule = node.values[keys.index("rule")] if "rule" in keys else None
            yield (rule.value if isinstance(rule, ast.Constant) else None), code.value, params


def _parse(text: str) -> ast.AST:
    """`ast.parse`, tried again on CPython 3.11's "SystemError: AST constructor recursion depth
    mismatch". 3.11 keeps the AST builder's depth counter per interpreter, not per thread
    (python/cpython#106905, fixed in later releases), so a traceback printed at the same moment by a live
    server's thread (3.11 parses source lines to draw its carets) can break a parse here. The
    source is fine: a second parse succeeds."""
    for _attempt in range(4):
        try:
            return ast.parse(text)
        except SystemError as error:
            if "recursion depth mismatch" not in str(error):
                raise
    return ast.parse(text)


def game_calls(game: str) -> list[tuple[str, str | None, str, set | None]]:
    """(source, rule, code, params) for the engine and the game's Django side."""
    calls = []
    for source in sorted((GAMES / game).rglob("*.py")):
        if "selfplay" in source.name:
            continue
        relative = str(source.relative_to(GAMES))
        for rule, code, params in _code_calls(_parse(source.read_text(encoding="utf-8"))):
            calls.append((relative, rule, code, params))
    return calls


def engine_codes(game: str) -> set[str]:
    return {code for source, _r, code, _p in game_calls(game) if "/engine/" in source}


@pytest.mark.parametrize("game", ["gouji", "giog"])
def test_the_scan_finds_the_engines_codes_and_their_numbers(game):
    known = {
        "gouji": {"burn_self", "finish_not_permutation", "does_not_beat", "forced_place"},
        "giog": {"won_total", "not_in_hand", "must_compete"},
    }[game]
    assert known <= engine_codes(game)
    given = {code: params for _s, _r, code, params in game_calls(game)}
    if game == "gouji":
        assert given["burner_not_top_two"] == {"burn", "burner", "burned", "top", "place"}
    else:
        assert given["won_total"] == {"total", "players", "in_play"}


@pytest.mark.parametrize("game", ["gouji", "giog"])
def test_every_code_has_a_chinese_and_an_english_message_naming_only_numbers_it_is_given(game):
    adapter = adapter_named(game)
    # bad_document and the like are refusals of the service (REFUSALS, tested below).
    codes = {code for _s, _r, code, _p in game_calls(game)} - {"illegal_play"} - set(REFUSALS)
    missing, untranslated, unknown_numbers = [], [], []
    for code in sorted(codes):
        template = adapter.messages.get(code)
        if template is None:
            missing.append(code)
            continue
        with translation.override("zh-hans"):
            chinese = str(template)
        with translation.override("en"):
            english = str(template)
        if not HAN.search(chinese):
            missing.append(code)
        elif english == chinese or HAN.search(english):
            untranslated.append(code)
        elif set(PLACEHOLDER.findall(chinese)) != set(PLACEHOLDER.findall(english)):
            untranslated.append(f"{code} (numbers differ)")
        named = set(PLACEHOLDER.findall(chinese))
        for source, _rule, call_code, params in game_calls(game):
            if call_code != code or params is None or (source, code) in NOT_FROM_A_REPORT:
                continue
            if not named <= params:
                unknown_numbers.append(f"{code} at {source}: {sorted(named - params)}")
    assert not missing, f"{game}: no zh-hans message for {missing}"
    assert not untranslated, f"{game}: no English message for {untranslated}"
    assert not unknown_numbers, f"{game}: messages name numbers not given: {unknown_numbers}"


@pytest.mark.parametrize("game", ["gouji", "giog"])
def test_every_rule_id_an_error_carries_has_a_name_in_both_languages(game):
    adapter = adapter_named(game)
    rules = {rule for _s, rule, _c, _p in game_calls(game) if rule}
    assert rules, game
    for rule in sorted(rules):
        name = adapter.rule_names.get(rule)
        assert name is not None, f"{game}: rule {rule} has no name"
        with translation.override("zh-hans"):
            assert HAN.search(str(name)), rule
        with translation.override("en"):
            assert not HAN.search(str(name)), f"{game}: rule {rule} has no English name"


def test_every_refusal_of_the_results_service_has_both_languages():
    raised = set()
    for source in (ROOT / "matches").rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        raised |= set(re.findall(r'ResultError\(\s*"([a-z_]+)"', text))
    assert {"wrong_pin", "pin_locked", "previous_deal_open"} <= raised
    assert raised <= {key.split(":")[0] for key in REFUSALS}, raised - set(REFUSALS)
    for key, template in REFUSALS.items():
        with translation.override("zh-hans"):
            chinese = str(template)
        with translation.override("en"):
            english = str(template)
        assert HAN.search(chinese) and not HAN.search(english), key
        assert set(PLACEHOLDER.findall(chinese)) == set(PLACEHOLDER.findall(english)), key


def test_numbers_are_filled_in_in_both_languages():
    adapter = adapter_named("gouji")
    error = {
        "rule": "D11",
        "code": "burner_not_top_two",
        "message": "burn 1 (seat 4 burning seat 2): …",
        "params": {"burn": 1, "burner": 4, "burned": 2, "top": 2, "place": 5},
    }
    with translation.override("zh-hans"):
        assert adapter.describe_error(error) == (
            "烧 1（4 号座烧 2 号座）：够级生效时烧牌者出完只能是前 2 名，不能是第 5 名"
        )
        assert str(adapter.rule_names["D11"]) == "烧牌者的名次"
        assert adapter.describe_error({**error, "action": 11}).startswith("牌谱第 12 步：")
        assert refusal_text("pin_locked", {"minutes": 3}) == (
            "队长密码输错太多次，已锁定 3 分钟。本桌裁判或组织者可以解锁，裁判也可以代队长确认。"
        )
    with translation.override("en"):
        text = adapter.describe_error(error)
        assert text.startswith("Burn 1 (seat 4 burning seat 2)") and "place 5" in text
        assert refusal_text("pin_locked", {"minutes": 1}).startswith("Too many wrong PINs")
    # A number an older report did not keep shows as "?", never a crash.
    with translation.override("en"):
        assert "?" in adapter.describe_error({**error, "params": {}})


def test_a_burn_error_is_chinese_with_its_numbers(setup):
    from matches.results.common import check_report, rejection

    summary = {
        "format": "gouji-outcome/1",
        "finish": [1, 2, 3, 5, 4, 6],
        "points": [4],
        "burns": [{"burner": 4, "burned": 1, "outcome": "success"}],
    }
    checked = check_report(setup.match, 1, summary, None)
    assert not checked.accepted
    refused = rejection(checked)
    adapter = adapter_named("gouji")
    with translation.override("zh-hans"):
        data = localized(refused, adapter)
    codes = [e["code"] for e in data["errors"]]
    assert "burner_not_top_two" in codes
    message = data["errors"][codes.index("burner_not_top_two")]["message"]
    assert message.startswith("烧 1（4 号座烧 1 号座）") and "第 5 名" in message


def test_the_api_answers_a_rule_error_in_the_requests_language(db):
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
    assert zh_error["message"] == "出完顺序（1, 1, 3, 4, 5, 6）须包含本桌全部座位，每个座位一次"
    assert en_error["message"].startswith("The finishing order (1, 1, 3, 4, 5, 6) must list")
    assert "[1, 1, 3" in en_error["engine_message"]  # the engine's own text, with its numbers
    assert zh.json()["error"]["code"] == "inconsistent_result"
    # A refusal of the service: its code and the message in the request's language.
    deal2 = f"/api/v1/tables/{table.pk}/deals/2/reports"
    body = json.dumps({"summary": {"format": "gouji-outcome/1", "finish": [1, 2, 3, 4, 5, 6]}})
    zh = client.post(deal2, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="zh-hans")
    en = client.post(deal2, body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert zh.status_code == en.status_code == 409
    assert zh.json()["error"]["code"] == en.json()["error"]["code"] == "previous_deal_open"
    assert zh.json()["error"]["message"] == "第 1 局尚无成绩或有争议：先报第 1 局。"
    assert (
        en.json()["error"]["message"]
        == "Deal 1 has no result yet, or is disputed: report deal 1 first."
    )
    assert zh.json()["error"]["rule"] == "R35"
