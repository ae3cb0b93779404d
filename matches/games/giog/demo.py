"""The Giog demo event of `make demo`: ten players, tables of 3 and 4, three hands a round.

Round 1 is played and closed, round 2 published with every table's hands entered but the last
table's last hand (so a referee link has something to enter). Hands come from the engine's
self-play (`giog-hand/1` records); odd hands are reported as the record, even hands as the
referee's summary of it, all through the results service (the same path as a real event).
"""

from __future__ import annotations

import datetime
import random

from matches import permissions
from matches.draw import service as seating
from matches.events.demo_names import CLUBS, person_name
from matches.games.giog.engine.selfplay import selfplay
from matches.models import Event, RefereeLink, Registration, Round, Stage
from matches.results import service as results
from matches.standings import service as standings
from players.models import Club, Player

GIOG_DEMO_NAME = "Giog 邀请赛（演示）"


def hand_report(players: int, seed: int) -> tuple[dict, dict]:
    """(record without its claim, the summary a referee would write of it)."""
    record = next(iter(selfplay(1, seed, players=players)))
    claimed = record.pop("claimed")
    summary = {
        "format": "giog-outcome/1",
        "players": players,
        "won": claimed["won"],
        "beheaded": claimed["beheaded"],
    }
    return record, summary


def play_hand(match, number: int, seed: int) -> None:
    link = RefereeLink.objects.filter(
        table=match.table, revoked_at__isnull=True
    ).first() or RefereeLink.objects.create(table=match.table, label="demo")
    players = match.table.seats.count()
    record, summary = hand_report(players, seed)
    deal = results.deal_for(match, number)
    if number % 2:
        results.submit_report(deal, None, record, permissions.Actor.from_link(link))
    else:
        results.submit_report(deal, summary, None, permissions.Actor.from_link(link))


def build_giog_demo(
    organiser=None, *, players: int = 10, hands: int = 3, seed: int = 2027
) -> Event:
    rng = random.Random(seed)
    event = Event.objects.create(
        name=GIOG_DEMO_NAME,
        venue="青岛市民健身中心",
        start_date=datetime.date(2026, 5, 3),
        game="giog",
        entry_type=Event.EntryType.INDIVIDUAL,
        published=True,
        deals_per_match=hands,
        game_settings={"place_points": [3, 2, 1, 0]},
        result_confirmation=Event.Confirmation.NONE,
        labels={"deal": "手", "match": "桌"},
    )
    if organiser is not None:
        event.organisers.add(organiser)
    stage = Stage.objects.create(event=event, order=1, name="轮换", planned_rounds=2)
    clubs = [Club.objects.get_or_create(name=club)[0] for club in CLUBS]
    for k in range(1, players + 1):
        player = Player.objects.create(name=person_name(rng), club=clubs[k % len(clubs)])
        Registration.objects.create(
            event=event, player=player, seed=k, status=Registration.Status.CHECKED_IN
        )
    for number in (1, 2):
        round_ = seating.create_round(stage, seed=seed * 100 + number, user=organiser)
        seating.publish_round(round_, user=organiser)
        tables = list(round_.matches.select_related("table").order_by("table__number"))
        for index, match in enumerate(tables):
            last = number == 2 and index == len(tables) - 1
            for hand in range(1, hands + (0 if last else 1)):
                play_hand(match, hand, rng.randrange(2**31))
            # Idempotent: keeps a demo built inside a transaction (tests) whole.
            standings.settle_match(match.pk)
        if number == 1:
            seating.close_round(Round.objects.get(pk=round_.pk), user=organiser)
    standings.update_standings(event.pk, 1)
    return event
