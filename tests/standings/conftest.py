"""Builders for standings tests: an event with hand-made pairings and final deal results."""
from __future__ import annotations

import datetime

import pytest

from matches.models import Deal, DealReport, Event, Registration, Round, Stage, Union, UnionMember
from matches.draw.generator.types import Pairing
from matches.draw import service as seating
from players.models import Player


class Builder:
    def __init__(self, *, unions=4, deals=2, fmt=Stage.Format.SWISS, tie_breaks=None,
                 tie_break_deals=None, published=True, rules=None):
        self.event = Event.objects.create(
            name="测试赛", start_date=datetime.date(2026, 5, 1), deals_per_match=deals,
            tie_break_deals=tie_break_deals, published=published,
            rules=rules or {"preset": "standard"},
            **({"tie_breaks": tie_breaks} if tie_breaks is not None else {}),
        )
        self.stage = Stage.objects.create(event=self.event, order=1, format=fmt, planned_rounds=9)
        self.unions = []
        for k in range(1, unions + 1):
            union = Union.objects.create(event=self.event, name=f"联邦{k}")
            for order in (1, 2, 3):
                player = Player.objects.create(name=f"选手{k}-{order}")
                UnionMember.objects.create(union=union, player=player, order=order,
                                           is_captain=order == 1)
            Registration.objects.create(event=self.event, union=union, seed=k,
                                        status=Registration.Status.CHECKED_IN)
            self.unions.append(union)

    def round(self, pairs, *, silent=False, publish=True, stage=None) -> Round:
        """A round with the given pairings: (a, b) by 0-based union index, b None for a bye."""
        stage = stage or self.stage
        number = self.event.rounds.count() + 1
        round_ = Round.objects.create(event=self.event, stage=stage, number=number,
                                      stage_round=stage.rounds.count() + 1, seed=number,
                                      silent=silent)
        seating._write_team_draw(round_, [
            Pairing(a=self.unions[a].id, b=None if b is None else self.unions[b].id)
            for a, b in pairs
        ], {})
        if publish:
            seating.publish_round(round_)
        return round_

    def match(self, round_, table_number):
        return round_.matches.get(table__number=table_number)

    def final(self, match, number, finish, points=(), burns=(), declarations=None,
              suffocated=()):
        """Store a final result for deal `number` of `match` (as the results service would)."""
        deal, _ = Deal.objects.get_or_create(match=match, number=number)
        summary = {
            "format": "gouji-outcome/1", "rules": "standard", "finish": list(finish),
            "points": list(points), "declarations": declarations or {},
            "burns": [dict(zip(("burner", "burned", "outcome"), b)) for b in burns],
            "suffocated": [dict(zip(("seat", "by"), s)) for s in suffocated],
            "revolution": [], "string_three_streak": 0,
        }
        DealReport.objects.filter(deal=deal, state=DealReport.State.FINAL).update(
            state=DealReport.State.SUPERSEDED)
        return DealReport.objects.create(deal=deal, state=DealReport.State.FINAL, summary=summary)


@pytest.fixture
def build(db):
    return Builder


@pytest.fixture(autouse=True)
def eager_celery(request):
    """Run tasks in-process for these tests, also in CI's pass with a real broker: the tests
    hold their data in an uncommitted transaction that a worker could not see. The integration
    test (marked) uses the real worker."""
    if "integration" in request.keywords:
        yield
        return
    from gouji_tournament.celery import app

    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = saved
