"""One demo builder for every game: the demo events of `make demo` (`manage.py load_demo`), the
field of the benchmarks' events, and the random but valid reports of the tests' builder
(`tests/builder.py`).

Everything goes through the services, the same path as a real event: entries through
`matches.events.registration`, rounds through `matches.draw.service`, results through
`matches.results` (a referee link reports, the confirmers the event asks for confirm),
standings through `matches.standings.service`. The builder asks the event's adapter only for
what is the game's own: the demo event's plan (`demo_plan`: its name, settings and field) and a
random report of one deal (`demo_report`).

A demo event: `closed_rounds` rounds played and closed, then one published round half played:
the first half of its tables finished, the others with every deal but the last reported. When
the event asks for confirmation, the last report of each unfinished table waits for it, and the
last table's is disputed, so the organiser's dashboard has something to show.
"""

from __future__ import annotations

import random

from django.contrib.auth import get_user_model
from django.db import transaction

from matches import permissions
from matches.demo.names import CLUBS, person_name
from matches.draw import service as draw
from matches.events import registration
from matches.kernel.games.registry import adapter_named
from matches.kernel.reports import ResultError
from matches.models import DealReport, Event, PlayerAccount, RefereeLink, Round, Stage
from matches.results.confirm import confirm_report
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from matches.standings import service as standings
from players.models import Club, Player

#: random reports tried before giving up (a random Gou Ji summary may contradict the rules)
ATTEMPTS = 20


def load_demo(game: str, organiser) -> tuple[Event | None, bool]:
    """The game's demo event of `organiser`: (event, made now); (None, False) for a game
    without one. Loading it again changes nothing."""
    plan = adapter_named(game).demo_plan()
    if plan is None:
        return None, False
    existing = Event.objects.filter(name=plan.name, organisers=organiser).first()
    if existing is not None:
        return existing, False
    return build_demo(game, organiser), True


def build_demo(game: str, organiser=None) -> Event:
    """The game's demo event (see the module's docstring), the same from the same plan."""
    plan = adapter_named(game).demo_plan()
    rng = random.Random(plan.seed)
    event, stage = create_event(game, plan, organiser)
    enter_field(event, rng, plan.entrants)
    for number in range(1, plan.closed_rounds + 1):
        round_ = draw_and_publish(stage, plan.seed * 100 + number, organiser)
        for match in played_matches(round_):
            play_match(match, rng)
        draw.close_round(Round.objects.get(pk=round_.pk), user=organiser)
    live = draw_and_publish(stage, plan.seed * 100 + plan.closed_rounds + 1, organiser)
    tables = played_matches(live)
    finished = (len(tables) + 1) // 2
    for match in tables[:finished]:
        play_match(match, rng)
    unfinished = tables[finished:]
    for match in unfinished:
        last = event.deals_per_match - 1
        play_match(match, rng, deals=last - 1)
        if last >= 1:
            disputed = match is unfinished[-1]
            report_deal(match, last, rng, agree=False if disputed else None)
            standings.settle_match(match.pk)
    standings.update_standings(event.pk, 1)
    return event


@transaction.atomic
def create_event(game: str, plan, organiser=None) -> tuple[Event, Stage]:
    """The event and its one stage (organisers make both in the admin: no service)."""
    event = Event.objects.create(game=game, name=plan.name, **plan.event)
    if organiser is not None:
        event.organisers.add(organiser)
    stage = Stage.objects.create(
        event=event,
        order=1,
        name=plan.stage_name,
        format=Stage.Format.SWISS,
        planned_rounds=plan.planned_rounds,
    )
    return event, stage


def enter_field(event: Event, rng: random.Random, count: int) -> None:
    """`count` unions (a team event: as many players as a side of the table holds) or players,
    with random names, in the demo's clubs, registered and checked in."""
    clubs = [Club.objects.get_or_create(name=club)[0] for club in CLUBS]
    size = registration.union_size(event)
    for k in range(1, count + 1):
        club = clubs[k % len(clubs)]
        if event.is_team:
            members = [Player.objects.create(name=person_name(rng), club=club) for _ in range(size)]
            entry = registration.register_union(
                event, f"{club.name[:2]}联邦{k}", members, seed=k, club=club
            )
        else:
            player = Player.objects.create(name=person_name(rng), club=club)
            entry = registration.register_player(event, player, seed=k)
        registration.check_in(entry)


def draw_and_publish(stage: Stage, seed: int, organiser=None) -> Round:
    round_ = draw.create_round(stage, seed=seed, user=organiser)
    return draw.publish_round(round_, user=organiser)


def played_matches(round_: Round) -> list:
    """The round's matches at a table (byes aside), by table number."""
    return list(
        round_.matches.filter(table__isnull=False)
        .select_related("table", "round__event")
        .order_by("table__number")
    )


# --- results -----------------------------------------------------------------------------------


def referee(match) -> permissions.Actor:
    """The table's referee: its referee link (made on first use)."""
    link = RefereeLink.objects.filter(
        table=match.table, revoked_at__isnull=True
    ).first() or RefereeLink.objects.create(table=match.table, label="demo")
    return permissions.Actor.from_link(link)


def random_report(match, number: int, rng: random.Random, actor) -> DealReport:
    """A random but valid report of deal `number` by `actor`, from the game's `demo_report`."""
    adapter = match.round.event.adapter
    deal = deal_for(match, number)
    for _attempt in range(ATTEMPTS):
        summary, play_log = adapter.demo_report(match, number, rng)
        try:
            report, _created = submit_report(deal, summary, play_log, actor)
            return report
        except ResultError:
            continue  # a random summary the rules refuse: draw another
    raise RuntimeError(f"no valid random report for deal {number} of match {match.pk}")


def confirmers(match) -> list[permissions.Actor]:
    """Who confirms a report at the match's table in the demo: its unions' captains (by
    account), or a second referee link."""
    if match.round.event.confirmation == Event.Confirmation.CAPTAIN:
        return [_captain(union) for union in (match.union_a, match.union_b) if union is not None]
    link = RefereeLink.objects.filter(table=match.table, label="demo-second").first()
    link = link or RefereeLink.objects.create(table=match.table, label="demo-second")
    return [permissions.Actor.from_link(link)]


def _captain(union) -> permissions.Actor:
    user, created = get_user_model().objects.get_or_create(username=f"captain-{union.pk}")
    if created:
        user.set_unusable_password()
        user.save()
    PlayerAccount.objects.get_or_create(user=user, defaults={"player": union.captain})
    return permissions.Actor(user=user)


def confirm(report: DealReport, agrees: bool = True) -> DealReport:
    """The confirmations the event asks for (none when the report is final already); a
    dispute comes from the first confirmer."""
    for actor in confirmers(report.deal.match):
        if report.state != DealReport.State.PENDING:
            break
        if permissions.confirmation_role(actor, report) is None:
            continue
        if agrees:
            report = confirm_report(report, actor, agrees=True)
        else:
            return confirm_report(report, actor, agrees=False, note="名次记错了", reason="finish")
    return report


def report_deal(match, number: int, rng: random.Random, *, agree: bool | None = True):
    """The table's referee reports deal `number`; the confirmers agree (True), dispute it
    (False) or leave it waiting (None)."""
    report = random_report(match, number, rng, referee(match))
    if agree is not None:
        report = confirm(report, agrees=agree)
    return report


def play_match(match, rng: random.Random, deals: int | None = None) -> None:
    """Deals 1..`deals` (every deal by default) reported and confirmed, the match settled."""
    for number in range(1, (match.round.event.deals_per_match if deals is None else deals) + 1):
        report_deal(match, number, rng)
    # The results service's signal has queued this already (after commit); settling here too
    # keeps the demo whole when it is built inside a transaction (tests), and is idempotent.
    standings.settle_match(match.pk)
