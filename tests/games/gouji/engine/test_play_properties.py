"""Property tests: `legal_actions` and `apply` agree on states reached by self-play."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from matches.games.gouji.engine import play
from matches.games.gouji.engine.ruleset import PRESETS
from matches.games.gouji.engine.selfplay import choose_action, deal_hands
from matches.kernel.engine_errors import RuleViolation


def reached_state(preset: str, seed: int, steps: int) -> play.State:
    rng = random.Random(seed)
    rules = PRESETS[preset]
    state = play.start(rules, deal_hands(rules, rng), rng.randint(1, rules.players))
    for _ in range(steps):
        if state.over:
            break
        _, state = choose_action(state, rng)
    return state


def accepts(state, action) -> bool:
    try:
        play.apply(state, action)
    except RuleViolation:
        return False
    return True


def random_cards(held: tuple, rng: random.Random) -> tuple:
    """A random sub-multiset of the cards held, or (sometimes) one card too many."""
    counts = [rng.randint(0, n) if rng.random() < 0.3 else 0 for n in held]
    if rng.random() < 0.5:
        rank = rng.choice([r for r, n in enumerate(held) if n] or [0])
        counts[rank] = rng.randint(1, max(held[rank], 1))
    if rng.random() < 0.1:
        counts[rng.randrange(15)] += 1
    return tuple(counts)


@settings(max_examples=60, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 150),
)
def test_legal_actions_are_exactly_what_apply_accepts(preset, seed, steps):
    state = reached_state(preset, seed, steps)
    legal = play.legal_actions(state)
    assert len(set(legal)) == len(legal)
    for action in legal:
        assert accepts(state, action), action
    legal = set(legal)
    rng = random.Random(seed)
    for seat in state.seats:
        for kind in (play.PASS, play.YIELD):
            action = play.Action(seat, kind, None)
            assert accepts(state, action) == (action in legal)
        for _ in range(15):
            action = play.Action(seat, play.PLAY, random_cards(state.hands[seat], rng))
            if sum(action.cards) == 0:
                continue
            assert accepts(state, action) == (action in legal), action


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6))
def test_self_play_ends_with_every_place_given_once(preset, seed):
    state = reached_state(preset, seed, 10_000)
    assert state.over
    assert sorted(state.places[1:]) == list(state.seats)
    assert len(set(state.finished)) == len(state.finished)
    assert len(state.points) == len(set(state.points))


def test_copy_keeps_every_field():
    state = reached_state("standard", 3, 40)
    copied = state.copy()
    for name in play.State.__slots__:
        assert getattr(copied, name) is getattr(state, name), name


def check_invariants(state: play.State) -> None:
    placed = [seat for seat in state.seats if state.places[seat]]
    assert len({state.places[seat] for seat in placed}) == len(placed)
    if state.over:
        assert sorted(state.places[1:]) == list(state.seats)
        assert state.burner == 0
        return
    assert placed == [seat for seat in state.seats if not state.active(seat)]
    assert state.gone_count == len(placed)
    assert state.active(state.turn)
    assert all(min(state.hands[seat]) >= 0 for seat in state.seats)
    assert all(sum(state.hands[seat]) for seat in state.seats if state.active(seat))
    if state.phase == play.LEAD:
        assert state.top is None and state.passed == 0
    else:
        assert state.top is not None and state.turn != state.owner or state.phase == play.ANSWERED
    if state.phase == play.LAST_ANSWER:
        assert not state.active(state.owner) and state.turn == state.table.rival[state.owner]
    if state.phase == play.GOUJI:
        assert state.in_force and state.turn == state.table.rival[state.owner]
    if state.burner:
        assert state.active(state.burner)
        assert state.owner == state.burner or (
            state.phase == play.LEAD and state.turn == state.burner
        )
        assert sum(1 for burn in state.burns if burn[2] is None) == 1
    else:
        assert all(burn[2] is not None for burn in state.burns)


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(sorted(PRESETS)), seed=st.integers(0, 10**6))
def test_invariants_hold_through_a_deal(preset, seed):
    rng = random.Random(seed)
    rules = PRESETS[preset]
    state = play.start(rules, deal_hands(rules, rng), rng.randint(1, rules.players))
    while not state.over:
        check_invariants(state)
        _, state = choose_action(state, rng)
    check_invariants(state)
