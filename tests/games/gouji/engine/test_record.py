"""Reading, checking and writing `gouji-deal/1` records (deal-record.md)."""

from __future__ import annotations

import copy

import pytest

from matches.games.gouji.engine.record import read_record, setup_error, write_record
from matches.games.gouji.engine.replay import replay
from matches.games.gouji.engine.selfplay import selfplay
from matches.kernel.engine_errors import BadDocument
from tests.games.gouji.engine.positions import deal

SINGLES = ["39", "49", "59", "69", "79", "89"]


def test_self_played_records_round_trip():
    for preset in ("standard", "qingdao-hold3", "six-decks"):
        for doc in selfplay(3, 4, preset):
            record = read_record(doc)
            assert write_record(record) == doc
            assert read_record(write_record(record)) == record


def test_writing_normalises_card_order_and_rules():
    doc = deal(
        ["93", "94", "95", "96", "97", "98"],
        "1:3 2:4",
        rules={"preset": "standard"},
        declarations={"2": "clear"},
        revolution=[],
        claimed={"points": []},
    )
    written = write_record(read_record(doc))
    assert written["hands"]["1"] == "39"
    assert written["rules"] == "standard"
    assert written["declarations"] == {"2": "clear"}
    assert "revolution" not in written
    assert written["actions"] == [{"seat": 1, "cards": "3"}, {"seat": 2, "cards": "4"}]
    assert read_record(written) == read_record(doc)


def _bad(change):
    doc = deal(SINGLES, "1:3 2:pass")
    change(doc)
    return doc


BAD_DOCUMENTS = [
    ("format of the wrong type", lambda d: d.update(format=["gouji-deal/1"])),
    ("wrong format", lambda d: d.update(format="gouji-deal/2")),
    ("unknown field", lambda d: d.update(comment="hi")),
    ("missing actions", lambda d: d.pop("actions")),
    ("bad card character", lambda d: d["hands"].update({"1": "39X"})),
    ("cards not a string", lambda d: d["hands"].update({"1": ["3", "9"]})),
    ("missing seat", lambda d: d["hands"].pop("6")),
    ("seat 7", lambda d: d["hands"].update({"7": "3"})),
    ("leader is not a seat", lambda d: d.update(leader=0)),
    ("leader is a boolean", lambda d: d.update(leader=True)),
    ("unknown preset", lambda d: d.update(rules="tianjin")),
    ("unknown flag", lambda d: d.update(rules={"preset": "standard", "jokers_wild": True})),
    ("flag of the wrong type", lambda d: d.update(rules={"hold_three": "yes"})),
    ("unknown declaration", lambda d: d.update(declarations={"1": "loud"})),
    (
        "action with two kinds",
        lambda d: d["actions"].append({"seat": 3, "pass": True, "yield": True}),
    ),
    ("pass false", lambda d: d["actions"].append({"seat": 3, "pass": False})),
    ("action field unknown", lambda d: d["actions"].append({"seat": 3, "pass": True, "note": 1})),
    ("action seat out of range", lambda d: d["actions"].append({"seat": 9, "pass": True})),
    ("claimed field unknown", lambda d: d.update(claimed={"winner": 1})),
    (
        "claimed burn outcome unknown",
        lambda d: d.update(claimed={"burns": [{"burner": 1, "burned": 2, "outcome": "hot"}]}),
    ),
    ("revolution twice the same seat", lambda d: d.update(revolution=[1, 1])),
]


@pytest.mark.parametrize("title, change", BAD_DOCUMENTS, ids=[b[0] for b in BAD_DOCUMENTS])
def test_unreadable_documents(title, change):
    with pytest.raises(BadDocument):
        replay(_bad(change))


def test_a_list_is_not_a_record():
    with pytest.raises(BadDocument):
        replay([])


SETUP_ERRORS = [
    ("more cards than the deck", ["3" * 17, "4", "5", "6", "7", "8"], {}, ("R3", "too_many_cards")),
    ("five jokers of a kind", ["BBBBB", "4", "5", "6", "7", "8"], {}, ("R3", "too_many_cards")),
    ("a seat without cards", ["", "4", "5", "6", "7", "8"], {}, ("D10", "empty_hand")),
    (
        "special declaration not allowed",
        SINGLES,
        {"declarations": {"1": "special"}},
        ("R34", "special_not_allowed"),
    ),
]


@pytest.mark.parametrize(
    "title, hands, fields, expected", SETUP_ERRORS, ids=[s[0] for s in SETUP_ERRORS]
)
def test_setup_errors_are_invalid_with_no_action(title, hands, fields, expected):
    verdict = replay(deal(hands, "", **fields))
    assert not verdict["valid"] and not verdict["complete"]
    assert verdict["error"]["action"] is None
    assert (verdict["error"]["rule"], verdict["error"]["code"]) == expected


def test_a_full_deal_gives_every_seat_its_share():
    doc = next(selfplay(1, 3, "standard"))
    uneven = copy.deepcopy(doc)
    one, two = uneven["hands"]["1"], uneven["hands"]["2"]
    uneven["hands"]["1"], uneven["hands"]["2"] = one + two[0], two[1:]
    verdict = replay(uneven)
    assert verdict["error"]["action"] is None
    assert (verdict["error"]["rule"], verdict["error"]["code"]) == ("D10", "uneven_deal")


def test_a_position_may_hold_fewer_cards():
    record = read_record(deal(SINGLES))
    assert setup_error(record) is None


def test_a_revolutionary_may_hold_no_cards_to_play_but_others_must():
    assert replay(deal(["", "4", "5", "6", "7", "8"], "2:4", revolution=[1]))["valid"]
