"""Mutating one action of a self-played deal: the replay rejects it at that action, or the
mutated action is legal there (checked against `legal_actions`)."""

from __future__ import annotations

import copy
import random

import pytest

from matches.games.gouji.engine import play
from matches.games.gouji.engine.cards import format_cards, parse_cards
from matches.games.gouji.engine.record import read_record, write_action
from matches.games.gouji.engine.replay import initial_state, replay
from matches.games.gouji.engine.selfplay import selfplay


def states_before(doc) -> list:
    record = read_record(doc)
    state = initial_state(record)
    states = [state]
    for action in record.actions:
        state = play.apply(state, action)
        states.append(state)
    return states


def other_cards(cards: str, rng: random.Random) -> str:
    """Another card set: one card swapped for a different rank, or one card more or less."""
    counts = list(parse_cards(cards))
    choice = rng.randrange(3)
    held = [rank for rank, n in enumerate(counts) if n]
    if choice == 0 or sum(counts) == 1:
        counts[rng.choice(held)] -= 1
        counts[rng.randrange(15)] += 1
    elif choice == 1:
        counts[rng.choice(held)] -= 1
    else:
        counts[rng.randrange(15)] += 1
    return format_cards(tuple(counts))


def mutations(doc, rng: random.Random, count: int):
    actions = doc["actions"]
    for _ in range(count):
        index = rng.randrange(len(actions))
        original = actions[index]
        kind = rng.randrange(3)
        if kind == 0 and "cards" in original:
            mutated = {"seat": original["seat"], "cards": other_cards(original["cards"], rng)}
            if not mutated["cards"] or mutated == original:
                continue
        elif kind == 1 and "cards" in original:
            mutated = {"seat": original["seat"], "pass": True}
        else:
            mutated = dict(original, seat=original["seat"] % 6 + 1)
        yield index, mutated


@pytest.mark.parametrize("preset", ["standard", "qingdao-hold3", "six-decks"])
def test_a_mutated_action_is_rejected_there_or_is_legal(preset):
    rng = random.Random(preset)
    checked = rejected = 0
    for doc in selfplay(4, 11, preset):
        states = states_before(doc)
        for index, mutated in mutations(doc, rng, 15):
            changed = copy.deepcopy(doc)
            changed["actions"][index] = mutated
            changed.pop("claimed", None)
            verdict = replay(changed)
            state = states[index]
            action = read_record({**changed, "actions": [mutated]}).actions[0]
            legal = action in play.legal_actions(state)
            if legal:
                # legal here: the replay goes on past it (it may fail later, in another line)
                assert verdict["error"] is None or verdict["error"]["action"] > index
            else:
                assert verdict["error"]["action"] == index, (mutated, write_action(action))
                rejected += 1
            checked += 1
    assert checked > 40 and rejected > checked // 2
