"""The giog-hand/1 record: reading, writing back, bad documents and claims."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.games.giog.engine.record import parse_record, write_record
from matches.games.giog.engine.replay import replay
from matches.kernel.engine_errors import BadDocument

from .helpers import hand_doc

GOOD = hand_doc(
    ["Rp", "Ac", "Nn", "Pc"],
    "1R 2A 3N 4P 2c 3n 4c 1p",
    rules={"must_compete": False, "tie_order": "seat"},
    claimed={"won": {"1": 0, "2": 4, "3": 4, "4": 0}, "beheaded": [], "places": [[2, 3], [1, 4]]},
)


def test_the_good_record_replays_without_mismatches():
    v = replay(GOOD)
    assert v["valid"] and v["complete"] and v["mismatches"] == []


def test_the_verdict_has_exactly_the_fields_of_the_spec():
    assert list(replay(GOOD)) == [
        "valid",
        "complete",
        "error",
        "tricks",
        "won",
        "beheaded",
        "places",
        "mismatches",
    ]


def test_rules_out_and_claimed_are_optional():
    doc = copy.deepcopy(GOOD)
    for name in ("rules", "out", "claimed"):
        del doc[name]
    v = replay(doc)
    assert v["valid"] and v["complete"] and v["mismatches"] == []


def _set(path: str, value):
    """A change to GOOD: set the value at a dotted path ('claimed.won.1')."""

    def change(doc):
        *parents, last = path.split(".")
        target = doc
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value

    return change


def _delete(path: str):
    def change(doc):
        *parents, last = path.split(".")
        target = doc
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        del target[last]

    return change


BAD = [
    ("unknown field", _set("comment", "hi"), "unknown field"),
    ("missing actions", _delete("actions"), "missing field"),
    ("wrong format", _set("format", "gouji-deal/1"), "format"),
    ("players as text", _set("players", "4"), "players"),
    ("players as a boolean", _set("players", True), "players"),
    ("five players", _set("players", 5), "2 to 4"),
    ("one player", _set("players", 1), "2 to 4"),
    ("hands as a list", _set("hands", ["Rp"]), "hands"),
    ("hand for seat 5 of 4", _set("hands.5", "Kk"), "out of range"),
    ("hand for seat 0", _set("hands.0", "Kk"), "out of range"),
    ("no hand for seat 4", _delete("hands.4"), "no hand for seat"),
    ("hand as a number", _set("hands.1", 12), "expected a string"),
    ("bad letter in a hand", _set("hands.1", "RX"), "unknown piece letter"),
    ("out as a number", _set("out", 3), "expected a string"),
    ("bad letter out", _set("out", "e"), "unknown piece letter"),
    ("leader 0", _set("leader", 0), "out of range"),
    ("leader 5", _set("leader", 5), "out of range"),
    ("leader as text", _set("leader", "1"), "leader"),
    ("actions as an object", _set("actions", {"0": {"seat": 1}}), "expected a list"),
    ("action as text", _set("actions.0", "1R"), "expected an object"),
    ("action with a pass", _set("actions.0.pass", True), "unknown field"),
    ("action without pieces", _delete("actions.0.pieces"), "needs both"),
    ("action seat 9", _set("actions.3.seat", 9), "out of range"),
    ("action seat as text", _set("actions.0.seat", "1"), "seat"),
    ("action pieces null", _set("actions.0.pieces", None), "expected a string"),
    ("bad letter played", _set("actions.0.pieces", "Q"), "unknown piece letter"),
    ("rules as a preset name", _set("rules", "standard"), "rules"),
    ("unknown rule flag", _set("rules.burn", True), "unknown field"),
    ("must_compete as text", _set("rules.must_compete", "yes"), "must_compete"),
    ("unknown tie order", _set("rules.tie_order", "random"), "tie_order"),
    ("claimed as a list", _set("claimed", [1]), "claimed"),
    ("unknown claim", _set("claimed.finish", [1, 2, 3, 4]), "unknown field"),
    ("claimed won for seat 7", _set("claimed.won.7", 0), "out of range"),
    ("claimed won as text", _set("claimed.won.1", "12"), "number of pieces"),
    ("claimed beheaded as a seat", _set("claimed.beheaded", 2), "expected a list"),
    ("claimed beheaded seat 9", _set("claimed.beheaded", [9]), "out of range"),
    ("claimed places not nested", _set("claimed.places", [1, 2]), "expected a list"),
]


@pytest.mark.parametrize("label, change, fragment", BAD, ids=[b[0] for b in BAD])
def test_a_bad_document_is_refused_with_a_clear_message(label, change, fragment):
    doc = copy.deepcopy(GOOD)
    change(doc)
    with pytest.raises(BadDocument) as caught:
        replay(doc)
    assert fragment in caught.value.message
    assert caught.value.as_dict()["code"] == "bad_document"


@pytest.mark.parametrize("document", [None, [], "giog", 42])
def test_a_document_that_is_not_an_object_is_refused(document):
    with pytest.raises(BadDocument, match="expected an object"):
        replay(document)


# -- claims -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "claimed, field",
    [
        ({"won": {"1": 4, "2": 4, "3": 0, "4": 0}}, "won"),
        ({"beheaded": [2]}, "beheaded"),
        ({"places": [[2], [3], [1, 4]]}, "places"),
    ],
)
def test_a_claim_that_differs_from_the_replay_is_a_mismatch(claimed, field):
    doc = copy.deepcopy(GOOD)
    doc["claimed"] = claimed
    v = replay(doc)
    assert v["valid"]
    assert v["mismatches"] == [{"field": field, "claimed": claimed[field], "replayed": v[field]}]


def test_claims_may_leave_out_seats_that_won_nothing_and_order_groups_freely():
    doc = copy.deepcopy(GOOD)
    doc["claimed"] = {"won": {"3": 4, "2": 4}, "places": [[3, 2], [4, 1]], "beheaded": []}
    assert replay(doc)["mismatches"] == []


# -- round trip -------------------------------------------------------------------------------


def test_writing_a_parsed_record_gives_the_document_back():
    assert write_record(parse_record(GOOD)) == GOOD


LETTERS = "KABRNCPkabrncp"


@st.composite
def hand_documents(draw):
    """Readable giog-hand/1 documents, legal or not, in the canonical shape."""
    players = draw(st.sampled_from([2, 3, 4]))
    seat = st.integers(1, players)
    pieces = st.text(alphabet=LETTERS, max_size=12)
    doc = {"format": "giog-hand/1", "players": players}
    rules = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "must_compete": st.booleans(),
                "tie_order": st.sampled_from(["seat", "play"]),
            },
        )
    )
    if rules:
        doc["rules"] = rules
    doc["hands"] = {str(s): draw(pieces) for s in range(1, players + 1)}
    doc["out"] = draw(pieces)
    doc["leader"] = draw(seat)
    doc["actions"] = draw(
        st.lists(st.fixed_dictionaries({"seat": seat, "pieces": pieces}), max_size=10)
    )
    claimed = draw(
        st.none()
        | st.fixed_dictionaries(
            {},
            optional={
                "won": st.dictionaries(
                    st.sampled_from([str(s) for s in range(1, players + 1)]), st.integers(0, 32)
                ),
                "beheaded": st.lists(seat, max_size=2),
                "places": st.lists(st.lists(seat, min_size=1, max_size=2), max_size=4),
            },
        )
    )
    if claimed is not None:
        doc["claimed"] = claimed
    return doc


@settings(max_examples=150, deadline=None)
@given(hand_documents())
def test_property_parse_then_write_is_the_identity(doc):
    record = parse_record(doc)
    assert write_record(record) == doc
    assert parse_record(json.loads(json.dumps(write_record(record)))) == record


@settings(max_examples=150, deadline=None)
@given(hand_documents())
def test_property_any_readable_record_gets_a_verdict(doc):
    v = replay(doc)
    assert isinstance(v["valid"], bool)
    assert sorted(v["won"]) == [str(s) for s in range(1, doc["players"] + 1)]
    if not v["valid"]:
        assert v["error"]["code"] and v["error"]["rule"] and v["error"]["message"]
    json.dumps(v)  # the verdict is plain JSON


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=6),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(GOOD)), JSON)
def test_property_any_value_in_any_field_is_a_verdict_or_a_bad_document(field, value):
    doc = copy.deepcopy(GOOD)
    doc[field] = value
    try:
        v = replay(doc)
    except BadDocument as bad:
        assert bad.message
    else:
        assert isinstance(v["valid"], bool)


NESTED = [
    "hands.1",
    "hands.9",
    "actions.0",
    "actions.0.seat",
    "actions.0.pieces",
    "rules.tie_order",
    "rules.must_compete",
    "claimed.won",
    "claimed.won.1",
    "claimed.places",
    "claimed.places.0",
    "claimed.beheaded",
]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(NESTED), JSON)
def test_property_any_value_in_a_nested_field_is_a_verdict_or_a_bad_document(path, value):
    doc = copy.deepcopy(GOOD)
    _set(path, value)(doc)
    try:
        v = replay(doc)
    except BadDocument as bad:
        assert bad.message
    else:
        assert isinstance(v["valid"], bool)
