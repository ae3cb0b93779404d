"""One builder for every test that needs an event, of either game.

    b = EventBuilder(unions=4).register()                     # Gou Ji, four unions checked in
    b.draw_round().report_all().confirm_all().standings()     # a drawn round, every deal final
    round_ = b.round([(0, 1), (2, 3)])                        # or pairings fixed by the test
    b.final(b.match(round_, 1), 1, [1, 2, 3, 4, 5, 6])        # one final deal result

    g = EventBuilder("giog", players=8).register()
    g.hand(g.first_match(g.draw()), 1, {1: 12, 2: 8, 3: 8, 4: 4})

Rows are made by the services, as the application makes them (random results are the demo
builder's, `matches/demo/builder.py`): entries by
`matches.events.registration`, rounds by `matches.draw.service`, results by
`matches.results` (reported, then confirmed, or corrected by the organiser when the deal
already has a final result), standings by `matches.standings.service`. Two things have no
service and are written here: the event and its stage (the organisers make them in the admin),
and the people (users, player accounts, referee links; see `tests.personas`).

A test that needs a row the services would refuse (a corrupt or hostile database row) writes it
itself, next to a comment saying why.
"""

from __future__ import annotations

import contextlib
import datetime
import random

from matches import permissions
from matches.demo import builder as demo
from matches.draw import service as draw
from matches.draw import union_tables
from matches.events import registration
from matches.kernel.pairing.types import Pairing
from matches.models import DealReport, Event, Round, Stage
from matches.results.confirm import confirm_report
from matches.results.correct import correct_result
from matches.results.deals import deal_for
from matches.results.submit import submit_report
from matches.standings import service as standings
from players.models import Club, Player
from tests.personas import Personas

GOUJI, GIOG = "gouji", "giog"
CORRECTION_REASON = "测试：裁判长更正"


def outcome(finish, points=(), burns=(), declarations=None, suffocated=(), revolution=()) -> dict:
    """A Gou Ji deal summary (`gouji-outcome/1`) as a referee reports it.

    `burns` are (burner, burned, outcome) triples, `suffocated` (seat, by) pairs."""
    return {
        "format": "gouji-outcome/1",
        "finish": list(finish),
        "points": list(points),
        "declarations": declarations or {},
        "burns": [dict(zip(("burner", "burned", "outcome"), b)) for b in burns],
        "suffocated": [dict(zip(("seat", "by"), s)) for s in suffocated],
        "revolution": list(revolution),
    }


def giog_outcome(seats: int, won: dict, beheaded=()) -> dict:
    """A Giog hand summary (`giog-outcome/1`): pieces won per seat, beheaded seats."""
    return {
        "format": "giog-outcome/1",
        "players": seats,
        "won": {str(k): v for k, v in won.items()},
        "beheaded": list(beheaded),
    }


@contextlib.contextmanager
def computations_in_process():
    """Run the Celery computations that results queue in this process while building, not in a
    worker (CI's second pass has one): for tests that then hand the event to workers of their
    own and must not race the shared one."""
    from gouji_tournament.celery import app

    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager, app.conf.task_eager_propagates = True, True
    try:
        yield
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = saved


class EventBuilder:
    """An event of `game` with its first stage; `register()` enters and checks in the field.

    Gou Ji: `unions` unions of three, or of four under `players = 8` (`联邦k`, players
    `选手k-order`, the first the captain).
    Giog: `players` individual players (`棋手01`...), in `clubs` clubs when given."""

    def __init__(
        self,
        game: str = GOUJI,
        *,
        unions: int = 4,
        players: int = 8,
        deals=None,
        fmt: str = Stage.Format.SWISS,
        planned_rounds=None,
        published: bool = True,
        confirmation=None,
        rules=None,
        tie_breaks=None,
        tie_break_deals=None,
        place_points=None,
        clubs: int = 0,
        entry_type=None,
        stage_name: str = "",
        names=None,
        player_names=None,
        **fields,
    ):
        self.game = game
        self.clubs = clubs
        self.names = list(names or [])  # entrants' names (unions, or players of an individual
        self.player_names = list(player_names or [])  # event); union members', in order
        if game == GIOG:
            fields.setdefault("name", "Giog 公开赛")
            fields.setdefault("start_date", datetime.date(2026, 6, 1))
            fields.update(
                entry_type=Event.EntryType.INDIVIDUAL,
                game_settings={"place_points": place_points or [3, 2, 1, 0]},
                result_confirmation=confirmation or Event.Confirmation.NONE,
            )
        else:
            fields.setdefault("name", "测试赛")
            fields.setdefault("start_date", datetime.date(2026, 5, 1))
            fields["game_settings"] = {"rules": rules or {"preset": "standard"}}
            if entry_type:
                fields["entry_type"] = entry_type
            if confirmation:
                fields["result_confirmation"] = confirmation
            if tie_breaks is not None:
                fields["tie_breaks"] = tie_breaks
        # No service makes events: the organisers create them (and their stages) in the admin.
        self.event = Event.objects.create(
            game=game,
            deals_per_match=deals or 2,
            tie_break_deals=tie_break_deals,
            published=published,
            **fields,
        )
        self.stage = Stage.objects.create(
            event=self.event,
            order=1,
            format=fmt,
            name=stage_name,
            planned_rounds=planned_rounds or (5 if game == GIOG else 9),
        )
        self.size = unions if self.is_team else players
        self.unions: list = []
        self.players: list = []
        self.people = Personas(self)
        self.latest: Round | None = None

    # --- people ----------------------------------------------------------------------------

    @property
    def organiser(self):
        return self.people.organiser

    @property
    def is_team(self) -> bool:
        return self.event.is_team

    # --- entries ---------------------------------------------------------------------------

    def register(self, check_in: bool = True) -> EventBuilder:
        """Enter the field through `matches.events.registration` and check it in."""
        names = (
            self.clubs
            if isinstance(self.clubs, (list, tuple))
            else [f"俱乐部{k}" for k in range(self.clubs)]
        )  # `clubs`: a count, or the clubs' names
        clubs = [Club.objects.create(name=name) for name in names]
        club_of = (lambda k: clubs[k % len(clubs)]) if clubs else (lambda k: None)
        named = lambda names, k, default: names[k] if k < len(names) else default  # noqa: E731
        size = registration.union_size(self.event)  # three, or four at eight seats
        for k in range(1, self.size + 1):
            if self.is_team:
                members = [
                    Player.objects.create(
                        name=named(
                            self.player_names, size * (k - 1) + order - 1, f"选手{k}-{order}"
                        ),
                        club=club_of(k - 1),
                    )
                    for order in range(1, size + 1)
                ]
                entry = registration.register_union(
                    self.event,
                    named(self.names, k - 1, f"联邦{k}"),
                    members,
                    seed=k,
                    club=club_of(k - 1),
                )
                self.unions.append(entry.union)
            else:
                player = Player.objects.create(
                    name=named(self.names, k - 1, f"棋手{k:02d}"), club=club_of(k - 1)
                )
                entry = registration.register_player(self.event, player, seed=k)
                self.players.append(player)
            if check_in:
                registration.check_in(entry)
        return self

    # --- rounds ----------------------------------------------------------------------------

    def draw_round(
        self, seed: int = 7, publish: bool = True, stage=None, silent: bool = False
    ) -> EventBuilder:
        """The next round drawn by `matches.draw.service` (and published)."""
        self.latest = draw.create_round(stage or self.stage, seed=seed, silent=silent)
        if publish:
            self.publish()
        return self

    def draw(self, seed: int = 7, publish: bool = True, **kwargs) -> Round:
        """`draw_round`, returning the round."""
        round_ = self.draw_round(seed, publish, **kwargs).latest
        assert round_ is not None  # draw_round sets it
        return round_

    def round(self, pairs, *, silent: bool = False, publish: bool = True, stage=None) -> Round:
        """A team round with the pairings the test fixes: (a, b) by 0-based union index, b None
        for a bye. Written by the draw service's writer, the same code a draw ends in."""
        stage = stage or self.stage
        number = registration.next_round_number(self.event)
        # The draw service has no entry point for pairings chosen by hand (only swaps after a
        # draw): the round row is made here, its tables, seats and entries by the draw's writer.
        round_ = Round.objects.create(
            event=self.event,
            stage=stage,
            number=number,
            stage_round=stage.rounds.count() + 1,
            seed=number,
            silent=silent,
        )
        union_tables.write_team_draw(
            round_,
            [
                Pairing(a=self.unions[a].id, b=None if b is None else self.unions[b].id)
                for a, b in pairs
            ],
            {},
        )
        self.latest = round_
        if publish:
            self.publish()
        return round_

    def publish(self, round_=None) -> EventBuilder:
        round_ = round_ or self.latest
        draw.publish_round(round_)
        round_.refresh_from_db()
        return self

    def settle(self, round_=None) -> EventBuilder:
        """Settle the round's matches, as the Celery task does when a result is committed
        (tests in one transaction never commit)."""
        for match in self.matches(round_):
            standings.settle_match(match.pk)
        return self

    def close(self, round_=None) -> EventBuilder:
        """Settle the round's matches and close it (`draw.close_round` wants every match's
        points)."""
        round_ = round_ or self.latest
        self.settle(round_)
        draw.close_round(round_)
        round_.refresh_from_db()
        return self

    def add_stage(self, **fields) -> Stage:
        """A further stage of the event (made in the admin, like the event: no service)."""
        fields.setdefault("order", self.event.stages.count() + 1)
        return Stage.objects.create(event=self.event, **fields)

    def play_rounds(self, count: int, seed: int = 2026) -> EventBuilder:
        """`count` rounds drawn, published, played (random valid results, through the services)
        and closed."""
        for _ in range(count):
            number = registration.next_round_number(self.event)
            self.draw_round(seed=seed * 100 + number).report_all(seed=seed + number).close()
        return self

    def match(self, round_, table_number: int):
        return round_.matches.select_related("table").get(table__number=table_number)

    def matches(self, round_=None) -> list:
        """The played matches (byes aside) of a round, by table."""
        round_ = round_ or self.latest or self.event.rounds.order_by("number").last()
        return list(round_.matches.played().select_related("table").order_by("table__number"))

    def first_match(self, round_=None):
        return self.matches(round_)[0]

    # --- results ---------------------------------------------------------------------------

    def report(self, match, number: int, summary=None, play_log=None, actor=None, key: str = ""):
        """A referee's report through `submit_report` (the organiser's by default)."""
        deal = deal_for(match, number)
        report, _created = submit_report(
            deal, summary, play_log, actor or self.people.actor("organiser"), key
        )
        return report

    def confirm(self, report, agrees: bool = True):
        """The confirmation the event asks for: both captains, or a second referee (the table's
        referee link, the organiser having reported)."""
        if report.state != DealReport.State.PENDING:
            return report
        match = report.deal.match
        answered = False
        for actor in self.people.confirmers(match):
            if permissions.confirmation_role(actor, report) is not None:
                # Both unions agree in captain mode: each captain answers in turn.
                report = confirm_report(report, actor, agrees)
                answered = True
                if report.state != DealReport.State.PENDING:
                    return report
        if not answered:
            raise AssertionError(f"nobody may confirm report {report.pk}")
        return report

    def correct(
        self, match, number: int, summary=None, play_log=None, reason: str = CORRECTION_REASON
    ):
        deal = deal_for(match, number)
        return correct_result(deal, summary, play_log, self.people.actor("organiser"), reason)

    def result(self, match, number: int, summary=None, play_log=None):
        """A final result for deal `number`: reported and confirmed, or a correction by the
        organiser when the deal already has a final result."""
        deal = deal_for(match, number)
        if deal.reports.final().exists():
            return self.correct(match, number, summary, play_log)
        return self.confirm(self.report(match, number, summary, play_log))

    def final(
        self,
        match,
        number: int,
        finish,
        points=(),
        burns=(),
        declarations=None,
        suffocated=(),
        revolution=(),
    ):
        """A final Gou Ji result for deal `number` from its finishing order and events."""
        return self.result(
            match, number, outcome(finish, points, burns, declarations, suffocated, revolution)
        )

    def hand(self, match, number: int, won: dict, beheaded=()):
        """A final Giog hand result from the pieces each seat won."""
        seats = match.table.seats.count()
        return self.result(match, number, giog_outcome(seats, won, beheaded))

    def report_all(self, round_=None, seed: int = 1, confirm: bool = True) -> EventBuilder:
        """Random but valid results for every deal of every match of the round, drawn by the
        game's `demo_report` (the demo events' results, `matches/demo/builder.py`)."""
        rng = random.Random(seed)
        organiser = self.people.actor("organiser")
        for match in self.matches(round_):
            for number in range(1, self.event.deals_per_match + 1):
                report = demo.random_report(match, number, rng, organiser)
                if confirm:
                    self.confirm(report)
                elif (
                    self.event.adapter.deals_follow_on and report.state == DealReport.State.PENDING
                ):
                    break  # R35: the next deal waits for this one to be final
        return self

    def confirm_all(self, round_=None) -> EventBuilder:
        round_ = round_ or self.latest
        pending = DealReport.objects.filter(
            deal__match__round=round_, state=DealReport.State.PENDING
        )
        for report in pending.select_related("deal__match"):
            self.confirm(report)
        return self

    # --- standings -------------------------------------------------------------------------

    def standings(self) -> EventBuilder:
        """Settle every match and write every snapshot (what the Celery tasks do)."""
        standings.recompute_event(self.event.pk)
        return self
