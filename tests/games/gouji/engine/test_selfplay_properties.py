"""Property: a deal self-played under every preset, and under every preset with any single flag
changed, replays valid and complete, and its outcome settles the same (gouji-rules.md §8-9, D14;
deal-record.md)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.games.gouji.engine.replay import replay
from matches.games.gouji.engine.ruleset import CHOICES, FLAGS, PRESETS, TRIBUTE_KINDS, RuleSet
from matches.games.gouji.engine.selfplay import selfplay
from matches.games.gouji.engine.settle import settle
from matches.kernel.engine_errors import BadDocument

#: Another value for the flags that are neither booleans nor choices.
OTHER_VALUE = {
    "decks": lambda value: 10 - value,  # 4 <-> 6
    "false_burn_cards": lambda value: value + 1,
    "string_three_score": lambda value: value // 2,
    "place_points": lambda value: (
        [3, 2, 1, -1, -2, -3] if len(value) == 6 else [4, 2, 1, 0, 0, -1, -2, -4]
    ),
    "tribute_order": lambda value: ["point", "burn", "suffocation", "place"],
    "players": lambda value: 14 - value,  # 6 <-> 8
}
#: D28: `players` changes no other flag, so the place points change with it
PLACE_POINTS = {6: [2, 1, 0, 0, -1, -2], 8: [3, 2, 1, 0, 0, -1, -2, -3]}


def other_values(preset: str, flag: str) -> list:
    value = getattr(PRESETS[preset], flag)
    if isinstance(value, bool):
        return [not value]
    if flag in CHOICES:
        return [choice for choice in CHOICES[flag] if choice != value]
    return [OTHER_VALUE[flag](value)]


def is_rule_set(rules: dict) -> bool:
    try:
        RuleSet.from_json(rules)
    except BadDocument:
        return False
    return True


def single_changes() -> list[tuple[str, dict]]:
    changes: list[tuple[str, dict]] = []
    for preset in PRESETS:
        changes.append((preset, {}))
        for flag in FLAGS:
            for value in other_values(preset, flag):
                change = {flag: value}
                if flag == "players":
                    change["place_points"] = PLACE_POINTS[value]
                # R46/D18: eight seats with six packs or the short deck is not a rule set
                if is_rule_set({"preset": preset, **change}):
                    changes.append((preset, change))
    return changes


CHANGES = single_changes()


def test_every_flag_has_another_value():
    assert set(OTHER_VALUE) | {f for f in FLAGS if f in CHOICES} | {
        f for f in FLAGS if isinstance(getattr(PRESETS["standard"], f), bool)
    } == set(FLAGS)
    assert sorted(OTHER_VALUE["tribute_order"](None)) == sorted(TRIBUTE_KINDS)
    assert len(CHANGES) > 3 * len(FLAGS)


@pytest.mark.parametrize(
    "preset, change",
    CHANGES,
    ids=[f"{p}-{'+'.join(f'{k}={v}' for k, v in c.items()) or 'preset'}" for p, c in CHANGES],
)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_a_self_played_deal_replays_valid_under_every_single_change(preset, change, seed):
    rules = {"preset": preset, **change} if change else preset
    (doc,) = selfplay(1, seed, rules)
    verdict = replay(doc)
    assert verdict["valid"], verdict["error"]
    assert verdict["complete"] and verdict["mismatches"] == []
    players = RuleSet.from_json(rules).players
    assert sorted(verdict["finish"]) == list(range(1, players + 1))
    assert all(burn["outcome"] is not None for burn in verdict["burns"])
    # the replayed outcome, written as a referee's summary, settles valid with the same scores
    summary = {
        "format": "gouji-outcome/1",
        "rules": doc["rules"],
        "finish": verdict["finish"],
        "points": verdict["points"],
        "declarations": doc.get("declarations", {}),
        "burns": verdict["burns"],
        "suffocated": verdict["suffocated"],
        "revolution": doc.get("revolution", []),
        "special_failed": verdict.get("special_failed", []),
    }
    assert ("special_failed" in verdict) is ("special" in summary["declarations"].values())
    settled = settle(summary)
    assert settled["valid"], (settled["errors"], summary)
    assert settled["union_scores"] == verdict["union_scores"]
    if not verdict["points"] or not summary["declarations"]:
        # (D12's late points, which a summary cannot carry, can change a declaration's ledger)
        assert settled["tributes"] == verdict["tributes"]


def test_the_changes_cover_the_flags_once_rejected():
    flags = {flag for _, change in CHANGES for flag in change}
    assert {"special_declaration", "place_tribute", "revolution_contest", "short_deck"} <= flags
    assert ("six-decks", {"short_deck": True}) in CHANGES
    assert dataclasses.replace(PRESETS["standard"], place_tribute="pool").place_tribute == "pool"
