"""The seating service: drawing, re-drawing, hand swaps, publishing, stages, commands."""

from __future__ import annotations

from collections import Counter

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from matches.draw import explanations, hand_swaps, history, refusals
from matches.draw import service as draw
from matches.events import registration
from matches.kernel.pairing import types as flags
from matches.models import Event, Match, MatchSide, Round, RoundLog, Stage, TableSeat, Union
from matches.standings import breaks

pytestmark = pytest.mark.django_db

A_BY_TWO = [1, 2, 3, 4, 5, 6]
DRAW = [1, 2, 4, 3, 6, 5]  # A: +2 +0 -2 = 0, B: +1 +0 -1 = 0
NONE = Event.Confirmation.NONE


def pairs_of(round_):
    return [(m.union_a_id, m.union_b_id) for m in round_.matches.order_by("table__number", "id")]


def test_swiss_event_has_three_closed_rounds_without_rematches(swiss_event):
    rounds = list(swiss_event.rounds.order_by("number"))
    assert [r.state for r in rounds] == ["closed"] * 3
    met = Counter()
    for r in rounds:
        assert r.matches.count() == 6 and r.tables.count() == 6
        assert r.quality["rematches"] == 0
        for m in r.matches.all():
            met[frozenset((m.union_a_id, m.union_b_id))] += 1
            assert m.points_a is not None
        seats = TableSeat.objects.filter(round=r)
        assert seats.count() == 36
        assert draw.check_round(r) == []
    assert max(met.values()) == 1
    assert RoundLog.objects.filter(round__event=swiss_event, action="publish").count() == 3


def test_a_round_waits_for_the_previous_one_to_close(swiss_event):
    stage = swiss_event.stages.get()
    round4 = draw.create_round(stage, seed=4)
    with pytest.raises(refusals.SeatingRefused):
        draw.create_round(stage)
    assert round4.state == "draft" and round4.number == 4


def test_the_same_seed_redraws_the_same_round(swiss_event):
    stage = swiss_event.stages.get()
    round4 = draw.create_round(stage, seed=77)
    first = pairs_of(round4)
    draw.redraw_round(round4, seed=77)
    assert pairs_of(round4) == first
    draw.redraw_round(round4, seed=78)
    log = list(round4.log.values_list("action", flat=True))
    assert log == ["draw", "redraw", "redraw"]
    assert round4.log.last().details["old_seed"] == 77


def test_published_rounds_cannot_be_redrawn_or_swapped(swiss_event):
    stage = swiss_event.stages.get()
    round4 = draw.publish_round(draw.create_round(stage, seed=5))
    with pytest.raises(refusals.SeatingRefused):
        draw.redraw_round(round4)
    a, b = [m.union_a for m in round4.matches.all()[:2]]
    with pytest.raises(refusals.SeatingRefused):
        hand_swaps.swap_unions(round4, a, b)


def test_hand_swap_of_unions_is_checked_flagged_and_audited(swiss, swiss_event):
    user = swiss.organiser
    stage = swiss_event.stages.get()
    round4 = draw.create_round(stage, seed=6)
    m1, m2 = round4.matches.order_by("table__number")[:2]
    # Swap m1's B union with m2's A union.
    x, y = m1.union_b, m2.union_a
    hand_swaps.swap_unions(round4, x, y, user=user)
    m1.refresh_from_db()
    m2.refresh_from_db()
    assert m1.union_b_id == y.pk and m2.union_a_id == x.pk
    assert flags.HAND_SWAP in m1.flags and flags.HAND_SWAP in m2.flags
    seats_m1 = TableSeat.objects.filter(table=m1.table).order_by("seat")
    assert [s.union_id for s in seats_m1] == [m1.union_a_id, y.pk] * 3
    assert draw.check_round(round4) == []
    entry = round4.log.get(action="swap_unions")
    assert entry.user == user and entry.details["unions"] == [x.pk, y.pk]
    round4.refresh_from_db()
    assert round4.quality["hand_swaps"] == 2


def test_a_swap_into_a_rematch_is_flagged(swiss_event):
    stage = swiss_event.stages.get()
    round4 = draw.create_round(stage, seed=8)
    first = round4.matches.order_by("table__number").first()
    # Find a union that `first.union_a` has already met, and put it opposite.
    met = (
        MatchSide.objects.filter(
            round__number__lt=4,
            round__event=swiss_event,
            match__in=Match.objects.involving(first.union_a),
        )
        .exclude(union=first.union_a)
        .first()
        .union
    )
    changed = hand_swaps.swap_unions(round4, first.union_b, met)
    assert any("由手动调整造成" in reason for line in changed for reason in line["reasons"])
    first.refresh_from_db()
    assert flags.REMATCH_FORCED in first.flags
    round4.refresh_from_db()
    flagged = sum(flags.REMATCH_FORCED in m.flags for m in round4.matches.all())
    assert round4.quality["rematches"] == flagged >= 1
    reasons = explanations.explain_round(round4)[0]["reasons"]
    assert any("重复交手" in r for r in reasons)


def test_odd_field_gives_a_bye_worth_a_win(build):
    event = build(unions=13, deals=1, confirmation=NONE).play_rounds(2, seed=9).event
    for r in event.rounds.all():
        bye = r.matches.get(table__isnull=True)
        assert bye.table is None and bye.points_a == event.points_bye
        assert flags.BYE in bye.flags
        assert r.sides.filter(position="bye").count() == 1
        bye_line = [line for line in explanations.explain_round(r) if line["table"] is None]
        assert bye_line and "轮空" in bye_line[0]["reasons"][0]
    takers = [r.matches.get(table__isnull=True).union_a_id for r in event.rounds.all()]
    assert len(set(takers)) == 2


def test_closing_needs_every_result(swiss):
    round4 = swiss.draw(seed=3)
    with pytest.raises(refusals.SeatingRefused):
        draw.close_round(round4)
    swiss.report_all(round4).settle(round4)
    assert draw.close_round(round4).state == "closed"


def test_withdrawals_and_late_entries_between_rounds(swiss_event):
    from players.models import Player

    leaving = swiss_event.registrations.order_by("seed").first()
    registration.withdraw(leaving)
    late = registration.register_union(
        swiss_event, "迟到联邦", [Player.objects.create(name=f"迟{order}") for order in (1, 2, 3)]
    )
    registration.check_in(late)
    late_union = late.union
    assert late.joins_round == 4
    round4 = draw.create_round(swiss_event.stages.get(), seed=10)
    in_round = set(round4.sides.values_list("union_id", flat=True))
    assert leaving.union_id not in in_round
    assert late_union.pk in in_round
    assert len(in_round) == 12


def test_swiss_then_knockout_of_the_best_four(swiss, swiss_event):
    knockout = swiss.add_stage(qualifiers=4, seeded=True, format=Stage.Format.SINGLE_ELIMINATION)
    # A knockout after a Swiss stage is drawn once its break is confirmed (issue 25).
    knockout = breaks.confirm_break(swiss_event, 4)
    top = history.standings(swiss_event, 4)[:4]
    semi = swiss.draw(seed=1, stage=knockout)
    assert {frozenset(p) for p in pairs_of(semi)} == {
        frozenset((top[0], top[3])),
        frozenset((top[1], top[2])),
    }
    for m in swiss.matches(semi):
        swiss.final(m, 1, DRAW)  # a tie: an extra deal must decide
    swiss.settle(semi)
    assert not semi.matches.filter(points_a__isnull=False).exists()
    with pytest.raises(refusals.SeatingRefused):
        draw.close_round(semi)
    for m in swiss.matches(semi):
        assert m.deals.get(number=2).is_extra
        swiss.final(m, 2, A_BY_TWO)
    swiss.close(semi)
    final = draw.create_round(knockout, seed=2)
    assert {final.matches.get().union_a_id, final.matches.get().union_b_id} == {
        m.union_a_id for m in semi.matches.all()
    }


def test_a_tied_knockout_match_on_record_is_refused_by_the_next_draw(swiss):
    """The services never record a tied knockout match (an extra deal is created instead): a
    tie can only come from a row edited by hand, and the draw refuses to guess a winner."""
    knockout = swiss.add_stage(qualifiers=4, seeded=True, format=Stage.Format.SINGLE_ELIMINATION)
    knockout = breaks.confirm_break(swiss.event, 4)
    semi = swiss.draw(seed=1, stage=knockout)
    for m in swiss.matches(semi):
        swiss.final(m, 1, A_BY_TWO)
    swiss.close(semi)
    # Written around the results service on purpose: the corrupt row this test is about.
    semi.matches.update(points_a=1, points_b=1, completed_at=timezone.now())
    with pytest.raises(refusals.SeatingRefused, match="加赛"):
        draw.create_round(knockout, seed=2)


def test_round_robin_stage_plays_everyone_once(build):
    b = build(unions=4, deals=1, confirmation=NONE, fmt=Stage.Format.ROUND_ROBIN)
    stage = b.stage
    stage.planned_rounds = None
    stage.save()
    met = Counter()
    for _ in range(3):
        r = b.draw_round(seed=None).report_all().close().latest
        met.update(frozenset(p) for p in pairs_of(r))
    assert len(met) == 6 and set(met.values()) == {1}
    with pytest.raises(refusals.SeatingRefused):
        draw.create_round(stage)


def test_individual_event_draws_unions_at_each_table(build):
    event = (
        build(
            entry_type=Event.EntryType.INDIVIDUAL, players=26, deals=1, confirmation=NONE, clubs=4
        )
        .play_rounds(2, seed=5)
        .event
    )
    for r in event.rounds.all():
        assert r.tables.count() == 4
        assert len(r.quality["sitting_out"]) == 2
        assert Union.objects.filter(round=r).count() == 8
        for m in r.matches.all():
            seats = list(TableSeat.objects.filter(table=m.table).order_by("seat"))
            assert [s.union_id for s in seats] == [m.union_a_id, m.union_b_id] * 3
            assert [s.player_id for s in seats if s.side == "A"] == [
                p.pk for p in m.union_a.players_in_order()
            ]
    sat_out = [p for r in event.rounds.all() for p in r.quality["sitting_out"]]
    assert len(set(sat_out)) == 4  # nobody sits out twice while others have not


def test_player_swap_in_an_individual_round_moves_union_membership(build):
    event = (
        build(
            entry_type=Event.EntryType.INDIVIDUAL, players=24, deals=1, confirmation=NONE, clubs=4
        )
        .play_rounds(1, seed=6)
        .event
    )
    round2 = draw.create_round(event.stages.get(), seed=1)
    t1, t2 = round2.tables.order_by("number")[:2]
    x = TableSeat.objects.get(table=t1, seat=1)
    y = TableSeat.objects.get(table=t2, seat=2)
    hand_swaps.swap_players(round2, x.player_id, y.player_id)
    assert TableSeat.objects.get(table=t1, seat=1).player_id == y.player_id
    assert TableSeat.objects.get(table=t2, seat=2).player_id == x.player_id
    assert y.player_id in [p.pk for p in Union.objects.get(pk=x.union_id).players_in_order()]
    assert draw.check_round(round2) == []
    assert round2.log.filter(action="swap_players").exists()
    assert flags.HAND_SWAP in Match.objects.get(table=t1).flags


def test_a_player_who_sits_out_can_take_a_seat_by_hand(build):
    event = build(entry_type=Event.EntryType.INDIVIDUAL, players=25, deals=1, clubs=4).event
    round1 = draw.create_round(event.stages.get(), seed=3)
    (waiting,) = round1.quality["sitting_out"]
    seat = TableSeat.objects.filter(round=round1).order_by("table__number", "seat").first()
    leaving = seat.player_id
    changed = hand_swaps.swap_players(round1, leaving, waiting)
    round1.refresh_from_db()
    assert round1.quality["sitting_out"] == [leaving]
    assert TableSeat.objects.get(pk=seat.pk).player_id == waiting
    assert waiting in [p.pk for p in Union.objects.get(pk=seat.union_id).players_in_order()]
    assert draw.check_round(round1) == []
    assert changed[0]["table"] == seat.table.number and "组织者手动调整" in changed[0]["reasons"]
    draw.publish_round(round1)


def test_team_player_swap_stays_inside_a_union(swiss_event):
    round4 = draw.create_round(swiss_event.stages.get(), seed=12)
    m = round4.matches.order_by("table__number").first()
    a_seats = list(TableSeat.objects.filter(table=m.table, side="A").order_by("seat"))
    b_seat = TableSeat.objects.filter(table=m.table, side="B").first()
    with pytest.raises(refusals.SeatingRefused):
        hand_swaps.swap_players(round4, a_seats[0].player_id, b_seat.player_id)
    hand_swaps.swap_players(round4, a_seats[0].player_id, a_seats[1].player_id)
    assert TableSeat.objects.get(table=m.table, seat=1).player_id == a_seats[1].player_id


def test_commands_create_redraw_publish_and_close(swiss_event, capsys):
    call_command("create_round", swiss_event.pk, "--seed", "41")
    round4 = swiss_event.rounds.get(number=4)
    assert round4.seed == 41 and round4.state == "draft"
    call_command("redraw_round", round4.pk, "--seed", "42")
    round4.refresh_from_db()
    assert round4.seed == 42
    call_command("publish_round", round4.pk)
    round4.refresh_from_db()
    assert round4.state == "published"
    with pytest.raises(CommandError):
        call_command("redraw_round", round4.pk)
    with pytest.raises(CommandError):
        call_command("close_round", round4.pk)
    call_command("explain_round", round4.pk)
    out = capsys.readouterr().out
    assert "round 4" in out and "rematches=0" in out
    assert "table 1:" in out


def test_silent_round_is_recorded(swiss_event):
    round4 = draw.create_round(swiss_event.stages.get(), seed=2, silent=True)
    assert Round.objects.get(pk=round4.pk).silent is True
