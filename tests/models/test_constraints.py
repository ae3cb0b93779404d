"""Every database constraint of the tournament model refuses what must never happen."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from matches.kernel.games.registry import adapter_for
from matches.models import (
    Deal,
    Event,
    Match,
    MatchSide,
    Registration,
    Round,
    Stage,
    Table,
    TableSeat,
    Union,
    UnionMember,
)
from players.models import Club, Player

pytestmark = pytest.mark.django_db


class f:
    """Raw rows, written around the services on purpose: these tests are about what the
    database itself refuses (every other test makes its events with tests/builder.py)."""

    @staticmethod
    def event(**fields) -> Event:
        fields.setdefault("name", "测试赛")
        fields.setdefault("start_date", datetime.date(2026, 5, 1))
        return Event.objects.create(**fields)

    @staticmethod
    def stage(of: Event, **fields) -> Stage:
        return Stage.objects.create(event=of, **fields)

    @staticmethod
    def union(of: Event, name: str, players: int = 3) -> Union:
        u = Union.objects.create(event=of, name=name)
        for order in range(1, players + 1):
            UnionMember.objects.create(
                union=u,
                order=order,
                is_captain=order == 1,
                player=Player.objects.create(name=f"{name}-{order}"),
            )
        return u

    @staticmethod
    def round_(of: Event, number: int = 1, **fields) -> Round:
        st = fields.pop("stage", None) or of.stages.first() or f.stage(of)
        return Round.objects.create(
            event=of, stage=st, number=number, stage_round=number, seed=1, **fields
        )

    @staticmethod
    def match(rnd: Round, a: Union, b: Union, number: int = 1) -> Match:
        table = Table.objects.create(round=rnd, number=number)
        match = Match.objects.create(round=rnd, table=table)
        MatchSide.objects.create(round=rnd, match=match, union=a, position="A")
        MatchSide.objects.create(round=rnd, match=match, union=b, position="B")
        return match


def refused(create):
    with pytest.raises(IntegrityError), transaction.atomic():
        create()


@pytest.fixture
def ev():
    return f.event()


@pytest.fixture
def two_unions(ev):
    return f.union(ev, "甲"), f.union(ev, "乙")


# --- players and clubs ---------------------------------------------------------------------


def test_club_names_are_unique():
    Club.objects.create(name="崂山")
    refused(lambda: Club.objects.create(name="崂山"))


# --- event and stage -------------------------------------------------------------------------


def test_event_cannot_end_before_it_starts():
    refused(lambda: f.event(end_date=datetime.date(2026, 4, 30)))


def test_event_points_must_rank_win_draw_loss():
    refused(lambda: f.event(points_win=1, points_draw=3))
    refused(lambda: f.event(points_draw=0, points_loss=1))


def test_event_needs_at_least_one_deal_a_match():
    refused(lambda: f.event(deals_per_match=0))


def test_stage_order_is_unique_in_an_event(ev):
    f.stage(ev, order=1)
    refused(lambda: f.stage(ev, order=1))


def test_stage_has_at_least_one_group(ev):
    refused(lambda: f.stage(ev, group_count=0))


# --- unions and members ----------------------------------------------------------------------


def test_union_names_are_unique_in_an_event(ev):
    f.union(ev, "甲")
    refused(lambda: Union.objects.create(event=ev, name="甲"))
    Union.objects.create(event=f.event(name="另一赛事"), name="甲")  # another event: fine


def test_member_order_is_one_to_four(ev):
    """Unions of three (six seats) or four (eight seats, R45): no fifth member, no zeroth."""
    u = Union.objects.create(event=ev, name="丙")
    for order in (5, 0):
        player = Player.objects.create(name=f"p{order}")
        refused(lambda: UnionMember.objects.create(union=u, player=player, order=order))


def test_two_members_cannot_share_a_place_in_the_union(two_unions):
    a, _ = two_unions
    player = Player.objects.create(name="x")
    refused(lambda: UnionMember.objects.create(union=a, player=player, order=1))


def test_a_player_is_in_a_union_once(ev):
    u = Union.objects.create(event=ev, name="丁")
    p = Player.objects.create(name="p")
    UnionMember.objects.create(union=u, player=p, order=1)
    refused(lambda: UnionMember.objects.create(union=u, player=p, order=2))


def test_a_union_has_one_captain(two_unions):
    a, _ = two_unions
    member = a.members.get(order=2)
    member.is_captain = True
    refused(lambda: member.save())
    assert a.captain == a.members.get(order=1).player


def test_a_player_is_in_one_union_per_event(ev, two_unions):
    a, b = two_unions
    player = a.members.get(order=1).player
    c = Union.objects.create(event=ev, name="戊")
    refused(lambda: UnionMember.objects.create(union=c, player=player, order=1))
    other = Union.objects.create(event=f.event(name="另一赛事"), name="甲")
    UnionMember.objects.create(union=other, player=player, order=1)  # another event: fine


def test_a_player_is_in_one_drawn_union_per_round(ev):
    ev.entry_type = Event.EntryType.INDIVIDUAL
    ev.save()
    rnd = f.round_(ev)
    p = Player.objects.create(name="p")
    u1 = Union.objects.create(event=ev, round=rnd, name="1-1A")
    u2 = Union.objects.create(event=ev, round=rnd, name="1-1B")
    UnionMember.objects.create(union=u1, player=p, order=1)
    refused(lambda: UnionMember.objects.create(union=u2, player=p, order=1))
    # Next round the same player is drawn into a new union.
    later = f.round_(ev, number=2)
    u3 = Union.objects.create(event=ev, round=later, name="2-1A")
    UnionMember.objects.create(union=u3, player=p, order=1)


# --- registrations ---------------------------------------------------------------------------


def test_registration_is_a_union_or_a_player_not_both_nor_neither(ev, two_unions):
    a, _ = two_unions
    refused(lambda: Registration.objects.create(event=ev))
    player = Player.objects.create(name="p")
    refused(lambda: Registration.objects.create(event=ev, union=a, player=player))


def test_register_once(ev, two_unions):
    a, _ = two_unions
    Registration.objects.create(event=ev, union=a)
    refused(lambda: Registration.objects.create(event=ev, union=a))
    p = Player.objects.create(name="p")
    Registration.objects.create(event=ev, player=p)
    refused(lambda: Registration.objects.create(event=ev, player=p))


def test_seeds_are_unique_in_an_event(ev, two_unions):
    a, b = two_unions
    Registration.objects.create(event=ev, union=a, seed=1)
    refused(lambda: Registration.objects.create(event=ev, union=b, seed=1))


def test_late_entry_joins_at_round_one_or_later(ev, two_unions):
    a, _ = two_unions
    refused(lambda: Registration.objects.create(event=ev, union=a, joins_round=0))


def test_check_in_withdrawal_and_late_entry_decide_who_plays(ev, two_unions):
    a, b = two_unions
    early = Registration.objects.create(event=ev, union=a)
    late = Registration.objects.create(
        event=ev, union=b, joins_round=3, status=Registration.Status.CHECKED_IN
    )
    assert not early.plays_in(1)
    assert early.plays_in(1, check_in_required=False)
    early.check_in()
    assert early.plays_in(1)
    early.withdraw(after_round=2)
    assert early.plays_in(2) and not early.plays_in(3)
    assert not late.plays_in(2) and late.plays_in(3)


# --- rounds, tables, matches -------------------------------------------------------------------


def test_round_numbers_are_unique(ev):
    f.round_(ev, number=1)
    refused(
        lambda: Round.objects.create(
            event=ev, stage=ev.stages.first(), number=1, stage_round=2, seed=1
        )
    )
    refused(
        lambda: Round.objects.create(
            event=ev, stage=ev.stages.first(), number=2, stage_round=1, seed=1
        )
    )
    refused(
        lambda: Round.objects.create(
            event=ev, stage=ev.stages.first(), number=0, stage_round=3, seed=1
        )
    )


def test_table_numbers_are_unique_and_positive(ev):
    rnd = f.round_(ev)
    Table.objects.create(round=rnd, number=1)
    refused(lambda: Table.objects.create(round=rnd, number=1))
    refused(lambda: Table.objects.create(round=rnd, number=0))


def test_a_union_cannot_play_itself(ev, two_unions):
    a, _ = two_unions
    rnd = f.round_(ev)
    refused(lambda: f.match(rnd, a, a))


def test_a_side_is_a_union_or_a_player(ev, two_unions):
    a, _ = two_unions
    rnd = f.round_(ev)
    bye = Match.objects.create(round=rnd)  # a bye: one side, no table
    refused(lambda: MatchSide.objects.create(round=rnd, match=bye, position="bye"))
    MatchSide.objects.create(round=rnd, match=bye, union=a, position="bye")
    assert bye.is_bye and bye.union_a == a and bye.union_b is None


def test_a_player_has_one_side_per_round(ev):
    rnd = f.round_(ev)
    player = Player.objects.create(name="独行")
    first = Match.objects.create(round=rnd, table=Table.objects.create(round=rnd, number=1))
    second = Match.objects.create(round=rnd, table=Table.objects.create(round=rnd, number=2))
    MatchSide.objects.create(round=rnd, match=first, player=player, position="1")
    refused(lambda: MatchSide.objects.create(round=rnd, match=second, player=player, position="1"))


def test_one_match_per_table(ev, two_unions):
    rnd = f.round_(ev)
    m = f.match(rnd, *two_unions)
    refused(lambda: Match.objects.create(round=rnd, table=m.table))


def test_a_union_is_paired_once_per_round(ev, two_unions):
    a, b = two_unions
    c, d = f.union(ev, "丙"), f.union(ev, "丁")
    rnd = f.round_(ev)
    f.match(rnd, a, b, 1)
    m2 = f.match(rnd, c, d, 2)
    refused(lambda: MatchSide.objects.create(round=rnd, match=m2, union=a, position="bye"))


def test_two_unions_cannot_take_one_side_of_a_match(ev, two_unions):
    a, b = two_unions
    rnd = f.round_(ev)
    c = f.union(ev, "丙")
    m = f.match(rnd, a, b)
    refused(lambda: MatchSide.objects.create(round=rnd, match=m, union=c, position="A"))


# --- seats ------------------------------------------------------------------------------------


@pytest.fixture
def seated(ev, two_unions):
    a, b = two_unions
    rnd = f.round_(ev)
    m = f.match(rnd, a, b)
    return rnd, m.table, a, b


def seat(table, number, side, union, player=None):
    player = player or Player.objects.create(name=f"s{number}")
    return TableSeat.objects.create(table=table, seat=number, side=side, union=union, player=player)


def test_seats_are_numbered_one_to_eight(seated):
    """Six seats, or eight (R44): how many a table of the event has is the game's to check."""
    _, table, a, _ = seated
    refused(lambda: seat(table, 9, "A", a))
    refused(lambda: seat(table, 0, "B", a))


def test_union_a_sits_on_odd_seats_and_union_b_on_even(seated):
    """Gou Ji's R1 is the game's rule, checked by its adapter before a round is published."""
    rnd, table, a, b = seated
    seat(table, 3, "A", a)
    seat(table, 4, "B", b)
    match = Match.objects.with_sides().get(table=table)
    assert adapter_for(rnd.event).seat_problems(match, list(table.seats.all())) == []
    seat(table, 2, "A", a)
    problems = adapter_for(rnd.event).seat_problems(match, list(table.seats.all()))
    assert problems == ["第 1 桌联邦与座位不符"]


def test_two_players_cannot_share_a_seat(seated):
    _, table, a, _ = seated
    seat(table, 1, "A", a)
    refused(lambda: seat(table, 1, "A", a))


def test_a_player_sits_at_one_table_per_round(ev, seated):
    rnd, table, a, b = seated
    c, d = f.union(ev, "丙"), f.union(ev, "丁")
    other = f.match(rnd, c, d, 2).table
    player = a.members.first().player
    seat(table, 1, "A", a, player)
    refused(lambda: seat(other, 1, "A", c, player))
    refused(lambda: seat(table, 3, "A", a, player))
    later = f.round_(ev, number=2)
    seat(f.match(later, a, b).table, 1, "A", a, player)  # next round: fine


# --- deals -------------------------------------------------------------------------------------


def test_deal_numbers_are_unique_and_positive(ev, two_unions):
    a, b = two_unions
    m = f.match(f.round_(ev), a, b)
    Deal.objects.create(match=m, number=1)
    refused(lambda: Deal.objects.create(match=m, number=1))
    refused(lambda: Deal.objects.create(match=m, number=0))


# --- the rule set ------------------------------------------------------------------------------


def test_rules_must_be_a_preset_with_overrides(ev):
    ev.game_settings = {"rules": "standard", "place_points": [3, 2, 1, 0]}
    with pytest.raises(ValidationError):  # Gou Ji's settings hold a rule set, nothing else
        ev.full_clean()
    ev.game_settings = {"rules": ["standard"]}
    with pytest.raises(ValidationError):
        ev.full_clean()
    ev.game_settings = {"rules": {"preset": "standard"}}
    ev.full_clean()


def test_unknown_tie_breaks_and_labels_are_refused(ev):
    ev.tie_breaks = ["match_points", "luck"]
    with pytest.raises(ValidationError):
        ev.full_clean()
    ev.tie_breaks = ["match_points"]
    ev.labels = {"deal": "把", "table": "桌"}
    with pytest.raises(ValidationError):
        ev.full_clean()


def test_rules_freeze_once_the_first_deal_is_recorded(ev):
    ev.game_settings = {"rules": {"preset": "standard", "decks": 4}}
    ev.save()
    ev.freeze_rules()
    fresh = Event.objects.get(pk=ev.pk)
    assert fresh.rules_frozen_at is not None
    fresh.name = "改名可以"
    fresh.save()
    fresh.game_settings = {"rules": {"preset": "qingdao-hold3"}}
    with pytest.raises(ValidationError):
        fresh.save()
    assert Event.objects.get(pk=ev.pk).game_settings == {
        "rules": {"preset": "standard", "decks": 4}
    }


def test_defaults_follow_yantai_2020(ev):
    assert (ev.deals_per_match, ev.points_win, ev.points_draw, ev.points_loss) == (6, 3, 1, 0)
    assert ev.game == "gouji"
    assert ev.labels["deal"] == "局"


def test_rules_are_judged_by_the_gouji_engine(ev):
    pytest.importorskip("matches.games.gouji.engine.ruleset")
    ev.game_settings = {"rules": {"preset": "no-such-preset"}}
    with pytest.raises(ValidationError, match="preset"):
        ev.full_clean()
    ev.game_settings = {"rules": {"preset": "standard", "no_such_flag": True}}
    with pytest.raises(ValidationError):
        ev.full_clean()
    ev.game_settings = {"rules": {"preset": "qingdao-hold3", "decks": 4}}
    ev.full_clean()
