"""A Gou Ji deal played live, one action at a time (feature tables, docs/live-tables.md).

`live_play(rules, setup, actions)` replays the hands and the actions so far with the engine and
says where the deal stands: the first illegal action (its rule id), whose turn it is, who is out
and in what place, points, burns, the cards each seat still holds, and the legal plays of the
seat to act (for the operator's page). Nothing is stored here: the results service keeps the
rows and asks this module about each action as it arrives.
"""

from __future__ import annotations

from typing import Any

from matches.games.gouji.engine import play as engine
from matches.games.gouji.engine.cards import RANK_CHARS, format_cards
from matches.games.gouji.engine.record import FORMAT, read_record, setup_error, write_action
from matches.games.gouji.engine.replay import initial_state, replay_verdict
from matches.games.gouji.viewer import card_labels
from matches.kernel.engine_errors import BadDocument, JSONObject, RuleViolation

SETUP_FIELDS = ("hands", "leader", "declarations", "revolution")


def record_of(rules: JSONObject, setup: JSONObject, actions: list[JSONObject]) -> JSONObject:
    """The deal record (deal-record.md) of a setup and its actions so far."""
    doc: JSONObject = {"format": FORMAT, "rules": rules}
    doc.update({key: setup[key] for key in SETUP_FIELDS if key in setup})
    doc["actions"] = list(actions)
    return doc


def _error(index: int | None, violation: RuleViolation) -> JSONObject:
    return {
        "action": index,
        "rule": violation.rule,
        "code": violation.code,
        "message": violation.message,
        "params": dict(violation.params),
    }


def live_play(
    rules: JSONObject, setup: JSONObject, actions: list[JSONObject], *, legal: bool = False
) -> JSONObject:
    """Where the deal stands after `actions`. An unreadable document answers
    `{"error": {"code": "bad_document", …}}`; an illegal action stops the replay there."""
    doc = record_of(rules, setup, actions)
    try:
        record = read_record(doc)
    except BadDocument as exc:
        unreadable = {"action": None, "rule": None, "code": "bad_document", "message": exc.message}
        return {"error": unreadable, "labels": card_labels()}
    problem = setup_error(record)
    if problem is not None:
        return {"error": _error(None, problem), "labels": card_labels()}
    state = initial_state(record)
    error: JSONObject | None = None
    done = 0
    for index, action in enumerate(record.actions):
        if state.phase == engine.OVER:
            error = {
                "action": index,
                "rule": "R30",
                "code": "deal_over",
                "message": "the deal is over: no more actions",
            }
            break
        try:
            state = engine.apply(state, action)
        except RuleViolation as violation:
            error = _error(index, violation)
            break
        done = index + 1
    answer = _where(state, legal)
    answer["error"] = error
    answer["accepted"] = done
    answer["record"] = record_of(rules, setup, actions[:done])
    answer["labels"] = card_labels()  # R5 characters as a reader sees them
    answer["union_scores"] = None
    if answer["complete"]:
        scores = replay_verdict(answer["record"]).union_scores  # R31-R33
        answer["union_scores"] = scores.to_json() if scores is not None else None
    return answer


def _where(state: engine.State, legal: bool) -> JSONObject:
    seats = state.table.seats
    over = state.phase == engine.OVER
    answer: JSONObject = {
        "complete": over,
        "turn": None if over else state.turn,
        "phase": engine.PHASE_NAMES[state.phase],
        "top": format_cards(state.top.cards) if state.top is not None else None,
        "owner": state.owner or None,
        "finish": state.final_order() if over else list(state.finished),
        "places": {str(seat): state.places[seat] for seat in seats if state.places[seat]},
        "points": list(state.points),
        "burns": [{"burner": b, "burned": d, "outcome": o} for b, d, o, _counter in state.burns],
        "left": {str(seat): sum(state.hands[seat]) for seat in seats},
        "hands": {str(seat): format_cards(state.hands[seat]) for seat in seats},
    }
    if legal and not over:
        answer["legal"] = legal_choices(state)
    return answer


def legal_choices(state: engine.State) -> list[JSONObject]:
    """Every action the engine accepts now, as deal-record actions, plays grouped for a few
    taps: the seat, then the cards (plain ranks first, then those with 2s and jokers)."""
    choices: list[JSONObject] = []
    for action in engine.legal_actions(state):
        item: dict[str, Any] = write_action(action)
        if action.cards is not None:
            item["size"] = sum(action.cards)
            # the natural rank it is built on (None: 2s and jokers only), for grouping
            natural = [i for i in range(12) if action.cards[i]]
            item["rank"] = RANK_CHARS[natural[0]] if natural else None
        choices.append(item)
    choices.sort(key=_order)
    return choices


def _order(item: JSONObject) -> tuple:
    if "cards" not in item:
        return (item["seat"], 0, 0, 0, "")
    extra = item["size"] - item["cards"].count(item["rank"]) if item["rank"] else item["size"]
    rank = RANK_CHARS.index(item["rank"]) if item["rank"] else 99
    return (item["seat"], 1, rank, extra, item["cards"])
