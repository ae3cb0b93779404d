"""Gou Ji (够级) behind the game interface of `matches/kernel/games/adapter.py`.

Two unions at a table: of three at six seats, seated alternately (union A on seats 1, 3, 5,
R1), or of four at eight seats, seated together (union A on seats 1-4, R44), as the event's
rule set says (`players`); deals follow on from one another within a match (R35 tributes, R40
strings of three, or of four at eight seats).
"""

from __future__ import annotations

from typing import Any, Mapping

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.games.gouji import demo, live, public, results, standings, viewer
from matches.games.gouji import messages as game_messages
from matches.games.gouji.engine import seating
from matches.games.gouji.engine.game import GoujiGame
from matches.games.gouji.engine.verdict import (
    GoujiDealVerdict,
    GoujiTally,
    ledger_from_json,
    ledger_to_json,
)
from matches.games.gouji.referee_form import ResultForm
from matches.games.gouji.settings import GoujiSettings
from matches.games.gouji.settings_form import rules_line
from matches.games.gouji.sheet import SHEET
from matches.games.gouji.table import shape_for
from matches.kernel.engine_errors import JSONObject
from matches.kernel.engine_types import PlayedSeat, PublicTable, TableShape, Tally
from matches.kernel.games.adapter import DemoPlan, GameAdapter
from matches.kernel.reports import Checked
from matches.models import Deal, DealReport, DealTally, Event, Match, Round


class GoujiAdapter(GameAdapter):
    name = "gouji"
    label = gettext_lazy("够级")
    engine = GoujiGame()
    entry_types = ("team", "individual")
    deals_follow_on = True
    has_deal_viewer = True
    site_title = gettext_lazy("够级赛事")
    settings_form = "matches.games.gouji.settings_form.RulesForm"
    result_form = ResultForm()
    score_sheet = SHEET
    messages = game_messages.MESSAGES
    rule_names = game_messages.RULE_NAMES
    #: the player standings: (row key, title, numeric)
    player_columns = (
        ("union", gettext_lazy("联邦"), False),
        ("place_points", gettext_lazy("名次分"), True),
        ("points_opened", gettext_lazy("开点"), True),
        ("burns", gettext_lazy("烧牌"), True),
        ("deals", gettext_lazy("局数"), True),
    )
    export_player_columns = (
        ("place_points", gettext_lazy("名次分")),
        ("points_opened", gettext_lazy("开点")),
        ("burns", gettext_lazy("烧牌")),
        ("firsts", gettext_lazy("头科")),
        ("deals", gettext_lazy("局数")),
    )

    def deal_name(self, number: int) -> str:
        return _("第%(n)s局") % {"n": number}

    def describe_error(self, error: JSONObject) -> str:
        """With the numbers in words first: R52's joker groups, a mismatch's field and values."""
        return game_messages.describe(error)

    def read_settings(self, data: JSONObject) -> GoujiSettings:
        """The rule set must be one the engine knows (a preset and flags of the spec)."""
        return GoujiSettings.from_json(data)

    def demo_plan(self) -> DemoPlan:
        return demo.PLAN

    def demo_report(
        self, match: Match, number: int, rng: Any
    ) -> tuple[JSONObject | None, JSONObject | None]:
        return demo.random_outcome(rng, self.table_shape(match.round.event).seats), None

    def check_report(
        self,
        match: Match,
        number: int,
        summary: Any,
        play_log: Any,
        earlier: Mapping[int, JSONObject] | None = None,
    ) -> Checked:
        return results.check_report(match, number, summary, play_log, earlier)

    def read_verdict(self, data: JSONObject) -> GoujiDealVerdict:
        return GoujiDealVerdict.from_json(data)

    def tributes_owed(self, deal: Deal) -> list[JSONObject] | None:
        if deal.tributes_owed is None:
            return None
        return ledger_to_json(ledger_from_json(deal.tributes_owed))

    def tally_deal(
        self, match: Match, report: DealReport, before: Tally[Any] | None
    ) -> Tally[GoujiTally] | None:
        return standings.tally_deal(report, before, standings.event_rules(match.round.event))

    def read_tally_detail(self, data: JSONObject) -> GoujiTally:
        return GoujiTally.from_json(data)

    def settle_match(self, match: Match) -> None:
        standings.settle_match(match)

    settles_deal_by_deal = True

    def settle_new_deal(
        self,
        match: Match,
        deals: list[Deal],
        reports: dict[int, DealReport],
        rows: dict[int, DealTally],
        deal: Deal,
    ) -> bool:
        return standings.settle_new_deal(match, deals, reports, rows, deal)

    def strings_of_three_filters(self) -> tuple[Q, Q]:
        """R40's strings of three: the union that took 1st, 2nd and 3rd (`GoujiTally.strung`)."""
        return Q(detail__strung="A"), Q(detail__strung="B")

    def strings_of_three_label(self, event: Event) -> str:
        """R47, D22: at eight seats a union strings four (串四户), at six three (串三户)."""
        return _("串四户") if self.table_shape(event).union_size == 4 else _("串三户")

    def rules_line(self, event: Event) -> str:
        """ "八人够级 · 四副牌 · 串四户 24": seats, decks, the string's score, from the rules."""
        return rules_line(event.game_rules.rules)

    def standings_rows(self, event: Event, rounds: list[Round], scope: str) -> list[JSONObject]:
        return standings.standings_rows(event, rounds, scope)

    def results_table(
        self, event: Event, matches: Any, tallies: dict[int, Any]
    ) -> tuple[list[str], list[list[Any]]]:
        return standings.results_table(event, matches, tallies)

    def head_rival_seat(self, seat: int, table_size: int) -> int | None:
        """R2, R45: the seat opposite (1↔4 at six seats, 1↔5 at eight)."""
        return seating.head_rival(seat, table_size)

    def table_shape(self, event: Event) -> TableShape:
        """R1: six seats, unions alternate (A on 1-3-5); R44: eight seats, each union's four
        together (A on 1-4, B on 5-8)."""
        return shape_for(event.game_rules.rules.players)

    def table_is_full(self, event: Event, seat_numbers: list[int]) -> bool:
        return tuple(seat_numbers) == self.table_shape(event).seats

    def seat_problems(self, match: Match, seats: list[Any]) -> list[str]:
        """R1 / R44: each seat of its side's union, side A's union on the seats the table's
        shape gives it (the draw, swaps and hand pairings are checked with it before
        publishing)."""
        shape = self.table_shape(match.round.event)
        for seat in seats:
            side = shape.side_of(seat.seat) if seat.seat <= shape.size else ""
            expected = match.union_a_id if side == "A" else match.union_b_id
            if seat.side != side or seat.union_id != expected:
                number = match.table.number if match.table is not None else "?"
                return [_("第 %(n)s 桌联邦与座位不符") % {"n": number}]
        return []

    def public_table(
        self, event: Event, round_: Round, match: Match | None, read: PublicTable
    ) -> tuple[str, str, JSONObject]:
        return public.table(event, round_, match, read)

    def public_player(
        self, event: Event, player: Any, seats: list[PlayedSeat]
    ) -> tuple[str, JSONObject]:
        return public.player(event, player, seats)

    def public_table_json(self, row: JSONObject, visible: bool) -> JSONObject:
        return public.table_json(row, visible)

    def play_log_steps(
        self,
        event: Event,
        play_log: Any,
        summary: Any = None,
        seat_names: Mapping[int, str] | None = None,
    ) -> JSONObject | None:
        return viewer.deal_viewer(event, play_log, summary, seat_names)

    def live_play(
        self, event: Event, setup: JSONObject, actions: list[JSONObject], *, legal: bool = False
    ) -> JSONObject | None:
        return live.live_play(event.game_rules.rules_json, setup, actions, legal=legal)
