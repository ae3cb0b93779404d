"""Gou Ji's per-event settings (`Event.game_settings`), read by the adapter: the rule set.

Stored as `{"rules": {"preset": "standard", "<flag>": value, …}}`; a missing rule set is the
standard preset. The raw rule set is what the engine's documents carry (`summary["rules"]`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from matches.games.gouji.engine.ruleset import RuleSet
from matches.kernel.engine_errors import BadDocument, JSONObject, RuleViolation

DEFAULT_RULES: JSONObject = {"preset": "standard"}


class SettingsError(ValueError):
    """Settings the game cannot read; the message says why (the engine's words)."""


@dataclass(frozen=True)
class GoujiSettings:
    rules_json: JSONObject = field(default_factory=lambda: dict(DEFAULT_RULES))
    #: the rule set the engine reads from `rules_json`
    rules: RuleSet = field(default_factory=lambda: RuleSet.from_json(DEFAULT_RULES), compare=False)

    def to_json(self) -> JSONObject:
        return {"rules": dict(self.rules_json)}

    @classmethod
    def from_json(cls, data: Any) -> GoujiSettings:
        if not isinstance(data, dict) or set(data) - {"rules"}:
            raise SettingsError('Gou Ji settings are {"rules": {…}}')
        raw = data.get("rules", DEFAULT_RULES)
        if not isinstance(raw, dict) or not isinstance(raw.get("preset", "standard"), str):
            raise SettingsError('rules must be {"preset": name, flag: value}')
        try:
            rules = RuleSet.from_json(raw)
        except (BadDocument, RuleViolation) as error:
            raise SettingsError(error.message) from None
        return cls(rules_json=dict(raw), rules=rules)
