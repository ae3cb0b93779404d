"""`python manage.py gouji replay FILE|-` and `gouji selfplay` (deal-record.md, CLI)."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from tests.games.gouji.engine.positions import deal

SINGLES = ["39", "49", "59", "69", "79", "89"]


def run_replay(tmp_path, monkeypatch, text: str, use_stdin: bool = False):
    out = io.StringIO()
    if use_stdin:
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        target = "-"
    else:
        path = tmp_path / "deal.json"
        path.write_text(text, encoding="utf-8")
        target = str(path)
    status = 0
    try:
        call_command("gouji", "replay", target, stdout=out)
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    return status, json.loads(out.getvalue())


def test_a_valid_record_exits_0(tmp_path, monkeypatch):
    status, verdict = run_replay(tmp_path, monkeypatch, json.dumps(deal(SINGLES, "1:3 2:4")))
    assert status == 0
    assert verdict["valid"] and verdict["error"] is None and not verdict["complete"]


def test_standard_input(tmp_path, monkeypatch):
    status, verdict = run_replay(
        tmp_path, monkeypatch, json.dumps(deal(SINGLES, "1:3 3:5")), use_stdin=True
    )
    assert status == 1
    assert verdict["error"] == {
        "action": 1,
        "rule": "R15",
        "code": "not_your_turn",
        "message": verdict["error"]["message"],
    }


def test_a_mismatch_exits_1(tmp_path, monkeypatch):
    doc = deal(SINGLES, "1:3 2:4", claimed={"points": [2]})
    status, verdict = run_replay(tmp_path, monkeypatch, json.dumps(doc))
    assert status == 1
    assert verdict["valid"]
    assert verdict["mismatches"] == [{"field": "points", "claimed": [2], "replayed": []}]


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        json.dumps({"format": "gouji-deal/1"}),
        json.dumps(deal(["3x", "4", "5", "6", "7", "8"])),
    ],
)
def test_unreadable_exits_2(tmp_path, monkeypatch, text):
    status, verdict = run_replay(tmp_path, monkeypatch, text)
    assert status == 2
    assert verdict["valid"] is False and verdict["error"]["code"] == "bad_document"


def test_selfplay_command_writes_reproducible_records(tmp_path):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (first, second):
        call_command(
            "gouji",
            "selfplay",
            "--deals",
            "2",
            "--seed",
            "9",
            "--rules",
            "six-decks",
            "--out",
            str(path),
        )
    assert first.read_bytes() == second.read_bytes()
    lines = first.read_text().splitlines()
    assert len(lines) == 2
    for line in lines:
        doc = json.loads(line)
        assert doc["rules"] == "six-decks"
        status, verdict = run_replay(tmp_path, None, line)
        assert status == 0 and verdict["complete"]
