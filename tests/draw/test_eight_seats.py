"""Eight-player Gou Ji (八人够级, R44) through the draw: two unions of four at an eight-seat table,
union A on seats 1-4 and union B on 5-8, in every format; the individual draw fills tables of
eight. The numbers come from the event's rule set (`players`), through the adapter's
`table_shape`."""

from __future__ import annotations

from collections import defaultdict

import pytest

from matches.draw import control, hand_swaps, late
from matches.draw import service as draw
from matches.events import registration
from matches.models import Event, Match, Stage, TableSeat, UnionMember
from players.models import Player

EIGHT = {"preset": "eight-players"}


def seats_by_table(round_) -> dict[int, list[TableSeat]]:
    tables: defaultdict[int, list[TableSeat]] = defaultdict(list)
    for seat in TableSeat.objects.filter(round=round_).order_by("seat"):
        tables[seat.table_id].append(seat)
    return tables


def assert_unions_of_four_together(round_) -> None:
    """R44: seats 1-8, side A's union on 1-4 and side B's on 5-8, each union's own players."""
    tables = seats_by_table(round_)
    assert tables
    for match in round_.matches.with_sides().filter(table__isnull=False):
        seats = tables[match.table_id]
        assert [s.seat for s in seats] == list(range(1, 9))
        assert [s.side for s in seats] == ["A"] * 4 + ["B"] * 4
        assert {s.union_id for s in seats[:4]} == {match.union_a_id}
        assert {s.union_id for s in seats[4:]} == {match.union_b_id}
        members_a = set(
            UnionMember.objects.filter(union_id=match.union_a_id).values_list(
                "player_id", flat=True
            )
        )
        assert {s.player_id for s in seats[:4]} == members_a
    assert draw.check_round(round_) == []


def test_a_union_of_an_eight_player_event_holds_four(build):
    b = build(unions=0, rules=EIGHT)
    people = [Player.objects.create(name=f"甲{k}") for k in range(4)]
    entry = registration.register_union(b.event, "四人联邦", people)
    assert entry.union.players_in_order() == people
    with pytest.raises(registration.RegistrationRefused, match="4 名"):
        registration.register_union(
            b.event, "三人联邦", [Player.objects.create(name=f"乙{k}") for k in range(3)]
        )
    assert registration.union_size(b.event) == 4
    six = build(unions=0)
    assert registration.union_size(six.event) == 3


def test_swiss_rounds_seat_two_unions_of_four_at_each_table(build):
    b = build(unions=6, rules=EIGHT, clubs=3)
    for union in b.unions:
        assert union.members.count() == 4
    first = b.draw(seed=3)
    assert first.matches.played().count() == 3
    assert_unions_of_four_together(first)


def test_a_round_robin_round_seats_unions_of_four(build):
    b = build(unions=4, rules=EIGHT, fmt=Stage.Format.ROUND_ROBIN, planned_rounds=3)
    round_ = b.draw(seed=1)
    assert round_.matches.played().count() == 2
    assert_unions_of_four_together(round_)


def test_knockout_seats_unions_of_four(build):
    knockout = build(unions=4, rules=EIGHT, fmt=Stage.Format.SINGLE_ELIMINATION, planned_rounds=2)
    assert_unions_of_four_together(knockout.draw(seed=1))


def test_an_individual_eight_player_event_fills_tables_of_eight(build):
    b = build(players=0, rules=EIGHT, entry_type=Event.EntryType.INDIVIDUAL)
    for k in range(17):
        entry = registration.register_player(b.event, Player.objects.create(name=f"选手{k:02d}"))
        registration.check_in(entry)
    round_ = draw.create_round(b.stage, seed=5)
    assert len(round_.quality["sitting_out"]) == 1  # 17 = 2 × 8 + 1
    assert round_.matches.filter(table__isnull=False).count() == 2
    assert_unions_of_four_together(round_)
    # drawn unions: four members, the first the captain
    for match in round_.matches.with_sides().filter(table__isnull=False):
        for union_id in (match.union_a_id, match.union_b_id):
            members = UnionMember.objects.filter(union_id=union_id)
            assert members.count() == 4 and members.filter(is_captain=True).count() == 1


def test_hand_edits_keep_the_eight_seat_layout(build):
    b = build(unions=6, rules=EIGHT)
    round_ = b.draw(seed=2, publish=False)
    matches = list(round_.matches.with_sides().order_by("table__number"))
    first = matches[0].union_a
    other = matches[1].union_b
    hand_swaps.swap_unions(round_, first, other)
    assert_unions_of_four_together(round_)
    control.swap_sides(round_, 1)
    assert_unions_of_four_together(round_)


def test_a_late_union_of_four_takes_the_bye_on_seats_five_to_eight(build):
    b = build(unions=3, rules=EIGHT)
    round_ = b.draw(seed=1)
    bye = round_.matches.with_sides().get(table__isnull=True)
    people = [Player.objects.create(name=f"迟{k}") for k in range(4)]
    late_union = registration.register_union(b.event, "迟到联邦", people).union
    change = late.late_add(round_, late_union)
    assert change["opponent"] == bye.union_a_id
    assert_unions_of_four_together(round_)
    table = round_.tables.get(number=change["new_table"])
    assert [s.player_id for s in table.seats.order_by("seat")][4:] == [p.pk for p in people]
    # and when it leaves again, its opponent sits out: no table of four is left behind
    late.late_withdraw(round_, late_union)
    assert not Match.objects.filter(round=round_, table__number=change["new_table"]).exists()
    assert_unions_of_four_together(round_)


def test_an_eight_seat_table_with_a_seat_missing_is_not_full(build):
    b = build(unions=2, rules=EIGHT)
    round_ = b.draw(seed=1, publish=False)
    TableSeat.objects.filter(round=round_, seat=8).delete()
    assert any("座位不全" in problem for problem in draw.check_round(round_))
    adapter = b.event.adapter
    assert adapter.table_is_full(b.event, list(range(1, 9)))
    assert not adapter.table_is_full(b.event, list(range(1, 7)))
    six = build(unions=2)
    assert six.event.adapter.table_is_full(six.event, list(range(1, 7)))
    assert not six.event.adapter.table_is_full(six.event, list(range(1, 9)))
