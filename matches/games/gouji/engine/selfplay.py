"""Self-play: deal full games from a seeded `random.Random` and play them out with simple bots.

Each bot picks a random legal action, biased toward playing so that deals finish: the seat in
turn plays when it can (most of the time), burners and headless players sometimes jump in, and
a burner mostly keeps to the joker rule (R22). Every choice goes through `play.apply`, so a
record is legal by construction; the same seed gives the same records, byte for byte.
"""

from __future__ import annotations

import json
import random
from typing import Any, Iterable, Iterator, Protocol

from matches.games.gouji.engine import exchange
from matches.games.gouji.engine import play as engine
from matches.games.gouji.engine.cards import BIG, SMALL, TWO, full_deck
from matches.games.gouji.engine.hands import beats, opens_point
from matches.games.gouji.engine.play import (
    NO_CARDS,
    PASS,
    PLAY,
    YIELD,
    Action,
    Counts,
    Hands,
    hand_of,
)
from matches.games.gouji.engine.record import DealRecord, write_record
from matches.games.gouji.engine.replay import _finish, initial_state, outcome_of
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.seating import head_rival
from matches.games.gouji.engine.settle import union_scores
from matches.kernel.engine_errors import EngineBug, RuleViolation

PLAY_CHANCE = 0.8  # the seat in turn plays when it can
JUMP_IN_CHANCE = 0.15  # a burner or headless player answers a Gou Ji hand out of turn
WRITTEN_PASS_CHANCE = 0.03  # a non-rival writes the pass it need not write (D1)
YIELD_CHANCE = 0.2
KEEP_JOKER_RULE = 0.9  # a burner leads with a joker when it can
MAX_ACTIONS = 5000


def deal_hands(rules: RuleSet, rng: random.Random) -> Hands:
    """Shuffle the whole deck (R3) and give each seat its share (D10, R46)."""
    deck = [rank for rank, count in enumerate(full_deck(rules)) for _ in range(count)]
    rng.shuffle(deck)
    share = len(deck) // rules.players
    hands: list[Counts] = [NO_CARDS]
    for seat in rules.seats:
        counts = [0] * 15
        for rank in deck[(seat - 1) * share : seat * share]:
            counts[rank] += 1
        hands.append(tuple(counts))
    return tuple(hands)


def buy_threes(dealt: Hands, rules: RuleSet | None = None) -> Hands:
    """R28 on a fresh deal (`exchange.buy_threes`): a seat dealt no 3 buys one."""
    rules = rules if rules is not None else RuleSet()
    after, _bought = exchange.buy_threes({seat: dealt[seat] for seat in rules.seats}, rules)
    return (dealt[0], *(after[seat] for seat in rules.seats))


def _choose_lead(state: engine.State, seat: int, rng: random.Random) -> tuple[Action, engine.State]:
    held = state.hands[seat]
    options = list(engine.hands_in(held))
    if state.burner == seat:
        # R22: a burner's step holds a joker (or is the last hand); bots mostly obey, and
        # spend one joker a step on a whole rank so that the burn may last to the end
        keep = [c for c in options if c == held] or [
            c
            for c in options
            if c[SMALL] + c[BIG] == 1 and all(c[r] in (0, held[r]) for r in range(TWO + 1))
        ]
        if keep and rng.random() < KEEP_JOKER_RULE:
            options = keep
    rng.shuffle(options)
    # favour plain hands (no attached 2s or jokers) so that bots do not waste them at once
    options.sort(key=lambda c: (c[TWO] + c[SMALL] + c[BIG] > 0) and rng.random() < 0.7)
    for cards in options:
        try:
            return Action(seat, PLAY, cards), engine.apply(state, Action(seat, PLAY, cards))
        except RuleViolation:
            continue
    raise EngineBug(f"seat {seat} has no legal lead in {state!r}")


def _jump_in_chance(state: engine.State, seat: int) -> float:
    """Headless answers are cheap; a burn is worth trying only with jokers for every step."""
    if state.headless(seat):
        return JUMP_IN_CHANCE
    held = state.hands[seat]
    steps = sum(1 for rank in range(TWO + 1) if held[rank])
    return JUMP_IN_CHANCE if held[SMALL] + held[BIG] + 1 >= steps else 0.01


def choose_action(state: engine.State, rng: random.Random) -> tuple[Action, engine.State]:
    """A bot's choice in `state` and the state after it."""
    phase = state.phase
    turn = state.turn
    if phase == engine.LEAD or phase == engine.ANSWERED and rng.random() < 0.6:
        return _choose_lead(state, turn, rng)
    if phase in (engine.GOUJI, engine.ANSWERED):
        others = [
            seat
            for seat in state.seats
            if seat not in (turn, state.owner) and not (state.gone | state.passed) >> seat & 1
        ]
        rng.shuffle(others)
        for seat in others:
            if rng.random() < _jump_in_chance(state, seat):
                plays = engine.playable(state, seat)
                if plays:
                    action = Action(seat, PLAY, rng.choice(plays))
                    return action, engine.apply(state, action)
            if rng.random() < WRITTEN_PASS_CHANCE:
                action = Action(seat, PASS, None)
                return action, engine.apply(state, action)
        if phase == engine.ANSWERED:
            return _choose_lead(state, turn, rng)
    plays = engine.playable(state, turn)
    if plays and rng.random() < PLAY_CHANCE:
        action = Action(turn, PLAY, rng.choice(plays))
        return action, engine.apply(state, action)
    if rng.random() < YIELD_CHANCE:
        try:
            action = Action(turn, YIELD, None)
            return action, engine.apply(state, action)
        except RuleViolation:
            pass
    action = Action(turn, PASS, None)
    return action, engine.apply(state, action)


def contest_points(rules: RuleSet, hands: Hands, revolution: tuple[int, ...]) -> tuple[int, ...]:
    """R29 `revolution_contest` before play: the revolutionary plays its best point-opening set
    and opens a point when its head rival cannot beat it. (Bots never make the rival's three
    point-opening answers, so the rival opens none.)"""
    if not rules.revolution_contest or not 1 <= len(revolution) <= 2:
        return ()
    opened = []
    for rebel in revolution:
        sets = [
            hand_of(cards)
            for cards in engine.hands_in(hands[rebel])
            if opens_point(hand_of(cards), rules)
        ]
        if not sets:
            continue
        best = max(sets, key=lambda hand: (hand.rank, hand.size))
        rival = head_rival(rebel, rules.players)
        if rival in revolution:
            continue  # R56: two revolutionaries who are head rivals play no contest
        if any(beats(hand_of(c), best, rules) for c in engine.hands_in(hands[rival], best.size)):
            continue
        opened.append(rebel)
    return tuple(opened)


def play_deal(
    rules: RuleSet,
    rng: random.Random,
    hands: Hands | None = None,
    revolution: tuple[int, ...] | None = None,
) -> DealRecord:
    """Deal and play one full deal; the record claims the outcome the engine reached. `hands`
    and `revolution`, when given, replace the shuffled deal and the bots' revolution choice (a
    test sets up two revolutionaries so)."""
    if hands is None:
        hands = deal_hands(rules, rng)
        if rules.hold_three and rules.no_three == "buy":
            hands = buy_threes(hands, rules)
    seats = rules.seats
    leader = rng.randint(1, rules.players)
    declarations = {}
    for seat in seats:
        roll = rng.random()
        if roll < 0.04:
            declarations[seat] = "clear"
        elif roll < 0.06:
            declarations[seat] = "unclear"
        elif roll < 0.10 and rules.special_declaration:
            declarations[seat] = "special"  # R34 特点
    if revolution is None:
        revolution = ()
        if rules.revolution:
            rebels = [s for s in seats if not (hands[s][TWO] or hands[s][SMALL] or hands[s][BIG])]
            allowed = 2 if rules.two_revolutions else 1  # R29, R56
            if 1 <= len(rebels) <= allowed and rng.random() < 0.5:
                revolution = tuple(rebels)
    contest = contest_points(rules, hands, revolution)
    state = initial_state(
        DealRecord(
            rules=rules,
            hands=hands,
            leader=leader,
            revolution=revolution,
            claimed={"points": list(contest)},
        )
    )
    actions = []
    while state.phase != engine.OVER:
        action, state = choose_action(state, rng)
        actions.append(action)
        if len(actions) > MAX_ACTIONS:
            raise EngineBug("a self-played deal did not finish")
    record = DealRecord(
        rules=rules,
        hands=hands,
        leader=leader,
        actions=tuple(actions),
        declarations=declarations,
        revolution=revolution,
    )
    finish = _finish(record, state)
    claimed = {
        "finish": finish,
        "points": list(state.points),
        "burns": [{"burner": b, "burned": d, "outcome": o} for b, d, o, _ in state.burns],
        "suffocated": [{"seat": s, "by": by} for s, by in state.suffocated],
        "union_scores": union_scores(outcome_of(record, state, finish), rules).to_json(),
    }
    return DealRecord(
        rules=rules,
        hands=hands,
        leader=leader,
        actions=tuple(actions),
        declarations=declarations,
        revolution=revolution,
        claimed=claimed,
    )


class Writer(Protocol):
    """A file, or a management command's stdout."""

    def write(self, text: str, /) -> object: ...


def selfplay(
    count: int, seed: int, rules: RuleSet | str | dict[str, Any] = "standard"
) -> Iterator[dict[str, Any]]:
    """`count` self-played deal records (JSON objects) from `random.Random(seed)`."""
    if not isinstance(rules, RuleSet):
        rules = RuleSet.from_json(rules)  # a preset name or a rules object
    rng = random.Random(seed)
    for _ in range(count):
        yield write_record(play_deal(rules, rng))


def write_jsonl(records: Iterable[dict[str, Any]], handle: Writer) -> int:
    """One compact JSON document a line; returns how many were written."""
    written = 0
    for doc in records:
        handle.write(json.dumps(doc, ensure_ascii=False, separators=(",", ":")) + "\n")
        written += 1
    return written
