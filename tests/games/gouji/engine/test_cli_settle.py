"""`python manage.py gouji settle FILE|-` (deal-record.md, "Command line and API")."""

from __future__ import annotations

import json
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[4]
VALID = {
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
INVALID = {**VALID, "finish": [3, 1, 5, 2, 4, 4]}


def settle_file(tmp_path, text):
    path = tmp_path / "outcome.json"
    path.write_text(text, encoding="utf-8")
    out = StringIO()
    try:
        call_command("gouji", "settle", str(path), stdout=out)
        status = 0
    except SystemExit as exit_:
        status = exit_.code
    return status, json.loads(out.getvalue())


def test_it_prints_the_verdict_and_exits_0_when_valid(tmp_path):
    status, verdict = settle_file(tmp_path, json.dumps(VALID))
    assert status == 0
    assert verdict["valid"] and verdict["union_scores"] == {"A": 12, "B": -12}
    assert len(verdict["tributes"]) == 3


def test_it_exits_1_when_invalid(tmp_path):
    status, verdict = settle_file(tmp_path, json.dumps(INVALID))
    assert status == 1
    assert verdict["valid"] is False
    assert verdict["errors"][0]["code"] == "finish_not_permutation"


@pytest.mark.parametrize(
    "text, words",
    [
        ("{not json", "not JSON"),
        (json.dumps({**VALID, "extra": 1}), "unknown field 'extra'"),
        (json.dumps({**VALID, "finish": [1, 2, 3, 4, 5, 7]}), "no seat 7"),
        (json.dumps({**VALID, "rules": {"preset": "standard", "decks": "six"}}), "integer"),
    ],
)
def test_it_exits_2_on_an_unreadable_document(tmp_path, text, words):
    status, verdict = settle_file(tmp_path, text)
    assert status == 2
    assert verdict["valid"] is False
    assert verdict["error"]["code"] == "bad_document"
    assert words in verdict["error"]["message"]


def test_a_missing_file_is_unreadable(tmp_path):
    out = StringIO()
    with pytest.raises(SystemExit) as caught:
        call_command("gouji", "settle", str(tmp_path / "missing.json"), stdout=out)
    assert caught.value.code == 2
    assert json.loads(out.getvalue())["error"]["code"] == "bad_document"


@pytest.mark.parametrize("doc, status", [(VALID, 0), (INVALID, 1), ("[", 2)])
def test_it_reads_standard_input_and_sets_the_process_exit_status(doc, status):
    text = doc if isinstance(doc, str) else json.dumps(doc)
    result = subprocess.run(
        [sys.executable, "manage.py", "gouji", "settle", "-"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == status, result.stderr
    assert json.loads(result.stdout)["valid"] is (status == 0)
    assert "Traceback" not in result.stderr
