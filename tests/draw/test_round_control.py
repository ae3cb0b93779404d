"""Issue 15: draw control, late changes, forfeits, byes, withdrawals, closing, the break."""

from __future__ import annotations

import pytest

from matches.draw import control, late, refusals
from matches.draw import service as draw
from matches.events import checkin
from matches.kernel.pairing import types as flags
from matches.models import (
    Registration,
    RoundLog,
    Stage,
    TableSeat,
)
from matches.results import forfeits
from matches.standings import breaks
from matches.standings import service as standings
from players.models import Club

A_BY_TWO = [1, 2, 3, 4, 5, 6]  # union A finishes 1st, 3rd, 5th


def consistent(round_):
    """Every table full and every union placed once: what publishing checks, plus entries."""
    assert draw.check_round(round_) == []
    placed = [u for m in round_.matches.all() for u in (m.union_a_id, m.union_b_id) if u]
    assert sorted(placed) == sorted(round_.sides.values_list("union_id", flat=True))
    assert len(placed) == len(set(placed))


def edits(round_):
    return RoundLog.objects.filter(round=round_, action=RoundLog.Action.EDIT).count()


def test_draft_edits_recheck_flag_and_audit(build):
    b = build(unions=5)
    round_ = draw.create_round(b.stage, seed=3)
    bye = round_.matches.get(table__isnull=True)
    seated = round_.matches.filter(table__isnull=False).order_by("table__number")
    first, second = seated[0], seated[1]
    # Move: union A of table 2 goes to table 1, side B; the one there goes to table 2.
    mover, displaced = second.union_a, first.union_b
    lines = control.move_union(round_, mover, 1, "B")
    first.refresh_from_db(), second.refresh_from_db()
    assert first.union_b_id == mover.pk and second.union_a_id == displaced.pk
    assert {line["table"] for line in lines} == {1, 2}
    assert all(flags.HAND_SWAP in line["flags"] for line in lines)
    consistent(round_)
    # Sides: the table's unions change seats.
    a, b_ = first.union_a_id, first.union_b_id
    control.swap_sides(round_, 1)
    first.refresh_from_db()
    assert (first.union_a_id, first.union_b_id) == (b_, a)
    assert set(
        TableSeat.objects.filter(table=first.table, seat__in=[1, 3, 5]).values_list(
            "union_id", flat=True
        )
    ) == {b_}
    consistent(round_)
    # The bye moves to a seated union; the bye holder takes its seat.
    holder = bye.union_a
    lines = control.give_bye(round_, b.unions[0] if b.unions[0] != holder else b.unions[1])
    new_bye = round_.matches.get(table__isnull=True)
    assert new_bye.union_a_id != holder.pk
    assert any("轮空：组织者指定" in reason for line in lines for reason in line["reasons"])
    consistent(round_)
    assert edits(round_) == 3


def test_hand_pairing_of_clubmates_is_flagged_same_club(build):
    b = build(unions=4)
    club = Club.objects.create(name="青岛俱乐部")
    for union in b.unions[:2]:
        union.club = club
        union.save()
    round_ = draw.create_round(b.stage, seed=1)
    # The draw itself keeps them apart.
    assert round_.quality["club_clashes"] == 0
    lines = control.pair_by_hand(round_, 1, b.unions[0], b.unions[1])
    table_one = next(line for line in lines if line["table"] == 1)
    assert flags.CLUB_CLASH in table_one["flags"]
    assert "同俱乐部联邦相遇" in table_one["reasons"]
    round_.refresh_from_db()
    assert round_.quality["club_clashes"] == 1
    consistent(round_)
    log = RoundLog.objects.get(round=round_, action=RoundLog.Action.EDIT)
    assert log.details["edit"] == "pair" and log.details["table"] == 1


def test_edits_are_refused_after_publishing_and_bad_input_is_explained(build):
    b = build(unions=4)
    round_ = draw.create_round(b.stage, seed=1)
    with pytest.raises(refusals.SeatingRefused, match="本轮没有轮空"):
        control.give_bye(round_, b.unions[0])
    with pytest.raises(refusals.SeatingRefused, match="本轮没有第 9 桌"):
        control.move_union(round_, b.unions[0], 9, "A")
    draw.publish_round(round_)
    with pytest.raises(refusals.SeatingRefused, match="只能在公布前调整编排"):
        control.swap_sides(round_, 1)


def test_unpublish_only_while_no_result_is_in(build):
    b = build(unions=4)
    round_ = b.round([(0, 1), (2, 3)])
    late.unpublish_round(round_)
    round_.refresh_from_db()
    assert round_.is_draft and round_.published_at is None
    assert RoundLog.objects.filter(round=round_, action=RoundLog.Action.UNPUBLISH).exists()
    draw.publish_round(round_)
    b.final(b.match(round_, 1), 1, A_BY_TWO)
    with pytest.raises(refusals.SeatingRefused, match="本轮已有成绩"):
        late.unpublish_round(round_)


def test_late_arrival_takes_on_the_bye_and_only_that_table_changes(build):
    b = build(unions=6)
    checkin.undo(Registration.objects.get(union=b.unions[5]))  # missed check-in
    round_ = draw.create_round(b.stage, seed=2)  # five checked in: a bye
    draw.publish_round(round_)
    played = round_.matches.filter(table__isnull=False).order_by("table__number").first()
    report = b.final(played, 1, A_BY_TWO)
    before = {
        m.pk: (m.table.number, m.union_a_id, m.union_b_id)
        for m in round_.matches.filter(table__isnull=False)
    }
    change = late.late_add(round_, b.unions[5])
    assert change["tables"] == [3]
    for match in round_.matches.filter(pk__in=before):
        assert (match.table.number, match.union_a_id, match.union_b_id) == before[match.pk]
    assert not round_.matches.filter(table__isnull=True).exists()
    report.refresh_from_db()
    assert report.state == "final"  # the reported result is still there
    consistent(round_)
    assert Registration.objects.get(union=b.unions[5]).status == Registration.Status.CHECKED_IN


def test_late_arrival_without_a_bye_sits_out_and_no_table_changes(build):
    b = build(unions=5)
    checkin.undo(Registration.objects.get(union=b.unions[4]))  # missed check-in
    round_ = draw.create_round(b.stage, seed=2)
    draw.publish_round(round_)
    change = late.late_add(round_, b.unions[4])
    assert change == {"tables": [], "bye": True}
    bye = round_.matches.get(table__isnull=True)
    assert bye.union_a_id == b.unions[4].pk and bye.points_a == b.event.points_bye
    with pytest.raises(refusals.SeatingRefused, match="已在本轮"):
        late.late_add(round_, b.unions[4])


def test_late_withdrawal_keeps_reported_tables_and_reseats_one(build):
    b = build(unions=5)
    round_ = b.round([(0, 1), (2, 3), (4, None)])
    b.final(b.match(round_, 1), 1, A_BY_TWO)
    with pytest.raises(refusals.SeatingRefused, match="成绩保留"):
        late.late_withdraw(round_, b.unions[0])
    change = late.late_withdraw(round_, b.unions[2])
    assert change["tables"] == [2] and change["opponent"] == b.unions[4].pk
    table_two = b.match(round_, 2)
    assert {table_two.union_a_id, table_two.union_b_id} == {b.unions[4].pk, b.unions[3].pk}
    consistent(round_)
    registration = Registration.objects.get(union=b.unions[2])
    assert registration.status == "withdrawn" and registration.withdrawn_after == 0


def test_forfeit_scores_from_the_event_and_shows_in_the_standings(build):
    b = build(unions=5)
    b.event.forfeit_score, b.event.bye_score = 40, 20
    b.event.save()
    round_ = b.round([(0, 1), (2, 3), (4, None)])
    match = forfeits.award_forfeit(b.match(round_, 1), "A")
    match.refresh_from_db()
    assert (match.points_a, match.points_b) == (0, 3) and (match.score_a, match.score_b) == (0, 40)
    forfeits.union_no_show(round_, b.unions[3])
    both = b.match(round_, 2)
    assert both.forfeit == "B" and both.points_a == 3
    rows = {r["union"]: r for r in standings.union_rows(b.event, [round_])}
    assert rows[b.unions[0].pk]["forfeits"] == 1 and rows[b.unions[0].pk]["losses"] == 1
    assert rows[b.unions[1].pk]["wins"] == 1 and rows[b.unions[1].pk]["score_for"] == 40
    assert rows[b.unions[4].pk]["byes"] == 1
    # The bye's match points are the event's; its score is what the event sets from then on.
    assert rows[b.unions[4].pk]["match_points"] == b.event.points_bye
    assert RoundLog.objects.filter(round=round_, action=RoundLog.Action.FORFEIT).count() == 2
    # A table with a final deal keeps its result.
    other = b.round([(0, 2), (1, 3)])
    b.final(b.match(other, 1), 1, A_BY_TWO)
    with pytest.raises(refusals.SeatingRefused, match="已有最终成绩"):
        forfeits.award_forfeit(b.match(other, 1), "B")


def test_double_no_show_is_a_loss_for_both(build):
    b = build(unions=4)
    round_ = b.round([(0, 1), (2, 3)])
    forfeits.award_forfeit(b.match(round_, 1), "both")
    # The dashboard and the referee pages count the table as decided, not waiting.
    from matches import selectors

    matches = list(round_.matches.select_related("round__event").order_by("table__number"))
    states = selectors.table_states(matches)
    assert [states[m.pk]["state"] for m in matches] == ["confirmed", "waiting"]
    rows = {r["union"]: r for r in standings.union_rows(b.event, [round_])}
    for union in b.unions[:2]:
        assert rows[union.pk]["losses"] == 1 and rows[union.pk]["forfeits"] == 1
        assert rows[union.pk]["match_points"] == b.event.points_loss


def test_a_match_stopped_by_time_is_scored_from_the_deals_played(build):
    b = build(unions=4, deals=4)
    round_ = b.round([(0, 1), (2, 3)])
    match = b.match(round_, 1)
    b.final(match, 1, A_BY_TWO)
    b.final(match, 2, A_BY_TWO)
    standings.settle_match(match.pk)
    match.refresh_from_db()
    assert match.points_a is None  # four deals are due
    forfeits.stop_by_time(match, 2)
    match.refresh_from_db()
    assert match.points_a == b.event.points_win and match.score_a > match.score_b
    b.event.score_stopped_matches = False
    b.event.save()
    with pytest.raises(refusals.SeatingRefused, match="未设置"):
        forfeits.stop_by_time(b.match(round_, 2), 1)


def test_closing_names_the_tables_without_a_result(build):
    b = build(unions=6)
    round_ = b.round([(0, 1), (2, 3), (4, 5)])
    forfeits.award_forfeit(b.match(round_, 2), "A")
    assert draw.unfinished_tables(round_) == [1, 3]
    with pytest.raises(refusals.SeatingRefused, match="第 1 桌、第 3 桌"):
        draw.close_round(round_)


def test_withdrawn_union_is_out_of_later_draws_and_its_matches_stand(build):
    b = build(unions=6)
    round_ = b.round([(0, 1), (2, 3), (4, 5)])
    for k in (1, 2, 3):
        b.final(b.match(round_, k), 1, A_BY_TWO)
        b.final(b.match(round_, k), 2, A_BY_TWO)
        standings.settle_match(b.match(round_, k).pk)
    draw.close_round(round_)
    assert late.withdraw_union(b.event, b.unions[0]) == 1
    following = draw.create_round(b.stage, seed=5)
    assert b.unions[0].pk not in set(following.sides.values_list("union_id", flat=True))
    assert following.matches.filter(table__isnull=True).count() == 1
    assert b.match(round_, 1).points_a == b.event.points_win  # still stands
    with pytest.raises(refusals.SeatingRefused, match="已退赛"):
        late.withdraw_union(b.event, b.unions[0])


def test_the_break_shows_ties_then_seeds_the_knockout(build):
    b = build(unions=6, tie_breaks=["match_points", "score_difference"])
    round_ = b.round([(0, 1), (2, 3), (4, 5)])
    # Unions 1, 3 and 5 win by the same margin: tied on every tie-break.
    for k in (1, 2, 3):
        b.final(b.match(round_, k), 1, A_BY_TWO)
        b.final(b.match(round_, k), 2, A_BY_TWO)
        standings.settle_match(b.match(round_, k).pk)
    draw.close_round(round_)
    proposal = breaks.propose_break(b.event, 2)
    assert [r["in_break"] for r in proposal["rows"]][:3] == [True, True, False]
    assert len(proposal["tied_at_cut"]) == 1
    assert Stage.objects.filter(event=b.event).count() == 1  # nothing written by a preview
    proposal = breaks.propose_break(b.event, 4)
    stage = breaks.confirm_break(b.event, 4)
    assert stage.format == Stage.Format.SINGLE_ELIMINATION and stage.planned_rounds == 2
    seeds = stage.break_unions
    assert seeds == [r["union"] for r in proposal["rows"][:4]]
    knockout = draw.create_round(stage, seed=1)
    pairs = {frozenset((m.union_a_id, m.union_b_id)) for m in knockout.matches.all()}
    assert pairs == {frozenset((seeds[0], seeds[3])), frozenset((seeds[1], seeds[2]))}
    assert RoundLog.objects.filter(round=round_, action=RoundLog.Action.BREAK).exists()
    with pytest.raises(breaks.BreakRefused):
        breaks.propose_break(b.event, 99)
