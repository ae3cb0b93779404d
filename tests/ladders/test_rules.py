"""The 擂台赛 ladder's pure rules (ladders/rules.py; docs/ladder.md)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ladders.rules import (
    CHIEF,
    SLOTS,
    VANGUARDS,
    VICES,
    LadderError,
    Outcome,
    Rank,
    Slot,
    both_forfeit,
    challenge_winner,
    forfeit_winner,
    game_winner,
    knockout_round,
    next_challenges,
    points_table,
    seed_titles,
    titles_after_session,
    vanguard_schedule,
)

# --- one 局 ------------------------------------------------------------------------------------

GAMES = [
    # deals, winner (0 first side, 1 second, None open)
    ([], None),
    ([(10, 0), (10, 0), (10, 0)], None),  # three 把 of four: open however far ahead
    ([(10, 0), (0, 5), (3, 3), (0, 1)], 0),  # 13 : 9
    ([(0, 10), (5, 0), (0, 0), (1, 0)], 1),  # 6 : 10
    ([(5, 0), (0, 5), (2, 2), (1, 1)], None),  # 8 : 8 after four: one more 把
    ([(5, 0), (0, 5), (2, 2), (1, 1), (0, 3)], 1),  # the fifth 把 decides
    ([(5, 0), (0, 5), (2, 2), (1, 1), (4, 4), (1, 0)], 0),  # tied again, the sixth decides
]


@pytest.mark.parametrize("deals,winner", GAMES)
def test_a_game_is_four_deals_and_a_tie_adds_one(deals, winner):
    assert game_winner(deals) == winner


def test_a_deal_after_the_game_was_decided_is_refused():
    with pytest.raises(LadderError, match="deal 5 is one too many"):
        game_winner([(5, 0), (0, 0), (0, 0), (0, 0), (0, 3)])


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=4, max_size=4))
def test_after_four_deals_the_higher_total_wins(deals):
    first, second = sum(a for a, _ in deals), sum(b for _, b in deals)
    expected = None if first == second else (0 if first > second else 1)
    assert game_winner(deals) == expected


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 30)), min_size=4, max_size=12))
def test_swapping_the_sides_swaps_the_winner(deals):
    try:
        winner = game_winner(deals)
    except LadderError:
        return
    swapped = game_winner([(b, a) for a, b in deals])
    assert swapped == (None if winner is None else 1 - winner)


# --- a challenge: best of three 局 ----------------------------------------------------------

WIN_A = [(10, 0)] * 4
WIN_B = [(0, 10)] * 4
OPEN = [(10, 0)] * 2

CHALLENGES = [
    ([], None),
    ([WIN_A], None),
    ([WIN_A, WIN_A], 0),
    ([WIN_A, WIN_B], None),
    ([WIN_A, WIN_B, WIN_B], 1),
    ([WIN_B, WIN_A, OPEN], None),
]


@pytest.mark.parametrize("games,winner", CHALLENGES)
def test_a_challenge_is_best_of_three_games(games, winner):
    assert challenge_winner(games) == winner


def test_a_third_game_after_two_wins_and_a_game_after_an_open_one_are_refused():
    with pytest.raises(LadderError, match="局 3 is one too many"):
        challenge_winner([WIN_A, WIN_A, WIN_B])
    with pytest.raises(LadderError, match="局 1 is not decided"):
        challenge_winner([OPEN, WIN_A])


# --- seeding and the session's draw -----------------------------------------------------------


def test_last_seasons_top_eight_defend_in_order():
    titles = seed_titles(list("ABCDEFGHIJ"))
    assert titles[CHIEF] == "A"
    assert [titles[s] for s in VICES] == ["B", "C"]
    assert [titles[s] for s in VANGUARDS] == list("DEFGH")


@pytest.mark.parametrize(
    "ranking,message", [(list("ABCDEFG"), "needs 8 teams"), (list("ABCDEFGA"), "twice")]
)
def test_a_seeding_without_eight_distinct_teams_is_refused(ranking, message):
    with pytest.raises(LadderError, match=message):
        seed_titles(ranking)


@given(st.integers(0, 40), st.integers(0, 2**32))
def test_the_knockout_brings_any_field_down_to_five(size, seed):
    rng = random.Random(seed)
    field = list(range(size))
    rounds = 0
    while True:
        pairs, through = knockout_round(field, rng)
        if not pairs:
            break
        played = [t for pair in pairs for t in pair]
        assert len(set(played)) == len(played) and not set(played) & set(through)
        assert sorted(played + through) == sorted(field)
        field = [rng.choice(pair) for pair in pairs] + through  # whoever wins
        rounds += 1
    assert len(field) == min(size, 5)
    # the surplus goes in as few rounds as halving allows
    assert rounds == 0 or len(field) == 5


@given(st.integers(1, 5), st.integers(0, 2**32))
def test_each_challenger_meets_every_vanguard_once_and_a_vanguard_defends_once_a_round(n, seed):
    schedule = vanguard_schedule(list(range(n)), random.Random(seed))
    assert len(schedule) == 5
    for rnd in schedule:
        assert len({slot for _, slot in rnd}) == len(rnd) == n
    for team in range(n):
        assert sorted(slot for rnd in schedule for t, slot in rnd if t == team) == sorted(VANGUARDS)


def test_more_than_five_challengers_play_the_knockout_first():
    with pytest.raises(LadderError, match="knockout first"):
        vanguard_schedule(list(range(6)), random.Random(1))


@pytest.mark.parametrize(
    "vanguard_wins,vice_wins,vice_played,chief_played,earned",
    [
        (2, 0, 0, False, []),
        (3, 0, 0, False, [Rank.VICE, Rank.VICE]),
        (5, 1, 2, False, []),
        (3, 2, 2, False, [Rank.CHIEF]),
        (4, 2, 2, True, []),
    ],
)
def test_three_vanguard_wins_earn_the_vices_and_two_vice_wins_the_chief(
    vanguard_wins, vice_wins, vice_played, chief_played, earned
):
    assert (
        next_challenges(
            vanguard_wins, vice_wins, vice_played=vice_played, chief_played=chief_played
        )
        == earned
    )


# --- the session's close ------------------------------------------------------------------------

HOLDERS = seed_titles(list("ABCDEFGH"))
V1, V2 = VANGUARDS[0], VANGUARDS[1]


def test_a_challenger_takes_the_highest_title_it_won_and_the_holder_steps_down():
    outcomes = [
        Outcome("X", V1, "D", True),
        Outcome("X", VICES[0], "B", True),
        Outcome("X", VICES[1], "C", False),
    ]
    titles = titles_after_session(HOLDERS, outcomes)
    assert titles[VICES[0]] == "X"
    assert titles[V1] == "D"  # X took the higher title; nobody else beat D
    assert "B" not in titles.values()


def test_two_claimants_of_one_title_go_by_wins_then_margins():
    outcomes = [
        Outcome("X", V1, "D", True, game_margin=1, deal_margin=10),
        Outcome("Y", V1, "D", True, game_margin=2, deal_margin=5),
        Outcome("X", V2, "E", True, game_margin=1, deal_margin=1),
    ]
    titles = titles_after_session(HOLDERS, outcomes)
    assert titles[V1] == "X"  # two wins beat one, margins aside
    assert titles[V2] == "E"  # X already took 先锋 1; Y never beat E
    outcomes = outcomes[:2]
    assert titles_after_session(HOLDERS, outcomes)[V1] == "Y"  # one win each: the 局 margin


def test_a_title_the_winner_leaves_behind_goes_to_the_next_claimant():
    outcomes = [
        Outcome("X", CHIEF, "A", True),
        Outcome("X", V1, "D", True),
        Outcome("Y", V1, "D", True),
    ]
    titles = titles_after_session(HOLDERS, outcomes)
    assert titles[CHIEF] == "X" and titles[V1] == "Y"


@given(
    st.lists(
        st.tuples(st.sampled_from("XYZUV"), st.sampled_from(SLOTS), st.booleans()),
        max_size=30,
    )
)
def test_after_a_session_every_title_has_one_holder(results):
    outcomes = [Outcome(c, slot, HOLDERS[slot], won) for c, slot, won in results]
    titles = titles_after_session(HOLDERS, outcomes)
    assert set(titles) == set(SLOTS)
    assert len(set(titles.values())) == len(SLOTS)
    for slot, team in titles.items():
        if team != HOLDERS[slot]:  # a title changed hands only to a challenger that beat its holder
            assert any(
                o.challenger == team and o.slot == slot and o.challenger_won for o in outcomes
            )


def test_points_go_to_whoever_wins_the_challenge():
    outcomes = [
        Outcome("X", V1, "D", True),
        Outcome("X", VICES[0], "B", False),
        Outcome("Y", CHIEF, "A", True),
    ]
    assert points_table(outcomes) == {"X": 1, "B": 3, "Y": 6}


@pytest.mark.parametrize(
    "no_shows,winner,void",
    [
        ((0, 0), None, False),
        ((1, 1), None, False),
        ((2, 0), 1, False),
        ((1, 2), 0, False),
        ((2, 2), None, True),
    ],
)
def test_the_second_no_show_forfeits(no_shows, winner, void):
    assert forfeit_winner(no_shows) == winner
    assert both_forfeit(no_shows) is void


def test_slot_keys_round_trip():
    assert all(Slot.from_key(s.key) == s for s in SLOTS)
    with pytest.raises(LadderError):
        Slot.from_key("vanguard-6")
