"""A published round with one table ready for results: two unions seated, a referee account, a
referee link, captains with sign-in accounts, an organiser and an outsider."""
from __future__ import annotations

import datetime
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model

from matches.models import (
    Event,
    Match,
    PlayerAccount,
    RefereeLink,
    Round,
    RoundEntry,
    Stage,
    Table,
    TableSeat,
    Union,
    UnionMember,
)
from players.models import Player

# Seats: union A (1-3-5), union B (2-4-6). The finishing orders below are used across tests.
SUMMARY = {"format": "gouji-outcome/1", "finish": [1, 2, 3, 4, 5, 6], "points": [3]}
STRING_THREE_A = {"format": "gouji-outcome/1", "finish": [1, 3, 5, 2, 4, 6], "points": []}
BAD_FINISH = {"format": "gouji-outcome/1", "finish": [1, 1, 3, 4, 5, 6], "points": []}


@dataclass
class Setup:
    event: Event
    round: Round
    table: Table
    match: Match
    union_a: Union
    union_b: Union
    referee: object
    second_referee: object
    link: RefereeLink
    captain_a: object
    captain_b: object
    player_a2: object  # a non-captain member of union A with an account
    organiser: object
    outsider: object
    admin: object


def make_user(name: str, **extra):
    return get_user_model().objects.create_user(name, password="pw-" + name, **extra)


def make_union(event: Event, name: str) -> Union:
    union = Union.objects.create(event=event, name=name)
    for order in (1, 2, 3):
        UnionMember.objects.create(union=union, player=Player.objects.create(name=f"{name}{order}"),
                                   order=order, is_captain=order == 1)
    return union


def build_table(event: Event | None = None, number: int = 1, round_number: int = 1,
                state: str = Round.State.PUBLISHED, **event_fields) -> tuple[Round, Table, Match]:
    if event is None:
        event = Event.objects.create(name="青岛杯", start_date=datetime.date(2026, 5, 1),
                                     **event_fields)
    stage = event.stages.first() or Stage.objects.create(event=event)
    round_ = Round.objects.filter(event=event, number=round_number).first() or Round.objects.create(
        event=event, stage=stage, number=round_number, stage_round=round_number, seed=1, state=state
    )
    union_a = make_union(event, f"东{number}-{round_number}")
    union_b = make_union(event, f"西{number}-{round_number}")
    table = Table.objects.create(round=round_, number=number)
    match = Match.objects.create(round=round_, table=table, union_a=union_a, union_b=union_b)
    RoundEntry.objects.create(round=round_, match=match, union=union_a, side="A")
    RoundEntry.objects.create(round=round_, match=match, union=union_b, side="B")
    for union, seats, side in ((union_a, (1, 3, 5), "A"), (union_b, (2, 4, 6), "B")):
        for seat, player in zip(seats, union.players_in_order()):
            TableSeat.objects.create(table=table, seat=seat, side=side, player=player, union=union)
    return round_, table, match


@pytest.fixture
def setup(db) -> Setup:
    round_, table, match = build_table()
    event = round_.event
    referee, second = make_user("referee"), make_user("referee2")
    table.referees.add(referee, second)
    organiser = make_user("organiser")
    event.organisers.add(organiser)
    captain_a, captain_b = make_user("captain_a"), make_user("captain_b")
    player_a2 = make_user("a2")
    PlayerAccount.objects.create(user=captain_a, player=match.union_a.captain)
    PlayerAccount.objects.create(user=captain_b, player=match.union_b.captain)
    PlayerAccount.objects.create(user=player_a2, player=match.union_a.players_in_order()[1])
    link = RefereeLink.objects.create(table=table, created_by=organiser)
    return Setup(
        event=event, round=round_, table=table, match=match, union_a=match.union_a,
        union_b=match.union_b, referee=referee, second_referee=second, link=link,
        captain_a=captain_a, captain_b=captain_b, player_a2=player_a2, organiser=organiser,
        outsider=make_user("outsider"),
        admin=get_user_model().objects.create_superuser("admin", password="pw-admin"),
    )


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    # Eight accounts per test: the default PBKDF2 hasher would dominate the run time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
