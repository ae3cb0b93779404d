"""A published team event with results and a published Giog event: every kind of public page."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.urls import reverse

from matches.models import RefereeLink
from tests.builder import EventBuilder

A_BY_TWO = [1, 2, 3, 4, 5, 6]


@dataclass
class Events:
    team: EventBuilder
    giog: EventBuilder
    link: RefereeLink  # a referee link to table 1 of the team event's round 1

    def page_urls(self) -> list[str]:
        """Every kind of public page, full or htmx fragment alike."""
        t, g = self.team.event.pk, self.giog.event.pk
        union = self.team.unions[0]
        player = union.players_in_order()[0]
        return [
            "/",
            reverse("public:event", args=[t]),
            reverse("public:standings", args=[t]),
            reverse("public:standings", args=[t]) + "?kind=players",
            reverse("public:round", args=[t, 1]),
            reverse("public:table", args=[t, 1, 1]),
            reverse("public:union", args=[t, union.pk]),
            reverse("public:player", args=[t, player.pk]),
            reverse("public:event", args=[g]),
            reverse("public:standings", args=[g]),
            reverse("public:round", args=[g, 1]),
            reverse("public:table", args=[g, 1, 1]),
            reverse("public:player", args=[g, self.giog.players[0].pk]),
        ]

    def api_urls(self) -> list[str]:
        t = self.team.event.pk
        return [
            "/api/v1/public/events/",
            f"/api/v1/public/events/{t}/",
            f"/api/v1/public/events/{t}/rounds/",
            f"/api/v1/public/events/{t}/rounds/1/pairings/",
            f"/api/v1/public/events/{t}/standings/",
        ]


@pytest.fixture
def events(db, eager_tasks) -> Events:
    team = EventBuilder(
        unions=2, deals=2
    ).register()  # deal 2 still open: the referee page has its form
    round_ = team.round([(0, 1)])
    team.final(team.match(round_, 1), 1, A_BY_TWO, points=[1])
    team.standings()
    giog = EventBuilder("giog", players=8).register()
    giog.draw()
    return Events(team=team, giog=giog, link=team.people.referee_link)
