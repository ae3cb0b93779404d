"""The demo event of `make demo`: results entered through the results service, so every number
on the pages comes from the same path as in a real event (referee link → captain confirms →
Celery computes scores, tributes, match results and standings).

Twelve unions; rounds 1-3 played and closed; round 4 published and half played, with one result
waiting for confirmation and one disputed, so the organiser's dashboard has something to show.
"""

from __future__ import annotations

import datetime
import random

from django.contrib.auth import get_user_model

from matches import permissions
from matches.draw import service as seating
from matches.events.demo_names import CLUBS, person_name
from matches.models import (
    Event,
    PlayerAccount,
    RefereeLink,
    Registration,
    Round,
    Stage,
    Union,
    UnionMember,
)
from matches.results import service as results
from matches.standings import service as standings
from players.models import Club, Player

DEMO_NAME = "青岛够级公开赛（演示）"


def random_outcome(rng: random.Random) -> dict:
    """A plausible referee summary: a finishing order, and points opened mostly by the leaders."""
    seats = [1, 2, 3, 4, 5, 6]
    rng.shuffle(seats)
    points = [seat for place, seat in enumerate(seats) if rng.random() < (0.8 - place * 0.12)]
    return {"format": "gouji-outcome/1", "finish": seats, "points": points}


def _captain_actor(union: Union) -> permissions.Actor:
    User = get_user_model()
    captain = union.captain
    user, created = User.objects.get_or_create(username=f"captain-{union.pk}")
    if created:
        user.set_unusable_password()
        user.save()
    PlayerAccount.objects.get_or_create(user=user, defaults={"player": captain})
    return permissions.Actor(user=user)


def report_deal(match, number: int, rng: random.Random, *, confirm: bool | None = True) -> None:
    """The table's referee reports deal `number`; both captains confirm (or the loser disputes)."""
    link = RefereeLink.objects.filter(
        table=match.table, revoked_at__isnull=True
    ).first() or RefereeLink.objects.create(table=match.table, label="demo")
    referee = permissions.Actor.from_link(link)
    deal = results.deal_for(match, number)
    for _attempt in range(20):
        try:
            report, _created = results.submit_report(deal, random_outcome(rng), None, referee)
            break
        except results.ResultError:
            continue  # an inconsistent random summary: draw another
    else:
        raise RuntimeError("could not make a valid demo result")
    if report.state == report.State.PENDING and confirm is not None:
        # Both unions' captains agree (docs/results.md); a dispute comes from the losing union.
        loser = match.union_a if (report.score_a or 0) < 0 else match.union_b
        if confirm:
            for union in (match.union_a, match.union_b):
                results.confirm_report(report, _captain_actor(union), agrees=True)
        else:
            results.confirm_report(
                report, _captain_actor(loser), agrees=False, note="名次记错了", reason="finish"
            )


def play_match(match, rng: random.Random) -> None:
    for number in range(1, match.round.event.deals_per_match + 1):
        report_deal(match, number, rng)
    # The results service's signal has queued this already (after commit); settling here too
    # keeps the demo whole when it is built inside a transaction (tests), and is idempotent.
    standings.settle_match(match.pk)


def build_live_demo(
    organiser=None, *, unions: int = 12, rounds: int = 3, seed: int = 2026
) -> Event:
    rng = random.Random(seed)
    event = Event.objects.create(
        name=DEMO_NAME,
        venue="青岛市民健身中心",
        start_date=datetime.date(2026, 5, 1),
        end_date=datetime.date(2026, 5, 2),
        published=True,
        deals_per_match=6,
        result_confirmation=Event.Confirmation.CAPTAIN,
    )
    if organiser is not None:
        event.organisers.add(organiser)
    stage = Stage.objects.create(
        event=event, order=1, name="瑞士制", format=Stage.Format.SWISS, planned_rounds=rounds + 2
    )
    clubs = [Club.objects.get_or_create(name=club)[0] for club in CLUBS]
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
    for number in range(1, rounds + 1):
        round_ = seating.create_round(stage, seed=seed * 100 + number, user=organiser)
        seating.publish_round(round_, user=organiser)
        for match in round_.matches.filter(table__isnull=False).order_by("table__number"):
            play_match(match, rng)
        seating.close_round(Round.objects.get(pk=round_.pk), user=organiser)
    # A live round: half the tables finished, one result waiting, one disputed.
    live = seating.create_round(stage, seed=seed * 100 + rounds + 1, user=organiser)
    seating.publish_round(live, user=organiser)
    tables = list(live.matches.filter(table__isnull=False).order_by("table__number"))
    for match in tables[: len(tables) // 2]:
        play_match(match, rng)
    if len(tables) > 2:
        report_deal(tables[-2], 1, rng, confirm=None)
        report_deal(tables[-1], 1, rng, confirm=True)
        report_deal(tables[-1], 2, rng, confirm=False)
    standings.update_standings(event.pk, 1)
    return event
