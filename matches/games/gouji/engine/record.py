"""The `gouji-deal/1` deal record: read, check the setup, write (deal-record.md).

`read_record(doc)` turns a JSON object into a `DealRecord` or raises `BadDocument` when the
document cannot be read (unknown field, wrong type, bad card character, unknown preset).
`setup_error(record)` returns the `RuleViolation` of a readable record whose setup breaks the
rules (too many cards, a seat without cards, a bad revolution …), or None.
`write_record(record)` gives the JSON object back; reading it again gives an equal record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from matches.games.gouji.engine.cards import (
    BIG,
    SMALL,
    TWO,
    cards_per_seat,
    format_cards,
    full_deck,
)
from matches.games.gouji.engine.cards import parse_cards as _parse_cards
from matches.games.gouji.engine.play import (
    NO_CARDS,
    PASS,
    PLAY,
    YIELD,
    Action,
    Counts,
    Hands,
)
from matches.games.gouji.engine.ruleset import RuleSet
from matches.kernel.engine_errors import BadDocument, RuleViolation

FORMAT = "gouji-deal/1"
FIELDS = ("format", "rules", "hands", "leader", "declarations", "revolution", "actions", "claimed")
REQUIRED = ("format", "hands", "leader", "actions")
DECLARATIONS = ("clear", "unclear", "special")
CLAIM_FIELDS = ("finish", "points", "burns", "suffocated", "union_scores")
BURN_OUTCOMES = ("success", "counter", "stopped", "false")


@dataclass(frozen=True)
class DealRecord:
    rules: RuleSet
    hands: Hands  # n + 1 count tuples (n = rules.players), index 0 unused (no cards)
    leader: int
    actions: tuple[Action, ...] = ()
    declarations: dict[int, str] = field(default_factory=dict)  # seat -> clear|unclear|special
    revolution: tuple[int, ...] = ()
    claimed: dict[str, Any] | None = None  # as read, each field checked for type


# A deal repeats the same few hundred card strings, so parsing each once pays off in replay.
parse_cards = lru_cache(maxsize=65536)(_parse_cards)


def _cards(text: object, where: str) -> Counts:
    if not isinstance(text, str):
        raise BadDocument(f"{where} must be a string of cards in R5 notation")
    return parse_cards(text)


def _seat(value: object, where: str, players: int = 6) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= players:
        raise BadDocument(
            f"{where} must be a seat number 1–{players} (players = {players}), not {value!r}"
        )
    return value


def _seat_key(key: object, where: str, players: int = 6) -> int:
    if key not in _SEAT_KEYS[players]:
        raise BadDocument(
            f'{where}: seat keys are the strings "1"…"{players}" (players = {players}), not {key!r}'
        )
    return int(str(key))


_SEAT_KEYS = {n: frozenset(str(seat) for seat in range(1, n + 1)) for n in (6, 8)}


def _seat_list(value: object, where: str, players: int = 6) -> list[int]:
    if not isinstance(value, list):
        raise BadDocument(f"{where} must be a list of seats")
    return [_seat(item, where, players) for item in value]


def read_action(item: object, index: int, players: int = 6) -> Action:
    where = f"actions[{index}]"
    if not isinstance(item, dict):
        raise BadDocument(f"{where} must be an object")
    unknown = set(item) - {"seat", "cards", "pass", "yield"}
    if unknown:
        raise BadDocument(f"{where}: unknown field {sorted(unknown)[0]!r}")
    if "seat" not in item:
        raise BadDocument(f"{where} has no seat")
    seat = _seat(item["seat"], f"{where}.seat", players)
    kinds = [key for key in ("cards", "pass", "yield") if key in item]
    if len(kinds) != 1:
        raise BadDocument(f"{where} must have exactly one of cards, pass, yield")
    kind = kinds[0]
    if kind == "cards":
        return Action(seat, PLAY, _cards(item["cards"], f"{where}.cards"))
    if item[kind] is not True:
        raise BadDocument(f"{where}.{kind} must be true")
    return Action(seat, PASS if kind == "pass" else YIELD, None)


def _read_claimed(value: object, players: int = 6) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadDocument("claimed must be an object")
    for key in value:
        if key not in CLAIM_FIELDS:
            raise BadDocument(f"claimed: unknown field {key!r}")
    claimed: dict[str, Any] = {}
    if "finish" in value:
        claimed["finish"] = _seat_list(value["finish"], "claimed.finish", players)
    if "points" in value:
        claimed["points"] = _seat_list(value["points"], "claimed.points", players)
    if "burns" in value:
        burns = value["burns"]
        if not isinstance(burns, list):
            raise BadDocument("claimed.burns must be a list")
        claimed["burns"] = []
        for burn in burns:
            if not isinstance(burn, dict) or set(burn) != {"burner", "burned", "outcome"}:
                raise BadDocument("claimed.burns entries are {burner, burned, outcome}")
            if burn["outcome"] not in BURN_OUTCOMES and burn["outcome"] is not None:
                raise BadDocument(
                    f"claimed.burns: unknown outcome {burn['outcome']!r} (null: still undecided)"
                )
            claimed["burns"].append(
                {
                    "burner": _seat(burn["burner"], "claimed.burns.burner", players),
                    "burned": _seat(burn["burned"], "claimed.burns.burned", players),
                    "outcome": burn["outcome"],
                }
            )
    if "suffocated" in value:
        entries = value["suffocated"]
        if not isinstance(entries, list):
            raise BadDocument("claimed.suffocated must be a list")
        claimed["suffocated"] = []
        for entry in entries:
            if not isinstance(entry, dict) or set(entry) != {"seat", "by"}:
                raise BadDocument("claimed.suffocated entries are {seat, by}")
            claimed["suffocated"].append(
                {
                    "seat": _seat(entry["seat"], "claimed.suffocated.seat", players),
                    "by": _seat(entry["by"], "claimed.suffocated.by", players),
                }
            )
    if "union_scores" in value:
        scores = value["union_scores"]
        if (
            not isinstance(scores, dict)
            or set(scores) != {"A", "B"}
            or any(isinstance(n, bool) or not isinstance(n, int) for n in scores.values())
        ):
            raise BadDocument('claimed.union_scores must be {"A": n, "B": m} with integers')
        claimed["union_scores"] = {"A": scores["A"], "B": scores["B"]}
    return claimed


def read_record(doc: object) -> DealRecord:
    """A readable `gouji-deal/1` document as a DealRecord; BadDocument otherwise."""
    if not isinstance(doc, dict):
        raise BadDocument("a deal record is a JSON object")
    for key in doc:
        if key not in FIELDS:
            raise BadDocument(f"unknown field {key!r}")
    for key in REQUIRED:
        if key not in doc:
            raise BadDocument(f"missing field {key!r}")
    if doc["format"] != FORMAT:
        raise BadDocument(f"format must be {FORMAT!r}, not {doc['format']!r}")
    rules = RuleSet.from_json(doc.get("rules", "standard"))
    # deal-record.md: seats that do not match `players` make the document unreadable
    n = rules.players
    seats = rules.seats

    raw_hands = doc["hands"]
    if not isinstance(raw_hands, dict):
        raise BadDocument(f'hands must be an object mapping seats "1"…"{n}" to cards')
    given: dict[int, Counts] = {}
    for key, text in raw_hands.items():
        given[_seat_key(key, "hands", n)] = _cards(text, f"hands.{key}")
    missing = [seat for seat in seats if seat not in given]
    if missing:
        raise BadDocument(
            f"hands: no cards given for seat {missing[0]} (players = {n}: seats 1–{n})"
        )

    leader = _seat(doc["leader"], "leader", n)
    raw_declarations = doc.get("declarations", {})
    if not isinstance(raw_declarations, dict):
        raise BadDocument("declarations must be an object")
    declarations: dict[int, str] = {}
    for key, kind in raw_declarations.items():
        if kind not in DECLARATIONS:
            raise BadDocument(
                f"declarations: unknown declaration {kind!r} (R34: clear, unclear, special)"
            )
        declarations[_seat_key(key, "declarations", n)] = kind
    revolution = _seat_list(doc.get("revolution", []), "revolution", n)
    if len(set(revolution)) != len(revolution):
        raise BadDocument("revolution names a seat twice")
    raw_actions = doc["actions"]
    if not isinstance(raw_actions, list):
        raise BadDocument("actions must be a list")
    actions = tuple(read_action(item, index, n) for index, item in enumerate(raw_actions))
    claimed = _read_claimed(doc["claimed"], n) if "claimed" in doc else None
    return DealRecord(
        rules=rules,
        hands=(NO_CARDS, *(given[seat] for seat in seats)),
        leader=leader,
        actions=actions,
        declarations=dict(sorted(declarations.items())),
        revolution=tuple(revolution),
        claimed=claimed,
    )


def setup_error(record: DealRecord) -> RuleViolation | None:
    """The first rule the record's setup breaks (deal-record.md: invalid, action null)."""
    rules = record.rules
    seats = rules.seats
    deck = full_deck(rules)
    hands = record.hands
    for rank in range(15):
        dealt = sum(hands[seat][rank] for seat in seats)
        if dealt > deck[rank]:
            char = format_cards(tuple(1 if i == rank else 0 for i in range(15)))
            return RuleViolation(
                "R3",
                "too_many_cards",
                f"{dealt} cards {char} dealt; the deck holds {deck[rank]}",
                dealt=dealt,
                deck=deck[rank],
            )
    total = sum(sum(hands[seat]) for seat in seats)
    for seat in seats:
        if seat not in record.revolution and not sum(hands[seat]):
            return RuleViolation(
                "D10", "empty_hand", f"seat {seat} holds no cards at the start", seat=seat
            )
    if total == sum(deck):
        per_seat = cards_per_seat(rules)
        for seat in seats:
            if sum(hands[seat]) != per_seat:
                return RuleViolation(
                    "D10",
                    "uneven_deal",
                    f"a full deal gives every seat {per_seat} cards; "
                    f"seat {seat} holds {sum(hands[seat])}",
                    seat=seat,
                    per_seat=per_seat,
                    held=sum(hands[seat]),
                )
    if record.revolution:
        if not rules.revolution:
            return RuleViolation(
                "R29",
                "revolution_disabled",
                "the rule set does not allow revolution",
                seat=record.revolution[0],
            )
        void = revolutions_void(rules, record.revolution)
        if void is not None:
            return void
        for seat in record.revolution:
            counts = hands[seat]
            if counts[TWO] or counts[SMALL] or counts[BIG]:
                return RuleViolation(
                    "R29",
                    "revolution_not_allowed",
                    f"seat {seat} holds a 2 or a joker and may not declare revolution",
                    seat=seat,
                )
    for seat, kind in record.declarations.items():
        if kind == "special" and not rules.special_declaration:
            return RuleViolation(
                "R34",
                "special_not_allowed",
                "special declarations need the 'special_declaration' rule",
                seat=seat,
            )
    return None


def revolutions_void(rules: RuleSet, seats: tuple[int, ...] | list[int]) -> RuleViolation | None:
    """R29/R56/D36: two revolutions void the deal (redeal), or three or more under
    `two_revolutions`."""
    count = len(seats)
    if count <= (2 if rules.two_revolutions else 1):
        return None
    rule, limit = ("R56", "three") if rules.two_revolutions else ("R29", "two")
    listed = ", ".join(map(str, seats))
    return RuleViolation(
        rule,
        "deal_void",
        f"seats {listed} declared revolution: {limit} or more revolutions void the deal, "
        "which is dealt again",
        seats=listed,
    )


def write_action(action: Action) -> dict[str, Any]:
    if action.kind == PLAY and action.cards is not None:
        return {"seat": action.seat, "cards": format_cards(action.cards)}
    return {"seat": action.seat, action.kind: True}


def write_record(record: DealRecord) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": FORMAT,
        "rules": record.rules.to_json(),
        "hands": {str(seat): format_cards(record.hands[seat]) for seat in record.rules.seats},
        "leader": record.leader,
    }
    if record.declarations:
        doc["declarations"] = {str(seat): kind for seat, kind in record.declarations.items()}
    if record.revolution:
        doc["revolution"] = list(record.revolution)
    doc["actions"] = [write_action(action) for action in record.actions]
    if record.claimed is not None:
        doc["claimed"] = record.claimed
    return doc
