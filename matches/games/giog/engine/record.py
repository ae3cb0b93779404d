"""The `giog-hand/1` record: read, check the shape of, and write back.

Reading only checks that the document can be understood (field names, types, letters, seats in
range) and raises `BadDocument` otherwise. Whether the hands and plays keep the rules is the
replay's business (`replay.py`), reported in the verdict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypeGuard

from matches.kernel.engine_errors import BadDocument

from .pieces import DISTRIBUTION, parse_pieces

FORMAT = "giog-hand/1"

TOP_LEVEL_FIELDS = ("format", "players", "rules", "hands", "out", "leader", "actions", "claimed")
REQUIRED_FIELDS = ("format", "players", "hands", "leader", "actions")
CLAIMED_FIELDS = ("won", "beheaded", "places")

#: rule flags (G8, G9) and their defaults
DEFAULT_RULES = {"must_compete": False, "tie_order": "seat"}
TIE_ORDERS = ("seat", "play")


@dataclass(frozen=True)
class Action:
    seat: int
    pieces: str


@dataclass
class HandRecord:
    players: int
    hands: dict[int, str]
    leader: int
    actions: list[Action]
    out: str = ""
    #: only the flags the document sets; `flags` fills in the defaults
    rules: dict[str, Any] = field(default_factory=dict)
    #: normalised: {"won": {seat: n}, "beheaded": [seat], "places": [[seat]]}, any subset
    claimed: dict[str, Any] | None = None

    @property
    def flags(self) -> dict[str, Any]:
        return {**DEFAULT_RULES, **self.rules}

    @property
    def seats(self) -> range:
        return range(1, self.players + 1)


def is_int(value: object) -> TypeGuard[int]:
    # bool is an int subclass in Python, but `true` is not a seat.
    return isinstance(value, int) and not isinstance(value, bool)


def require_object(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise BadDocument(f"{where}: expected an object, got {type(value).__name__}")
    return value


def require_list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise BadDocument(f"{where}: expected a list, got {type(value).__name__}")
    return value


def reject_unknown(obj: dict[str, Any], known: tuple[str, ...], where: str) -> None:
    unknown = sorted(set(obj) - set(known))
    if unknown:
        raise BadDocument(
            f"{where}: unknown field(s) {', '.join(map(repr, unknown))}; "
            f"expected only {', '.join(known)}"
        )


def parse_players(value: object) -> int:
    if not is_int(value):
        raise BadDocument(f"players: expected an integer, got {type(value).__name__}")
    if value not in DISTRIBUTION:
        raise BadDocument(f"players: Giog is played by 2 to 4 players (G4), not {value}")
    return value


def parse_seat(value: object, players: int, where: str) -> int:
    if not is_int(value):
        raise BadDocument(f"{where}: expected a seat number, got {type(value).__name__}")
    if not 1 <= value <= players:
        raise BadDocument(f"{where}: seat {value} is out of range 1..{players}")
    return value


def parse_seat_key(key: str, players: int, where: str) -> int:
    if key not in {str(s) for s in range(1, players + 1)}:
        raise BadDocument(f'{where}: seat {key!r} is out of range "1".."{players}"')
    return int(key)


def parse_seat_list(value: object, players: int, where: str) -> list[int]:
    return [
        parse_seat(s, players, f"{where}[{i}]") for i, s in enumerate(require_list(value, where))
    ]


def parse_won(value: object, players: int, where: str) -> dict[int, int]:
    won = {}
    for key, count in require_object(value, where).items():
        seat = parse_seat_key(key, players, where)
        if not is_int(count):
            raise BadDocument(
                f"{where}[{key!r}]: expected a number of pieces, got {type(count).__name__}"
            )
        won[seat] = count
    return won


def parse_rules(value: object) -> dict[str, Any]:
    rules = require_object(value, "rules")
    reject_unknown(rules, tuple(DEFAULT_RULES), "rules")
    if "must_compete" in rules and not isinstance(rules["must_compete"], bool):
        raise BadDocument("rules.must_compete: expected true or false")
    if "tie_order" in rules and rules["tie_order"] not in TIE_ORDERS:
        raise BadDocument(f'rules.tie_order: expected "seat" or "play", got {rules["tie_order"]!r}')
    return dict(rules)


def parse_claimed(value: object, players: int) -> dict[str, Any]:
    claimed = require_object(value, "claimed")
    reject_unknown(claimed, CLAIMED_FIELDS, "claimed")
    result: dict[str, Any] = {}
    if "won" in claimed:
        result["won"] = parse_won(claimed["won"], players, "claimed.won")
    if "beheaded" in claimed:
        result["beheaded"] = parse_seat_list(claimed["beheaded"], players, "claimed.beheaded")
    if "places" in claimed:
        places = require_list(claimed["places"], "claimed.places")
        result["places"] = [
            parse_seat_list(group, players, f"claimed.places[{i}]")
            for i, group in enumerate(places)
        ]
    return result


def parse_record(document: object) -> HandRecord:
    """Read a `giog-hand/1` document into a `HandRecord`, or raise `BadDocument`."""
    doc = require_object(document, "document")
    reject_unknown(doc, TOP_LEVEL_FIELDS, "document")
    missing = [name for name in REQUIRED_FIELDS if name not in doc]
    if missing:
        raise BadDocument(f"document: missing field(s) {', '.join(missing)}")
    if doc["format"] != FORMAT:
        raise BadDocument(f"format: expected {FORMAT!r}, got {doc['format']!r}")
    players = parse_players(doc["players"])

    hands_obj = require_object(doc["hands"], "hands")
    hands = {
        parse_seat_key(k, players, "hands"): parse_pieces(v, f"hands[{k!r}]")
        for k, v in hands_obj.items()
    }
    absent = [str(s) for s in range(1, players + 1) if s not in hands]
    if absent:
        raise BadDocument(f"hands: no hand for seat(s) {', '.join(absent)}")

    actions = []
    for i, raw in enumerate(require_list(doc["actions"], "actions")):
        where = f"actions[{i}]"
        action = require_object(raw, where)
        reject_unknown(action, ("seat", "pieces"), where)
        if "seat" not in action or "pieces" not in action:
            raise BadDocument(f"{where}: an action needs both seat and pieces")
        actions.append(
            Action(
                parse_seat(action["seat"], players, f"{where}.seat"),
                parse_pieces(action["pieces"], f"{where}.pieces"),
            )
        )

    return HandRecord(
        players=players,
        hands=dict(sorted(hands.items())),
        leader=parse_seat(doc["leader"], players, "leader"),
        actions=actions,
        out=parse_pieces(doc.get("out", ""), "out"),
        rules=parse_rules(doc["rules"]) if "rules" in doc else {},
        claimed=parse_claimed(doc["claimed"], players) if "claimed" in doc else None,
    )


def write_claimed(claimed: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "won" in claimed:
        out["won"] = {str(s): n for s, n in claimed["won"].items()}
    if "beheaded" in claimed:
        out["beheaded"] = list(claimed["beheaded"])
    if "places" in claimed:
        out["places"] = [list(group) for group in claimed["places"]]
    return out


def write_record(record: HandRecord) -> dict[str, Any]:
    """The `giog-hand/1` document for `record`; `parse_record` reads it back unchanged."""
    doc: dict[str, Any] = {"format": FORMAT, "players": record.players}
    if record.rules:
        doc["rules"] = dict(record.rules)
    doc["hands"] = {str(s): pieces for s, pieces in record.hands.items()}
    doc["out"] = record.out
    doc["leader"] = record.leader
    doc["actions"] = [{"seat": a.seat, "pieces": a.pieces} for a in record.actions]
    if record.claimed is not None:
        doc["claimed"] = write_claimed(record.claimed)
    return doc
