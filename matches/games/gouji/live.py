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
from matches.games.gouji.engine.cards import (
    RANK_CHARS,
    card_count,
    cards_per_seat,
    format_cards,
    full_deck,
    parse_cards,
)
from matches.games.gouji.engine.exchange import (
    buy_threes,
    buys_threes,
    exchange,
    whole_deal_error,
)
from matches.games.gouji.engine.record import FORMAT, read_record, setup_error, write_action
from matches.games.gouji.engine.replay import initial_state, replay_verdict
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.viewer import card_labels
from matches.kernel.engine_errors import BadDocument, JSONObject, RuleViolation

SETUP_FIELDS = ("hands", "leader", "declarations", "revolution")
# A card held but never played (plays without hands): A … 4 while the deck has them, then 3, 2
# and the jokers.
PAD_RANKS = (*range(11, 0, -1), 0, 12, 13, 14)


def record_of(rules: JSONObject, setup: JSONObject, actions: list[JSONObject]) -> JSONObject:
    """The deal record (deal-record.md) of a setup and its actions so far."""
    doc: JSONObject = {"format": FORMAT, "rules": rules}
    doc.update({key: setup[key] for key in SETUP_FIELDS if key in setup})
    doc["actions"] = [_plain(action) for action in actions]
    return doc


def _plain(action: JSONObject) -> JSONObject:
    """A deal-record action: without the operator's "last" mark (plays without hands)."""
    return {key: value for key, value in action.items() if key != "last"}


def dealt_hands(rules: JSONObject, setup: JSONObject) -> JSONObject:
    """`setup` with the hands play starts with: given as they are (with `whole`, they must be the
    whole deck, as an operator's page sends them), or the hands as dealt
    (`dealt`) after the exchange of the tributes owed (`tributes`, the deal before's ledger),
    the receivers' returns (`returns`, one per tribute), the cards picked from a pooled place
    tribute (`picks`, R38) and R28's purchases of a 3 (listed in `bought`). Raises
    RuleViolation or BadDocument."""
    if "dealt" not in setup:
        if setup.get("whole") and isinstance(setup.get("hands"), dict):  # the whole deck dealt
            ruleset = RuleSet.from_json(rules)
            hands = setup["hands"]
            counts = {seat: parse_cards(hands.get(str(seat), "")) for seat in ruleset.seats}
            problem = whole_deal_error(ruleset, counts)
            if problem is not None:
                raise problem
        return setup
    ruleset = RuleSet.from_json(rules)
    dealt, returns = setup["dealt"], setup.get("returns") or []
    picks = setup.get("picks") or []
    if not isinstance(dealt, dict) or not isinstance(returns, list) or not isinstance(picks, list):
        raise BadDocument("dealt: seat -> cards; returns and picks: lists of cards")
    if not all(isinstance(cards, str) for cards in [*returns, *picks]):
        raise BadDocument("returns and picks: lists of cards")
    counts = {seat: parse_cards(dealt.get(str(seat), "")) for seat in ruleset.seats}
    ledger = setup.get("tributes") or []
    after = exchange(
        ruleset,
        counts,
        ledger,
        [parse_cards(back) for back in returns],
        [parse_cards(cards) for cards in picks],
    )
    bought: list = []
    if buys_threes(ruleset):  # R28: after the tributes, a seat without a 3 buys one
        after, bought = buy_threes(after, ruleset)
    hands = {str(seat): format_cards(after[seat]) for seat in ruleset.seats}
    return {**setup, "hands": hands, "bought": bought}


def unknown_hands(rules: JSONObject, setup: JSONObject, actions: list[JSONObject]) -> JSONObject:
    """Plays without hands (`plays_only`): each seat holds what it plays, and one card more it
    never plays until an action marks its last hand (`"last": true`), so that the engine checks
    the turns, the hands' shapes and sizes, beating, burns and points, and sees who is out.
    Raises RuleViolation (a seat playing more than its share, D10) or BadDocument."""
    ruleset = RuleSet.from_json(rules)
    per_seat = cards_per_seat(ruleset)
    played = {seat: [0] * 15 for seat in ruleset.seats}
    out: set[int] = set()
    for action in actions:
        seat = action.get("seat") if isinstance(action, dict) else None
        if seat not in played:
            continue  # read_record names the problem
        if isinstance(action.get("cards"), str):
            for rank, n in enumerate(parse_cards(action["cards"])):
                played[seat][rank] += n
        if action.get("last") is True:
            out.add(seat)
    supply = list(full_deck(ruleset))
    for counts in played.values():
        supply = [a - b for a, b in zip(supply, counts, strict=True)]
    for seat in ruleset.seats:
        if card_count(tuple(played[seat])) > per_seat:
            raise RuleViolation(
                "D10",
                "played_too_many",
                f"seat {seat} played {card_count(tuple(played[seat]))} cards; "
                f"it was dealt {per_seat}",
                seat=seat,
                per_seat=per_seat,
                held=card_count(tuple(played[seat])),
            )
        if seat not in out:
            pad = next((rank for rank in PAD_RANKS if supply[rank] > 0), None)
            if pad is not None:
                supply[pad] -= 1
                played[seat][pad] += 1
    hands = {str(seat): format_cards(tuple(played[seat])) for seat in ruleset.seats}
    return {**setup, "hands": hands}


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
    `{"error": {"code": "bad_document", …}}`; an illegal action stops the replay there.

    The setup may give the hands as dealt and the tribute exchange (`dealt_hands`), or no hands
    at all (`plays_only`, `unknown_hands`): then `hands` says nothing and `left` counts the
    cards not played yet."""
    plays_only = bool(setup.get("plays_only"))
    try:
        if plays_only:
            setup = unknown_hands(rules, setup, actions)
        else:
            setup = dealt_hands(rules, setup)
        doc = record_of(rules, setup, actions)
        record = read_record(doc)
    except BadDocument as exc:
        unreadable = {"action": None, "rule": None, "code": "bad_document", "message": exc.message}
        return {"error": unreadable, "labels": card_labels()}
    except RuleViolation as violation:
        return {"error": _error(None, violation), "labels": card_labels()}
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
    answer = _where(state, legal and not plays_only)
    answer["error"] = error
    answer["accepted"] = done
    answer["plays_only"] = plays_only
    answer["record"] = record_of(rules, setup, actions[:done])
    answer["labels"] = card_labels()  # R5 characters as a reader sees them
    answer["union_scores"] = None
    answer["tributes"] = None
    if plays_only:
        per_seat = cards_per_seat(record.rules)
        answer["hands"] = {}
        answer["left"] = {
            key: per_seat
            - sum(n for n in parse_cards(cards))
            + (0 if int(key) in _out(actions[:done]) else 1)
            for key, cards in answer["record"]["hands"].items()
        }
    if answer["complete"]:
        verdict = replay_verdict(answer["record"])
        scores = verdict.union_scores  # R31-R33
        answer["union_scores"] = scores.to_json() if scores is not None else None
        answer["tributes"] = [tribute.to_json() for tribute in verdict.tributes]  # R35-R42
    answer["setup_hands"] = setup.get("hands") if not plays_only else None
    answer["bought"] = setup.get("bought") or []  # R28's purchases, as the engine made them
    return answer


def _out(actions: list[JSONObject]) -> set[int]:
    return {a["seat"] for a in actions if isinstance(a, dict) and a.get("last") is True}


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
