"""G4: players, the distribution, and records whose setup breaks G1/G4."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from matches.games.giog.engine.pieces import FULL_SET
from matches.games.giog.engine.selfplay import deal

from .helpers import run


@pytest.mark.parametrize("players, hand_size, out_size", [(4, 8, 0), (3, 10, 2), (2, 12, 8)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_g4_a_deal_gives_each_player_the_same_share(players, hand_size, out_size, seed):
    hands, out = deal(random.Random(seed), players)
    assert sorted(hands) == list(range(1, players + 1))
    assert {len(h) for h in hands.values()} == {hand_size}
    assert len(out) == out_size
    everything = Counter(out)
    for pieces in hands.values():
        everything.update(pieces)
    assert everything == FULL_SET


def test_g4_the_same_seed_deals_the_same_pieces():
    assert deal(random.Random(5), 4) == deal(random.Random(5), 4)
    assert deal(random.Random(5), 4) != deal(random.Random(6), 4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_g4_a_full_deal_is_a_valid_setup(players):
    hands, out = deal(random.Random(9), players)
    v = run([hands[s] for s in sorted(hands)], out=out)
    assert v["valid"] and not v["complete"]
    assert v["won"] == {str(s): 0 for s in range(1, players + 1)}


@pytest.mark.parametrize(
    "hands, out, expected",
    [
        (["RR", "RP", "pp", "pp"], "", ("G1", "too_many_pieces")),
        (["K", "p", "c", "n"], "K", ("G1", "too_many_pieces")),  # the out pieces count too
        (["RR", "p", "pp", "pp"], "", ("G4", "unequal_hands")),
        (["", "", "", ""], "", ("G4", "empty_hand")),
        # 2 players hold 12 each, not 13
        (["KAABBRRNNCCP", "kaabbrrnnccp" + "P"], "", ("G4", "hand_size")),
        # the whole set with 3 players must leave exactly 2 pieces out
        (["KAABBRRNN", "CCPPPPPkb", "aabrrnncc"], "ppppp", ("G4", "out_size")),
    ],
)
def test_g4_a_setup_breaking_the_rules_is_invalid_before_any_action(hands, out, expected):
    v = run(hands, "", out=out)
    assert not v["valid"] and not v["complete"]
    assert v["error"]["action"] is None
    assert (v["error"]["rule"], v["error"]["code"]) == expected
    assert v["error"]["message"]


def test_g4_a_position_may_leave_pieces_unaccounted():
    # Two pieces each, most of the set nowhere: allowed for tests and puzzles.
    v = run(["Rp", "Nc", "Bn"], "")
    assert v["valid"]
