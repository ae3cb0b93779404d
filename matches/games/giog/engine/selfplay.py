"""A seeded random deal and simple random bots, for tests, benchmarks and demo data.

The deal skips the article's choosing ceremony (G4): it only decides who gets which pieces,
and a shuffled deal from `random.Random(seed)` gives every player the same chances.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

from matches.kernel.engine_errors import EngineBug

from .combinations import combinations_in
from .pieces import DISTRIBUTION, FULL_SET, sort_pieces
from .play import HandState
from .record import DEFAULT_RULES, Action, HandRecord, write_record
from .replay import replay_record


def deal(rng: random.Random, players: int) -> tuple[dict[int, str], str]:
    """Shuffle the 32 pieces; G4 sizes for each hand, the rest out of play."""
    hand_size, _ = DISTRIBUTION[players]
    pieces = sorted(FULL_SET.elements())
    rng.shuffle(pieces)
    hands = {
        seat: sort_pieces("".join(pieces[(seat - 1) * hand_size : seat * hand_size]))
        for seat in range(1, players + 1)
    }
    return hands, sort_pieces("".join(pieces[players * hand_size :]))


def choose_play(state: HandState, rng: random.Random) -> str:
    """A random legal play for the seat to act."""
    seat = state.to_act()
    if seat is None:
        raise EngineBug("nobody is to act in a complete hand")
    hand = state.hands[seat]
    trick = state.trick
    if trick is None:
        return rng.choice([pieces for pieces, _ in combinations_in(hand)])
    winners = state.winning_plays(seat)
    if state.must_compete and winners:
        return rng.choice(winners)
    competing = [pieces for pieces, _ in combinations_in(hand, trick.lead.kind, trick.size)]
    if competing and rng.random() < 0.7:
        return rng.choice(competing)
    return "".join(rng.sample(list(hand.elements()), trick.size))


def play_out(
    rng: random.Random,
    players: int,
    hands: dict[int, str],
    leader: int,
    rules: dict[str, Any] | None = None,
    out: str = "",
) -> HandRecord:
    """Play `hands` (a full deal or a position) to the end with random bots.

    The record carries the outcome under `claimed`, so replaying it checks itself.
    """
    rules = dict(rules or {})
    flags = {**DEFAULT_RULES, **rules}
    state = HandState(
        players, hands, leader, must_compete=flags["must_compete"], tie_order=flags["tie_order"]
    )
    actions = []
    while not state.complete:
        seat = state.to_act()
        if seat is None:
            raise EngineBug("nobody is to act in a hand that is not complete")
        pieces = choose_play(state, rng)
        state.apply(seat, pieces)
        actions.append(Action(seat, pieces))
    record = HandRecord(
        players=players, hands=hands, leader=leader, actions=actions, out=out, rules=rules
    )
    verdict = replay_record(record)
    if not verdict.complete:
        raise EngineBug(f"a self-played hand does not replay: {verdict.error}")
    record.claimed = {
        "won": dict(state.won),
        "beheaded": list(verdict.beheaded),
        "places": [list(group) for group in verdict.places],
    }
    return record


def play_hand(
    rng: random.Random, players: int = 4, rules: dict[str, Any] | None = None
) -> HandRecord:
    """Deal (G4) and play one complete hand."""
    hands, out = deal(rng, players)
    return play_out(rng, players, hands, rng.randint(1, players), rules, out)


def selfplay(
    count: int, seed: int, players: int = 4, rules: dict[str, Any] | None = None
) -> Iterator[dict[str, Any]]:
    """`count` complete `giog-hand/1` documents; the same seed gives the same hands."""
    rng = random.Random(seed)
    for _ in range(count):
        yield write_record(play_hand(rng, players, rules))
