"""Property tests of the tribute exchange (engine/exchange.py): from any whole deal and any
ledger of tributes between seats, the exchange keeps the deck whole, pays each tribute with the
payer's highest cards (R42) and leaves every seat its share (D10) once the returns are given;
a return of the wrong size or of cards not held is refused, never half applied."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.games.gouji.engine.cards import (
    add_cards,
    card_count,
    cards_per_seat,
    full_deck,
    holds,
    remove_cards,
)
from matches.games.gouji.engine.exchange import exchange, highest
from matches.games.gouji.engine.ruleset import PRESETS
from matches.games.gouji.engine.selfplay import deal_hands
from matches.kernel.engine_errors import RuleViolation

PRESET_NAMES = sorted(PRESETS)


def _deal(rules, rng: random.Random) -> dict:
    """A shuffled whole deck (R3) given out seat by seat, as the operator enters it."""
    hands = deal_hands(rules, rng)
    return {seat: hands[seat] for seat in rules.seats}


def _ledger(rules, rng: random.Random) -> list[dict]:
    """Up to three tributes between different seats, 1-3 cards each."""
    entries = []
    for _ in range(rng.randint(0, 3)):
        payer, receiver = rng.sample(list(rules.seats), 2)
        entries.append({"from": payer, "to": receiver, "kind": "place", "cards": rng.randint(1, 3)})
    return entries


def _paid_hands(rules, dealt, ledger):
    """What each receiver holds once the tributes are paid (the engine's own order)."""
    hands = dict(dealt)
    for entry in ledger:
        paid = highest(hands[entry["from"]], entry["cards"])
        hands[entry["from"]] = remove_cards(hands[entry["from"]], paid)
        hands[entry["to"]] = add_cards(hands[entry["to"]], paid)
    return hands


def _returns(rules, dealt, ledger, rng: random.Random):
    """For each tribute, cards the receiver holds at that point, as many as it received: the
    lowest it has, or a random choice of what it holds."""
    hands = _paid_hands(rules, dealt, ledger)
    returns = []
    for entry in ledger:
        held = hands[entry["to"]]
        pool = [rank for rank, n in enumerate(held) for _ in range(n)]
        chosen = rng.sample(pool, entry["cards"])
        back = tuple(chosen.count(rank) for rank in range(len(held)))
        hands[entry["to"]] = remove_cards(held, back)
        hands[entry["from"]] = add_cards(hands[entry["from"]], back)
        returns.append(back)
    return returns


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32 - 1))
def test_the_exchange_keeps_the_deck_and_every_share(preset, seed):
    rng = random.Random(seed)
    rules = PRESETS[preset]
    dealt = _deal(rules, rng)
    ledger = _ledger(rules, rng)
    returns = _returns(rules, dealt, ledger, rng)
    after = exchange(rules, dealt, ledger, returns)
    total = tuple(sum(hand[rank] for hand in after.values()) for rank in range(len(dealt[1])))
    assert total == full_deck(rules)
    assert all(card_count(after[seat]) == cards_per_seat(rules) for seat in rules.seats)


@settings(max_examples=60, deadline=None)
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32 - 1))
def test_a_tribute_is_the_payers_highest_cards(preset, seed):
    rng = random.Random(seed)
    rules = PRESETS[preset]
    dealt = _deal(rules, rng)
    payer, receiver = rng.sample(list(rules.seats), 2)
    size = rng.randint(1, 3)
    paid = highest(dealt[payer], size)
    assert card_count(paid) == size and holds(dealt[payer], paid)
    lowest_paid = min(rank for rank, n in enumerate(paid) if n)
    kept = remove_cards(dealt[payer], paid)
    # nothing kept outranks the lowest card paid
    assert all(n == 0 for n in kept[lowest_paid + 1 :])
    ledger = [{"from": payer, "to": receiver, "kind": "place", "cards": size}]
    returns = _returns(rules, dealt, ledger, rng)
    after = exchange(rules, dealt, ledger, returns)
    assert after[payer] == add_cards(kept, returns[0])


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32 - 1))
def test_a_return_of_the_wrong_size_is_refused(preset, seed):
    rng = random.Random(seed)
    rules = PRESETS[preset]
    dealt = _deal(rules, rng)
    payer, receiver = rng.sample(list(rules.seats), 2)
    ledger = [{"from": payer, "to": receiver, "kind": "place", "cards": 2}]
    (back,) = _returns(rules, dealt, ledger, rng)
    short = remove_cards(back, highest(back, 1))
    with pytest.raises(RuleViolation) as refused:
        exchange(rules, dealt, ledger, [short])
    assert refused.value.code == "return_size"


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(PRESET_NAMES), seed=st.integers(0, 2**32 - 1))
def test_a_return_the_receiver_does_not_hold_is_refused(preset, seed):
    rng = random.Random(seed)
    rules = PRESETS[preset]
    dealt = _deal(rules, rng)
    payer, receiver = rng.sample(list(rules.seats), 2)
    ledger = [{"from": payer, "to": receiver, "kind": "place", "cards": 1}]
    held = _paid_hands(rules, dealt, ledger)[receiver]
    missing = [rank for rank, n in enumerate(held) if n == 0]
    if not missing:
        return  # the receiver holds every rank: nothing it lacks to return
    back = tuple(1 if rank == missing[0] else 0 for rank in range(len(held)))
    with pytest.raises(RuleViolation) as refused:
        exchange(rules, dealt, ledger, [back])
    assert refused.value.code == "return_not_held"
