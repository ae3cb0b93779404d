"""Union and individual standings, snapshots per round, tie-breaks in the event's order."""

from __future__ import annotations

import pytest

from matches.models import StandingsSnapshot
from matches.standings import service as standings

A_BY_TWO = [1, 2, 3, 4, 5, 6]
DRAW = [1, 2, 4, 3, 6, 5]  # A: +2 +0 -2 = 0, B: +1 +0 -1 = 0
STRING_B = [2, 4, 6, 1, 3, 5]


def two_rounds(build, tie_breaks=None):
    """Round 1: U0 beats U1 by 2, U2 draws U3. Round 2: U2 strings three on U0, U1 beats U3 by 2.

    By hand: U2 4 points (deal scores +12: its 净胜分, the figure its sheets add up to), U0 3
    (-10), U1 3 (0), U3 1 (-2).
    """
    b = build(unions=4, deals=1, tie_breaks=tie_breaks)
    r1 = b.round([(0, 1), (2, 3)])
    b.final(b.match(r1, 1), 1, A_BY_TWO, points=[1])
    b.final(b.match(r1, 2), 1, DRAW, points=[1, 2])
    r2 = b.round([(0, 2), (1, 3)])
    b.final(b.match(r2, 1), 1, STRING_B, points=[2, 4, 6])
    b.final(b.match(r2, 2), 1, A_BY_TWO, points=[1, 3])
    standings.recompute_event(b.event.pk)
    return b, r1, r2


def union_table(round_, scope="stage"):
    rows = StandingsSnapshot.objects.get(round=round_, kind="unions", scope=scope).rows
    return [
        (row["name"], row["rank"], row["match_points"], row["score_difference"]) for row in rows
    ]


def test_score_difference_breaks_the_tie(build):
    b, r1, r2 = two_rounds(build)
    assert union_table(r2) == [
        ("联邦3", 1, 4, 12),
        ("联邦2", 2, 3, 0),
        ("联邦1", 3, 3, -10),
        ("联邦4", 4, 1, -2),
    ]


def test_head_to_head_first_when_the_event_says_so(build):
    b, r1, r2 = two_rounds(build, tie_breaks=["match_points", "head_to_head", "score_difference"])
    assert [name for name, *_ in union_table(r2)] == ["联邦3", "联邦1", "联邦2", "联邦4"]


def test_buchholz_counts_the_opponents_match_points(build):
    b, r1, r2 = two_rounds(build, tie_breaks=["opponents_match_points"])
    rows = {
        row["name"]: row
        for row in StandingsSnapshot.objects.get(round=r2, kind="unions", scope="stage").rows
    }
    assert rows["联邦1"]["opponents_match_points"] == 3 + 4  # met U1 and U2
    assert rows["联邦2"]["opponents_match_points"] == 3 + 1  # met U0 and U3
    assert [
        row["name"]
        for row in StandingsSnapshot.objects.get(round=r2, kind="unions", scope="stage").rows
    ][:2] == ["联邦3", "联邦1"]


def test_equal_on_every_tie_break_share_a_rank(build):
    b, r1, r2 = two_rounds(build, tie_breaks=["strings_of_three"])
    table = union_table(r2)
    assert [(name, rank) for name, rank, *_ in table] == [
        ("联邦3", 1),
        ("联邦1", 2),
        ("联邦2", 2),
        ("联邦4", 4),
    ]
    rows = StandingsSnapshot.objects.get(round=r2, kind="unions", scope="stage").rows
    assert rows[0]["strings_of_three"] == 1


def test_a_past_round_keeps_its_own_table(build):
    b, r1, r2 = two_rounds(build)
    assert union_table(r1) == [
        ("联邦1", 1, 3, 2),
        ("联邦3", 2, 1, 0),
        ("联邦4", 2, 1, 0),
        ("联邦2", 4, 0, -2),
    ]


def test_individual_standings_place_points_then_points_opened(build):
    b, r1, r2 = two_rounds(build)
    rows = StandingsSnapshot.objects.get(round=r2, kind="players", scope="stage").rows
    by_name = {row["name"]: row for row in rows}
    # U2's first player: 1st at table 2 in round 1 (+2), 1st in the string of round 2 (+2).
    assert by_name["选手3-1"]["place_points"] == 4
    assert by_name["选手3-1"]["points_opened"] == 2  # seat 1 in round 1, seat 2 in round 2
    assert rows[0]["name"] == "选手3-1" and rows[0]["rank"] == 1
    # U0's third player: 5th (-1) in round 1, 6th (-2) in round 2.
    assert by_name["选手1-3"]["place_points"] == -3
    assert by_name["选手1-3"]["deals"] == 2 and by_name["选手1-3"]["tables"] == 2
    # 0 place points each; U1's second player opened a point in round 2, U3's did not.
    assert (by_name["选手2-2"]["place_points"], by_name["选手4-2"]["place_points"]) == (0, 0)
    assert by_name["选手2-2"]["rank"] < by_name["选手4-2"]["rank"]
    # 2 place points and one point each, no burns: a shared rank.
    assert by_name["选手1-1"]["rank"] == by_name["选手4-1"]["rank"]


def test_a_bye_scores_the_bye_points_and_no_opponent(build):
    b = build(unions=3, deals=1)
    r1 = b.round([(0, 1), (2, None)])
    b.final(b.match(r1, 1), 1, A_BY_TWO)
    standings.recompute_event(b.event.pk)
    rows = {
        row["name"]: row
        for row in StandingsSnapshot.objects.get(round=r1, kind="unions", scope="stage").rows
    }
    assert rows["联邦3"]["match_points"] == b.event.points_bye
    assert rows["联邦3"]["byes"] == 1 and rows["联邦3"]["opponents_match_points"] == 0


def test_unfinished_matches_are_counted_in_the_snapshot(build):
    b = build(unions=4, deals=1)
    r1 = b.round([(0, 1), (2, 3)])
    b.final(b.match(r1, 1), 1, A_BY_TWO)
    standings.recompute_event(b.event.pk)
    snapshot = StandingsSnapshot.objects.get(round=r1, kind="unions", scope="stage")
    assert snapshot.unfinished == 1
    assert {row["name"]: row["played"] for row in snapshot.rows} == {
        "联邦1": 1,
        "联邦2": 1,
        "联邦3": 0,
        "联邦4": 0,
    }


@pytest.mark.parametrize("scope", ["event", "stage"])
def test_draft_rounds_get_no_snapshot(build, scope):
    b = build(unions=4, deals=1)
    r1 = b.round([(0, 1), (2, 3)], publish=False)
    standings.recompute_event(b.event.pk)
    assert not StandingsSnapshot.objects.filter(round=r1, scope=scope).exists()


def test_an_individual_event_ranks_players_and_has_no_union_table(build):
    from matches.models import Event

    b = build(entry_type=Event.EntryType.INDIVIDUAL, players=12, deals=1)
    event = b.event
    round_ = b.draw(seed=9)
    for match in b.matches(round_):
        b.final(match, 1, [1, 2, 3, 4, 5, 6], points=[1])
    b.standings()
    assert not StandingsSnapshot.objects.filter(event=event, kind="unions").exists()
    rows = StandingsSnapshot.objects.get(round=round_, kind="players", scope="event").rows
    assert len(rows) == 12
    # Two tables: the two seat-1 players share first place (+2, one point each).
    assert [r["place_points"] for r in rows] == [2, 2, 1, 1, 0, 0, 0, 0, -1, -1, -2, -2]
    assert rows[0]["rank"] == rows[1]["rank"] == 1 and rows[2]["rank"] == 3
    assert rows[0]["points_opened"] == 1


def test_stage_standings_count_only_the_stages_rounds(build):
    from matches.models import Stage

    b = build(unions=4, deals=1)
    r1 = b.round([(0, 1), (2, 3)])
    b.final(b.match(r1, 1), 1, A_BY_TWO)
    b.final(b.match(r1, 2), 1, A_BY_TWO)
    knockout = Stage.objects.create(
        event=b.event,
        order=2,
        name="淘汰赛",
        format=Stage.Format.SINGLE_ELIMINATION,
        planned_rounds=1,
    )
    r2 = b.round([(1, 3)], stage=knockout)
    b.final(b.match(r2, 1), 1, A_BY_TWO)
    standings.recompute_event(b.event.pk)
    stage = {
        row["name"]: row["match_points"]
        for row in StandingsSnapshot.objects.get(round=r2, kind="unions", scope="stage").rows
    }
    event = {
        row["name"]: row["match_points"]
        for row in StandingsSnapshot.objects.get(round=r2, kind="unions", scope="event").rows
    }
    assert stage == {"联邦2": 3, "联邦1": 0, "联邦3": 0, "联邦4": 0}
    assert event == {"联邦1": 3, "联邦3": 3, "联邦2": 3, "联邦4": 0}
