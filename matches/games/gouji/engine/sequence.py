"""Rules that span the deals of one match, once: the R40 string-of-three streak and amnesty, and
the outcome a replayed play log gives.

A single summary or play log cannot know what happened in the deals before it; the tournament
side (results and standings) hands the earlier deals' finishing orders in here, and both read
the streak the same way: A, A, then B is no amnesty for B.
"""

from __future__ import annotations

from typing import Any, Mapping

from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.seating import union_of
from matches.games.gouji.engine.settle import OUTCOME_FORMAT
from matches.games.gouji.engine.verdict import ReplayVerdict, Tribute
from matches.kernel.engine_errors import JSONObject


def strung_by(finish: object) -> str | None:
    """The union ("A"/"B") that took places 1 to k (1st–3rd at six seats; 串四户, 1st–4th, at
    eight, R47), or None. The table's size is read from the finish: eight seats listed is the
    eight-player game. An unreadable finish gives None here; `settle` reports it when it checks
    the summary."""
    if not isinstance(finish, (list, tuple)):
        return None
    players = 8 if len(finish) == 8 else 6
    k = players // 2
    if len(finish) < k:
        return None
    top = finish[:k]
    if not all(type(seat) is int and 1 <= seat <= players for seat in top):
        return None
    unions = {union_of(seat, players) for seat in top}
    return unions.pop() if len(unions) == 1 else None


def streak_before(
    strung_by_number: Mapping[int, str | None], number: int, union: str | None
) -> int:
    """R40: how many deals in a row just before deal `number` `union` strung three.

    `strung_by_number` maps each earlier final deal's number to the union that strung three in
    it (None or "" when nobody did); a deal missing from it breaks the streak."""
    if not union:
        return 0
    streak, previous = 0, number - 1
    while previous >= 1 and strung_by_number.get(previous) == union:
        streak += 1
        previous -= 1
    return streak


def amnesty_applies(rules: RuleSet, strung: str | None, streak: int) -> bool:
    """R40: the third string of three in a row by one union owes no tributes."""
    return bool(strung) and rules.string_three_amnesty and streak >= 2


def outcome_from_replay(play_log: Mapping[str, Any], replay: ReplayVerdict) -> JSONObject:
    """The `gouji-outcome/1` summary a replayed play log gives: play produces the finish,
    points, burns, suffocations and failed special declarations (R34); the log's set-up says the
    declarations and revolution.
    Burns still undecided when the record ends are left out (they count for nothing)."""
    return {
        "format": OUTCOME_FORMAT,
        "finish": list(replay.finish),
        "points": list(replay.points),
        "declarations": dict(play_log.get("declarations") or {}),
        "burns": [burn.to_json() for burn in replay.burns if burn.outcome],
        "suffocated": [entry.to_json() for entry in replay.suffocated],
        "revolution": list(play_log.get("revolution") or []),
        "special_failed": list(replay.special_failed or ()),  # R34 特点
    }


def ledger_after_replay(
    replay: ReplayVerdict, rules: RuleSet, strung: str | None, streak: int
) -> tuple[Tribute, ...]:
    """The tributes a replayed deal leaves: the replay's own ledger (only a replay knows which
    points came after a head rival finished, D12), with R40's amnesty, which it cannot know."""
    if not rules.tributes or amnesty_applies(rules, strung, streak):
        return ()
    return replay.tributes
