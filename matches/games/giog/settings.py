"""Giog's per-event settings (`Event.game_settings`), read by the adapter: the tournament
points for each place of a hand, best place first (G11; docs/giog.md).

Stored as `{"place_points": [3, 2, 1, 0]}`; missing, the default table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from matches.kernel.engine_errors import JSONObject

DEFAULT_PLACE_POINTS = (3, 2, 1, 0)


class SettingsError(ValueError):
    """Settings the game cannot read; the message says why."""


def check_place_points(value: object) -> tuple[int, ...]:
    """Four whole numbers from 0 to 1000, never rising: a table of 2-4 players uses the first
    entries (G11 places; shared places split their points). Raises SettingsError."""
    if (
        not isinstance(value, list | tuple)
        or len(value) != 4
        or not all(type(v) is int and 0 <= v <= 1000 for v in value)
        or any(a < b for a, b in zip(value, value[1:]))
    ):
        raise SettingsError("place_points: four whole numbers 0-1000, never rising")
    return tuple(value)


@dataclass(frozen=True)
class GiogSettings:
    place_points: tuple[int, ...] = DEFAULT_PLACE_POINTS

    def to_json(self) -> JSONObject:
        return {"place_points": list(self.place_points)}

    @classmethod
    def from_json(cls, data: Any) -> GiogSettings:
        if not isinstance(data, dict) or set(data) - {"place_points"}:
            raise SettingsError('Giog settings are {"place_points": [...]}')
        return cls(check_place_points(data.get("place_points", list(DEFAULT_PLACE_POINTS))))
