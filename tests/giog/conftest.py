"""A Giog event: players registered and checked in, rounds drawn by the Giog draw."""
from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from matches.models import Event, Registration, Round, Stage
from matches.draw import service as seating
from players.models import Club, Player


class GiogBuilder:
    def __init__(self, players=8, hands=2, clubs=0, published=True,
                 confirmation=Event.Confirmation.NONE, place_points=None):
        self.event = Event.objects.create(
            name="Giog 公开赛", start_date=datetime.date(2026, 6, 1), game="giog",
            entry_type=Event.EntryType.INDIVIDUAL, deals_per_match=hands, published=published,
            result_confirmation=confirmation, place_points=place_points or [3, 2, 1, 0])
        self.stage = Stage.objects.create(event=self.event, order=1, planned_rounds=5)
        club_rows = [Club.objects.create(name=f"俱乐部{k}") for k in range(clubs)]
        self.players = []
        for k in range(players):
            player = Player.objects.create(
                name=f"棋手{k + 1:02d}", club=club_rows[k % clubs] if clubs else None)
            Registration.objects.create(event=self.event, player=player, seed=k + 1,
                                        status=Registration.Status.CHECKED_IN)
            self.players.append(player)
        self.organiser = get_user_model().objects.create_user("org", password="pw-org")
        self.event.organisers.add(self.organiser)

    def draw(self, seed=7, publish=True) -> Round:
        round_ = seating.create_round(self.stage, seed=seed)
        if publish:
            seating.publish_round(round_)
        return round_


@pytest.fixture
def giog(db):
    return GiogBuilder()


def summary_for(seats: int, won: dict, beheaded=()) -> dict:
    return {"format": "giog-outcome/1", "players": seats,
            "won": {str(k): v for k, v in won.items()}, "beheaded": list(beheaded)}


@pytest.fixture
def committed(django_capture_on_commit_callbacks):
    """`with committed():` runs what the block queued for commit (signal, Celery tasks)."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture(autouse=True)
def computations_in_process(eager_tasks):
    """The Giog tests read tallies and standings straight after a commit, so the Celery
    computations run in-process here, also in CI's pass with a real worker (`eager_tasks`)."""
