"""Small builders for model tests."""
from __future__ import annotations

import datetime

from matches.models import Event, Match, Round, Stage, Table, Union, UnionMember
from players.models import Player


def event(**fields) -> Event:
    fields.setdefault("name", "测试赛")
    fields.setdefault("start_date", datetime.date(2026, 5, 1))
    return Event.objects.create(**fields)


def stage(of: Event, **fields) -> Stage:
    return Stage.objects.create(event=of, **fields)


def union(of: Event, name: str, players: int = 3) -> Union:
    u = Union.objects.create(event=of, name=name)
    for order in range(1, players + 1):
        UnionMember.objects.create(union=u, player=Player.objects.create(name=f"{name}-{order}"),
                                   order=order, is_captain=order == 1)
    return u


def round_(of: Event, number: int = 1, **fields) -> Round:
    st = fields.pop("stage", None) or of.stages.first() or stage(of)
    return Round.objects.create(event=of, stage=st, number=number, stage_round=number, seed=1,
                                **fields)


def match(rnd: Round, a: Union, b: Union, number: int = 1) -> Match:
    table = Table.objects.create(round=rnd, number=number)
    return Match.objects.create(round=rnd, table=table, union_a=a, union_b=b)
