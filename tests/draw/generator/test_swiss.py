"""Team Swiss pairing, on plain objects (no database)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.kernel.pairing import types as flags
from matches.kernel.pairing.sides import seat_conflict
from matches.kernel.pairing.simulate import apply_round, field_of, random_outcome
from matches.kernel.pairing.swiss import pair_swiss
from matches.kernel.pairing.types import Entrant, SeatingError


def ids_of(draw):
    return sorted(u for p in draw.pairings for u in (p.a, p.b) if u is not None)


def test_round_one_seeded_pairs_top_half_against_bottom_half():
    draw = pair_swiss(field_of(8).values(), round_number=1)
    pairs = sorted(tuple(sorted((p.a, p.b))) for p in draw.pairings)
    assert pairs == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_round_one_odd_field_gives_the_lowest_seed_the_bye():
    draw = pair_swiss(field_of(7).values(), round_number=1)
    byes = [p for p in draw.pairings if p.is_bye]
    assert [p.a for p in byes] == [7]
    assert byes[0].flags == [flags.BYE]
    assert ids_of(draw) == list(range(1, 8))


def test_random_round_one_is_reproducible_from_its_seed():
    def pairs(seed):
        draw = pair_swiss(field_of(20).values(), round_number=1, seed=seed, seeded=False)
        return [(p.a, p.b) for p in draw.pairings]

    assert pairs(41) == pairs(41)
    assert pairs(41) != pairs(42)


def test_rejects_duplicates_and_tiny_fields():
    with pytest.raises(SeatingError):
        pair_swiss([Entrant(id=1), Entrant(id=1)], round_number=2)
    with pytest.raises(SeatingError):
        pair_swiss([Entrant(id=1)], round_number=2)


def test_avoids_a_rematch_even_at_the_cost_of_a_float():
    # 1 and 2 lead alone and have met: each must play someone from the group below.
    field = [
        Entrant(id=1, score=6, rank=1, opponents=frozenset({2})),
        Entrant(id=2, score=6, rank=2, opponents=frozenset({1})),
        Entrant(id=3, score=3, rank=3),
        Entrant(id=4, score=3, rank=4),
    ]
    draw = pair_swiss(field, round_number=3)
    pairs = {frozenset((p.a, p.b)) for p in draw.pairings}
    assert frozenset({1, 2}) not in pairs
    assert draw.quality["rematches"] == 0
    assert draw.quality["score_diff_sum"] == 6
    assert draw.quality["score_diff_lower_bound"] == 0
    for p in draw.pairings:
        assert flags.PULLED_DOWN in p.flags and flags.PULLED_UP in p.flags
        assert {p.details["pulled_down"], p.details["pulled_up"]} & {1, 2}


def test_forced_rematch_is_flagged():
    field = [Entrant(id=1, opponents=frozenset({2})), Entrant(id=2, opponents=frozenset({1}))]
    draw = pair_swiss(field, round_number=2)
    assert flags.REMATCH_FORCED in draw.pairings[0].flags
    assert draw.quality["rematches"] == 1


def test_seat_wishes_decide_who_takes_the_odd_seats():
    wants_a = Entrant(id="x", score=3, sides=("B",))
    wants_b = Entrant(id="y", score=3, sides=("A",))
    draw = pair_swiss([wants_a, wants_b], round_number=2)
    assert (draw.pairings[0].a, draw.pairings[0].b) == ("x", "y")


def test_seat_balance_ranks_below_score_difference_but_above_the_fold():
    # Two A-wanters and two B-wanters in one score group: pair across the wishes.
    field = [
        Entrant(id=1, score=3, rank=1, sides=("A", "B", "B")),  # needs A
        Entrant(id=2, score=3, rank=2, sides=("A", "B", "B")),  # needs A
        Entrant(id=3, score=3, rank=3, sides=("A", "A", "B")),  # needs B
        Entrant(id=4, score=3, rank=4, sides=("A", "A", "B")),  # needs B
    ]
    draw = pair_swiss(field, round_number=4)
    assert {p.a for p in draw.pairings} == {1, 2}
    assert draw.quality["seat_against_preference"] == 0


def test_byes_go_round_fairly_one_per_union():
    field = field_of(7)
    rng = random.Random(5)
    bye_takers = []
    for round_number in range(1, 8):
        draw = pair_swiss(field.values(), round_number=round_number, seed=round_number)
        bye_takers += [p.a for p in draw.pairings if p.is_bye]
        outcomes = {(p.a, p.b): random_outcome(rng) for p in draw.pairings if not p.is_bye}
        field = apply_round(field, draw, outcomes)
    assert sorted(bye_takers) == list(range(1, 8))


def brute_force_best(field):
    """The least (rematches, score difference, seat conflicts) over every perfect matching."""
    people = list(field)
    best = None

    def walk(rest, cost):
        nonlocal best
        if not rest:
            if best is None or cost < best:
                best = cost
            return
        x = rest[0]
        for k in range(1, len(rest)):
            y = rest[k]
            step = (y.id in x.opponents, abs(x.score - y.score), seat_conflict(x, y))
            walk(rest[1:k] + rest[k + 1 :], tuple(c + s for c, s in zip(cost, step)))

    walk(people, (0, 0, 0))
    return best


def achieved(draw, field):
    by_id = {e.id: e for e in field}
    seats = sum(seat_conflict(by_id[p.a], by_id[p.b]) for p in draw.pairings)
    return (draw.quality["rematches"], draw.quality["score_diff_sum"], seats)


@st.composite
def histories(draw, sizes=(4, 6, 8, 10)):
    size = draw(st.sampled_from(sizes))
    scores = draw(st.lists(st.sampled_from([0, 1, 3, 4, 6]), min_size=size, max_size=size))
    sides = draw(
        st.lists(
            st.sampled_from([(), ("A",), ("B",), ("A", "A"), ("B", "B"), ("A", "B")]),
            min_size=size,
            max_size=size,
        )
    )
    pairs = list(itertools.combinations(range(size), 2))
    met = draw(st.sets(st.sampled_from(pairs), max_size=size * 2))
    opponents = {i: set() for i in range(size)}
    for i, j in met:
        opponents[i].add(j)
        opponents[j].add(i)
    return [
        Entrant(id=i, score=scores[i], rank=i, opponents=frozenset(opponents[i]), sides=sides[i])
        for i in range(size)
    ]


@settings(max_examples=150, deadline=None)
@given(histories())
def test_matching_is_optimal_on_rematches_then_score_difference_then_seats(field):
    draw = pair_swiss(field, round_number=2)
    assert ids_of(draw) == sorted(e.id for e in field)
    assert achieved(draw, field) == brute_force_best(field)


@settings(max_examples=200, deadline=None)
@given(histories(sizes=(5, 6, 7, 8, 9, 10)))
def test_chunked_path_is_as_good_as_exact_on_small_fields(field):
    # Tiny chunks and windows force every growth path: wider windows, more chunks, back.
    exact = pair_swiss(field, round_number=2)
    chunked = pair_swiss(field, round_number=2, exact_limit=0, chunk_size=4, window=2)
    assert chunked.quality["method"] == "chunked"
    assert ids_of(chunked) == ids_of(exact)
    for key in ("rematches", "score_diff_sum", "byes"):
        assert chunked.quality[key] == exact.quality[key]


def test_chunked_path_loses_nothing_on_a_large_simulated_event():
    field = field_of(500)
    rng = random.Random(11)
    for round_number in range(1, 8):
        draw = pair_swiss(
            field.values(), round_number=round_number, seed=round_number, exact_limit=100
        )
        q = draw.quality
        assert q["rematches"] == 0
        assert q["score_diff_sum"] == q["score_diff_lower_bound"]
        if round_number > 1:
            assert q["method"] == "chunked"
        assert ids_of(draw) == list(range(1, 501))
        outcomes = {(p.a, p.b): random_outcome(rng) for p in draw.pairings if not p.is_bye}
        field = apply_round(field, draw, outcomes)
    assert all(abs(e.seat_balance) <= 2 for e in field.values())


def test_top_boards_come_first():
    field = [Entrant(id=i, score=s, rank=i) for i, s in enumerate([0, 0, 6, 6, 3, 3])]
    draw = pair_swiss(field, round_number=3)
    assert [p.details["score_a"] for p in draw.pairings] == [6, 3, 0]


# --- clubs kept apart (issue 15) ------------------------------------------------------------


def club_free_draw_exists(field) -> bool:
    """Whether some perfect matching (with a bye for an odd field) has no rematch, no repeated
    bye and no two unions of one club: checked on the graph of allowed edges alone."""
    import networkx as nx

    graph: nx.Graph[object] = nx.Graph()
    graph.add_nodes_from(e.id for e in field)
    for x, y in itertools.combinations(field, 2):
        if y.id not in x.opponents and (x.club is None or x.club != y.club):
            graph.add_edge(x.id, y.id)
    if len(field) % 2:
        graph.add_node("bye")
        for e in field:
            if not e.byes:
                graph.add_edge(e.id, "bye")
    matched = nx.max_weight_matching(graph, maxcardinality=True)
    return len(matched) * 2 == graph.number_of_nodes()


@st.composite
def club_histories(draw, sizes=(5, 6, 7, 8, 9, 10, 11, 12, 13)):
    field = draw(histories(sizes=sizes))
    clubs = draw(
        st.lists(st.sampled_from([0, 1, 2, 3, None]), min_size=len(field), max_size=len(field))
    )
    return [
        Entrant(
            id=e.id, score=e.score, rank=e.rank, opponents=e.opponents, sides=e.sides, club=club
        )
        for e, club in zip(field, clubs)
    ]


@settings(max_examples=200, deadline=None)
@given(club_histories())
def test_no_same_club_meeting_where_a_club_free_draw_exists(field):
    draw = pair_swiss(field, round_number=2)
    if club_free_draw_exists(field):
        assert draw.quality["club_clashes"] == 0
        assert draw.quality["rematches"] == 0
    # Clubs never cost a rematch: the rematches are those of the draw that ignores clubs.
    ignored = pair_swiss(field, round_number=2, avoid_clubs=False)
    assert draw.quality["rematches"] == ignored.quality["rematches"]


@settings(max_examples=100, deadline=None)
@given(club_histories(sizes=(6, 8, 10)))
def test_the_chunked_path_keeps_clubs_apart_too(field):
    chunked = pair_swiss(field, round_number=2, exact_limit=0, chunk_size=4, window=2)
    if club_free_draw_exists(field):
        assert chunked.quality["club_clashes"] == 0


def test_clubs_weigh_above_score_groups():
    # 1 and 2 lead on 3 points and share a club; 3 and 4 trail on 0. Keeping clubs apart costs
    # two floats; ignoring clubs pairs the score groups and flags the meeting.
    field = [
        Entrant(id=1, score=3, rank=1, club="x"),
        Entrant(id=2, score=3, rank=2, club="x"),
        Entrant(id=3, score=0, rank=3, club="y"),
        Entrant(id=4, score=0, rank=4, club="z"),
    ]
    kept = pair_swiss(field, round_number=2)
    assert kept.quality["club_clashes"] == 0 and kept.quality["pulled_tables"] == 2
    ignored = pair_swiss(field, round_number=2, avoid_clubs=False)
    assert ignored.quality["club_clashes"] == 1 and ignored.quality["pulled_tables"] == 0
    clash = next(p for p in ignored.pairings if {p.a, p.b} == {1, 2})
    assert flags.CLUB_CLASH in clash.flags


def test_rematch_weighs_above_clubs():
    # 1 and 2 have met; 1 and 3 share a club; 2 and 4 share a club. Only {1-3, 2-4} and {1-4,
    # 2-3} avoid the rematch; the second also parts the clubs.
    field = [
        Entrant(id=1, score=3, rank=1, club="x", opponents=frozenset({2})),
        Entrant(id=2, score=3, rank=2, club="y", opponents=frozenset({1})),
        Entrant(id=3, score=3, rank=3, club="x"),
        Entrant(id=4, score=3, rank=4, club="y"),
    ]
    draw = pair_swiss(field, round_number=2)
    assert {frozenset((p.a, p.b)) for p in draw.pairings} == {frozenset({1, 4}), frozenset({2, 3})}
    # Every pairing without a rematch meets a club: the rematch still loses.
    field[3] = Entrant(id=4, score=3, rank=4, club="x")
    field[1] = Entrant(id=2, score=3, rank=2, club="x", opponents=frozenset({1}))
    draw = pair_swiss(field, round_number=2)
    assert draw.quality["rematches"] == 0 and draw.quality["club_clashes"] == 2


@pytest.mark.parametrize("seeded", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_round_one_parts_clubs_of_a_13_union_4_club_field(seeded, seed):
    clubs = ["a"] * 4 + ["b"] * 3 + ["c"] * 3 + ["d"] * 3
    field = [Entrant(id=k, rank=k, club=club) for k, club in enumerate(clubs, start=1)]
    draw = pair_swiss(field, round_number=1, seed=seed, seeded=seeded)
    assert draw.quality["club_clashes"] == 0
    assert ids_of(draw) == list(range(1, 14))
    bye = next(p for p in draw.pairings if p.is_bye)
    assert bye.details["bye_reason"] == ("last_seed" if seeded else "random")


def test_round_one_parts_clubs_in_a_large_field_too():
    rng = random.Random(3)
    field = [Entrant(id=k, rank=k, club=rng.randrange(40)) for k in range(1, 1001)]
    draw = pair_swiss(field, round_number=1, seed=9, seeded=False)
    assert draw.quality["club_clashes"] == 0
    assert ids_of(draw) == list(range(1, 1001))


def test_a_13_union_4_club_swiss_has_no_same_club_meeting_over_its_rounds():
    clubs = ["a"] * 4 + ["b"] * 3 + ["c"] * 3 + ["d"] * 3
    field = {k: Entrant(id=k, rank=k, club=club) for k, club in enumerate(clubs, start=1)}
    rng = random.Random(15)
    for round_number in range(1, 6):
        draw = pair_swiss(
            field.values(), round_number=round_number, seed=round_number, seeded=False
        )
        assert draw.quality["rematches"] == 0
        if club_free_draw_exists(list(field.values())):
            assert draw.quality["club_clashes"] == 0, round_number
        outcomes = {(p.a, p.b): random_outcome(rng) for p in draw.pairings if not p.is_bye}
        field = apply_round(field, draw, outcomes)
