"""A whole demo event with played rounds, for tests and benchmarks.

`build_demo_event()` makes clubs, players, unions, registrations and a Swiss stage, then plays
`rounds` rounds: draw, publish, random match results, close. Everything comes from `seed`, so
the same call builds the same event.
"""

from __future__ import annotations

import datetime
import random

from django.db import transaction
from django.utils import timezone

from matches.draw import service as seating
from matches.events.demo_names import CLUBS, person_name
from matches.models import Event, Registration, Round, Stage, Union, UnionMember
from players.models import Club, Player


@transaction.atomic
def build_demo_event(
    *,
    unions: int = 12,
    rounds: int = 3,
    seed: int = 2026,
    entry_type: str = Event.EntryType.TEAM,
    players: int | None = None,
    organiser=None,
    name: str = "青岛够级公开赛（演示）",
    draw_next: bool = False,
) -> Event:
    """Build an event and play `rounds` closed rounds with random results.

    Team events register `unions` unions of three; individual events register `players`
    players (default 6 x `unions` / 2). With `draw_next`, one more round is drawn as a draft.
    """
    rng = random.Random(seed)
    event = Event.objects.create(
        name=name,
        venue="青岛市民健身中心",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 2),
        entry_type=entry_type,
    )
    if organiser is not None:
        event.organisers.add(organiser)
    stage = Stage.objects.create(
        event=event,
        order=1,
        name="瑞士制",
        format=Stage.Format.SWISS,
        planned_rounds=max(rounds + 1, 1),
    )
    clubs = [Club.objects.get_or_create(name=club)[0] for club in CLUBS]
    if entry_type == Event.EntryType.TEAM:
        for k in range(1, unions + 1):
            club = clubs[k % len(clubs)]
            union = Union.objects.create(event=event, name=f"{club.name[:2]}联邦{k}", club=club)
            for order in (1, 2, 3):
                player = Player.objects.create(name=person_name(rng), club=club)
                UnionMember.objects.create(
                    union=union, player=player, order=order, is_captain=order == 1
                )
            Registration.objects.create(
                event=event, union=union, seed=k, status=Registration.Status.CHECKED_IN
            )
    else:
        for k in range(1, (players or unions * 3) + 1):
            player = Player.objects.create(name=person_name(rng), club=clubs[k % len(clubs)])
            Registration.objects.create(
                event=event, player=player, seed=k, status=Registration.Status.CHECKED_IN
            )
    for number in range(1, rounds + 1):
        round_ = seating.create_round(stage, seed=seed * 100 + number, user=organiser)
        seating.publish_round(round_, user=organiser)
        play_random_results(round_, rng)
        seating.close_round(round_, user=organiser)
    if draw_next:
        seating.create_round(stage, seed=seed * 100 + rounds + 1, user=organiser)
    return event


def play_random_results(round_: Round, rng: random.Random) -> None:
    """Fill each match's deal-score totals and match points as if its deals were played.

    Stands in for the deal-recording issue: each deal gives the two unions opposite scores
    (R32: ±1..±6, ±12 for stringing three).
    """
    event = round_.event
    for match in round_.matches.played():
        total = sum(
            rng.choice([-12, -6, -4, -3, -2, -1, 1, 2, 3, 4, 6, 12])
            for _ in range(event.deals_per_match)
        )
        match.score_a, match.score_b = total, -total
        if total > 0:
            match.points_a, match.points_b = event.points_win, event.points_loss
        elif total < 0:
            match.points_a, match.points_b = event.points_loss, event.points_win
        else:
            match.points_a = match.points_b = event.points_draw
        match.completed_at = timezone.now()
        match.save(update_fields=["score_a", "score_b", "points_a", "points_b", "completed_at"])
