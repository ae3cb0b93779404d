"""`manage.py giog`: exit codes and output."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command

from .helpers import hand_doc

VALID = hand_doc(
    ["Rp", "Ac", "Nn", "Pc"],
    "1R 2A 3N 4P 2c 3n 4c 1p",
    claimed={"won": {"1": 0, "2": 4, "3": 4, "4": 0}},
)


def giog(*args, stdin: str | None = None) -> tuple[int, str]:
    out = io.StringIO()
    options = {"stdout": out}
    if stdin is not None:
        options["stdin"] = io.StringIO(stdin)
    try:
        call_command("giog", *args, **options)
        code = 0
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    return code, out.getvalue()


def write(tmp_path, document) -> str:
    path = tmp_path / "hand.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return str(path)


def test_replay_of_a_valid_record_exits_0(tmp_path):
    code, output = giog("replay", write(tmp_path, VALID))
    assert code == 0
    verdict = json.loads(output)
    assert verdict["valid"] and verdict["complete"]
    assert verdict["places"] == [[2, 3], [1, 4]]


def test_replay_reads_standard_input():
    code, output = giog("replay", "-", stdin=json.dumps(VALID))
    assert code == 0 and json.loads(output)["valid"]


def test_replay_of_an_illegal_record_exits_1(tmp_path):
    doc = dict(VALID, actions=VALID["actions"][:1] + [{"seat": 3, "pieces": "N"}])
    code, output = giog("replay", write(tmp_path, doc))
    assert code == 1
    assert json.loads(output)["error"] == {
        "action": 1,
        "rule": "G8",
        "code": "out_of_turn",
        "message": "seat 3 played but it is seat 2's turn",
    }


def test_replay_with_a_mismatched_claim_exits_1(tmp_path):
    doc = dict(VALID, claimed={"won": {"1": 8}})
    code, output = giog("replay", write(tmp_path, doc))
    assert code == 1
    verdict = json.loads(output)
    assert verdict["valid"] and verdict["mismatches"][0]["field"] == "won"


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        json.dumps(dict(VALID, extra=1)),
        json.dumps(dict(VALID, players="four")),
        json.dumps(dict(VALID, hands={"1": "RX", "2": "Ac", "3": "Nn", "4": "Pc"})),
        json.dumps(dict(VALID, actions=[{"seat": 7, "pieces": "R"}])),
    ],
)
def test_replay_of_an_unreadable_document_exits_2(tmp_path, text):
    code, output = giog("replay", write(tmp_path, text))
    assert code == 2
    result = json.loads(output)
    assert result["valid"] is False
    assert result["error"]["code"] == "bad_document" and result["error"]["message"]


def test_replay_of_a_missing_file_exits_2(tmp_path):
    code, output = giog("replay", str(tmp_path / "nowhere.json"))
    assert code == 2 and json.loads(output)["error"]["code"] == "bad_document"


def test_settle_checks_a_summary(tmp_path):
    summary = {
        "format": "giog-outcome/1",
        "players": 4,
        "won": {"1": 12, "2": 4, "3": 8, "4": 8},
        "beheaded": [],
    }
    assert giog("settle", write(tmp_path, summary))[0] == 0
    summary["won"]["4"] = 4
    code, output = giog("settle", write(tmp_path, summary))
    assert code == 1 and json.loads(output)["errors"][0]["code"] == "won_total"
    assert giog("settle", "-", stdin="[]")[0] == 2


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_selfplay_writes_replayable_hands_and_the_same_file_for_the_same_seed(tmp_path, players):
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for path in (first, second):
        assert (
            giog(
                "selfplay", "--hands", "4", "--seed", "3", "--players", players, "--out", str(path)
            )[0]
            == 0
        )
    assert first.read_bytes() == second.read_bytes()
    lines = first.read_text().splitlines()
    assert len(lines) == 4
    for line in lines:
        doc = json.loads(line)
        assert doc["players"] == int(players)
        code, output = giog("replay", "-", stdin=line)
        assert code == 0 and json.loads(output)["complete"]


def test_selfplay_variants_are_written_into_the_records():
    code, output = giog(
        "selfplay",
        "--hands",
        "2",
        "--seed",
        "1",
        "--must-compete",
        "--tie-order",
        "play",
        "--out",
        "-",
    )
    assert code == 0
    for line in output.splitlines():
        assert json.loads(line)["rules"] == {"must_compete": True, "tie_order": "play"}
