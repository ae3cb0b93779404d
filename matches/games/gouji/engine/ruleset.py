"""Rule sets: a preset plus flag overrides (gouji-rules.md §8–9, D14).

A `RuleSet` is immutable and hashable. It is read from, and written back to, the `rules` field
of a record: a preset name, or `{"preset": name, flag: value, …}`. Every flag is named exactly
as the spec names it. An unknown preset or flag, or a value of the wrong type, is a
`BadDocument`; a flag value the engine does not implement yet is rejected as "unsupported"
(D14), never silently played by other rules.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from matches.games.gouji.engine import seating
from matches.kernel.engine_errors import BadDocument

TRIBUTE_KINDS = ("suffocation", "burn", "point", "place")


@dataclass(frozen=True, slots=True)
class RuleSet:
    preset: str = "standard"
    # R1, R44 seats: 6, or 8 (八人够级, two unions of four seated together)
    players: int = 6
    # R3 deck
    decks: int = 4
    short_deck: bool = False
    # R12, R14 hands
    more_big_jokers_beat: bool = False
    # R52 joker groups (多王压单王): jokers-only hands compare by weight, whatever their sizes
    joker_groups: bool = False
    point_sets: str = "zh"
    twos_open_point: bool = True
    # R21–R22 burning
    burn_requires_point: bool = False
    burn_first_hand_needs_joker: bool = False
    counter_burn_tribute: str = "two"
    false_burn: str = "place"
    false_burn_cards: int = 1
    # R25–R28a play
    last_hand_answer: bool = True
    hold_three: bool = False
    suffocated_play_on: bool = False
    no_three: str = "buy"
    hold_four_before_point: bool = False
    # R29 revolution
    revolution: bool = True
    revolution_contest: bool = False
    # R31–R33 scoring
    place_points: tuple[int, ...] = (2, 1, 0, 0, -1, -2)
    union_score: str = "difference"
    string_three_score: int = 12
    first_last_same_union_draw: bool = False
    # R34 declarations
    special_declaration: bool = False
    # R35–R43 tributes
    declaration_tributes: str = "en"
    place_tribute: str = "ranked"
    string_three_waives: str = "all"
    string_three_amnesty: bool = True
    same_union_tribute: bool = False
    tribute_order: tuple[str, ...] = field(default=TRIBUTE_KINDS)
    tributes: bool = True
    # R55 the two point debts of a head-rival pair offset (双方点贡可以抵消)
    point_tributes_cancel: bool = False
    # R56 two revolutions in one deal (两个玩家革命)
    two_revolutions: bool = False
    # R18 first leader of later deals
    next_leader: str = "last"

    # -- the table's geometry, read from `players` (seating.py) ---------------------------
    @property
    def seats(self) -> tuple[int, ...]:
        """Seats 1…n in playing order (R1, R44)."""
        return seating.seats(self.players)

    @property
    def union_size(self) -> int:
        """k = n / 2, the seats of a union: 3 at six seats, 4 at eight (R50)."""
        return self.players // 2

    def union_seats(self, union: str) -> tuple[int, ...]:
        return seating.union_seats(union, self.players)

    @classmethod
    def from_json(cls, value: Any) -> RuleSet:
        """Build a rule set from a preset name or `{"preset": name, flag: value, …}`."""
        if value is None:
            value = "standard"
        if isinstance(value, str):
            value = {"preset": value}
        if not isinstance(value, dict):
            raise BadDocument(
                'rules must be a preset name or an object {"preset": …, flag: value}, '
                f"not {_json_type(value)}"
            )
        preset_name = value.get("preset", "standard")
        if not isinstance(preset_name, str) or preset_name not in PRESETS:
            raise BadDocument(
                f"unknown rules preset {preset_name!r} (known: {', '.join(sorted(PRESETS))})"
            )
        changes = {}
        for flag, raw in value.items():
            if flag == "preset":
                continue
            if flag not in FLAGS:
                raise BadDocument(f"unknown rules flag {flag!r}")
            changes[flag] = _read_flag(flag, raw)
        rules = dataclasses.replace(PRESETS[preset_name], **changes)
        _check_combination(rules)
        return rules

    def to_json(self) -> str | dict[str, Any]:
        """The preset name alone, or the preset plus every flag that differs from it."""
        base = PRESETS.get(self.preset, STANDARD)
        differences = {
            flag: _flag_to_json(getattr(self, flag))
            for flag in FLAGS
            if getattr(self, flag) != getattr(base, flag)
        }
        if not differences:
            return self.preset
        return {"preset": self.preset, **differences}


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _flag_to_json(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# Allowed values of each valued flag (D14 and the rules they come from).
CHOICES: dict[str, tuple[str, ...]] = {
    "point_sets": ("zh", "en"),
    "counter_burn_tribute": ("two", "one_each", "doubling"),
    "false_burn": ("place", "tribute"),
    "no_three": ("buy", "hold_four", "exempt"),
    "union_score": ("difference", "own"),
    "declaration_tributes": ("en", "zh"),
    "place_tribute": ("ranked", "pool"),
    "string_three_waives": ("all", "place"),
    "next_leader": ("last", "rotate"),
}

#: Flag values the engine does not implement yet (D14), with the reason given to the user.
#: Empty: every flag and value of the spec is played. A value added here is rejected as a
#: `BadDocument`, never played by other rules.
UNSUPPORTED: dict[tuple[str, Any], str] = {}

FLAGS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RuleSet) if f.name != "preset")


def _read_flag(flag: str, raw: Any) -> Any:
    default = getattr(STANDARD, flag)
    value: Any
    if isinstance(default, bool):
        if not isinstance(raw, bool):
            raise BadDocument(f"rules flag {flag!r} must be true or false, not {_json_type(raw)}")
        value = raw
    elif isinstance(default, int):
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise BadDocument(f"rules flag {flag!r} must be an integer, not {_json_type(raw)}")
        value = raw
    elif isinstance(default, str):
        if not isinstance(raw, str) or raw not in CHOICES[flag]:
            raise BadDocument(
                f"rules flag {flag!r} must be one of {', '.join(map(repr, CHOICES[flag]))}, "
                f"not {raw!r}"
            )
        value = raw
    elif flag == "place_points":
        # the length is checked against `players` once the whole rule set is known (D28)
        if not isinstance(raw, list) or any(
            isinstance(x, bool) or not isinstance(x, int) for x in raw
        ):
            raise BadDocument(
                "rules flag 'place_points' must be a list of integers, one a place: six integers "
                "at six seats, eight at eight (R31, R47)"
            )
        value = tuple(raw)
    elif flag == "tribute_order":
        if (
            not isinstance(raw, list)
            or sorted(map(str, raw)) != sorted(TRIBUTE_KINDS)
            or any(not isinstance(x, str) for x in raw)
        ):
            raise BadDocument(
                "rules flag 'tribute_order' must list each of "
                f"{', '.join(TRIBUTE_KINDS)} once (R42)"
            )
        value = tuple(raw)
    else:  # pragma: no cover - a new flag without a reader
        raise AssertionError(f"no reader for flag {flag}")
    reason = UNSUPPORTED.get((flag, value))
    if reason:
        raise BadDocument(f"rules flag {flag!r} = {raw!r} is unsupported: {reason}")
    return value


def _check_combination(rules: RuleSet) -> None:
    if rules.players not in seating.PLAYER_COUNTS:
        raise BadDocument(f"rules flag 'players' must be 6 or 8 (R44), not {rules.players}")
    if rules.decks not in (4, 6):
        raise BadDocument(f"rules flag 'decks' must be 4 or 6 (R3), not {rules.decks}")
    if rules.players == 8 and rules.decks != 4:
        raise BadDocument(
            "players = 8 plays four packs, 27 cards a seat: 'decks' must be 4 (R46, D18)"
        )
    if rules.players == 8 and rules.short_deck:
        raise BadDocument(
            "players = 8 plays four packs, 27 cards a seat: the short deck does not split "
            "eight ways (R46, D18)"
        )
    if len(rules.place_points) != rules.players:
        count = {6: "six", 8: "eight"}[rules.players]
        raise BadDocument(
            f"rules flag 'place_points' must be a list of {count} integers, one a place, "
            f"for players = {rules.players}, not {len(rules.place_points)} (R31, R47, D28)"
        )
    if rules.false_burn_cards < 1:
        raise BadDocument("rules flag 'false_burn_cards' must be at least 1 (R22d)")


STANDARD = RuleSet()
PRESETS: dict[str, RuleSet] = {
    "standard": STANDARD,
    "qingdao-hold3": dataclasses.replace(
        STANDARD, preset="qingdao-hold3", hold_three=True, last_hand_answer=False, no_three="buy"
    ),
    "six-decks": dataclasses.replace(
        STANDARD,
        preset="six-decks",
        decks=6,
        more_big_jokers_beat=True,
        twos_open_point=False,
        joker_groups=True,  # R52, D33
    ),
    # R44–R51, §13: 八人够级, ZH's union points and 串四户 scoring 24 (D23)
    "eight-players": dataclasses.replace(
        STANDARD,
        preset="eight-players",
        players=8,
        place_points=(3, 2, 1, 0, 0, -1, -2, -3),
        string_three_score=24,
    ),
}
