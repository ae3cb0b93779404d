"""Giog behind the game interface of `matches/kernel/games/adapter.py`.

Individual entries only; two to four players a table (G4), opponents rotated round by round;
each hand stands alone (no tributes between hands), scored by place points per hand.
"""

from __future__ import annotations

from typing import Any, Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.games.giog import demo, draw, public, results, standings, viewer
from matches.games.giog import messages as game_messages
from matches.games.giog.engine.game import GiogGame
from matches.games.giog.engine.verdict import GiogDealVerdict, GiogTally
from matches.games.giog.referee import ResultForm
from matches.games.giog.settings import GiogSettings
from matches.games.giog.sheet import SHEET
from matches.kernel.engine_errors import JSONObject
from matches.kernel.engine_types import PlayedSeat, PublicTable, Tally
from matches.kernel.games.adapter import DemoPlan, GameAdapter
from matches.kernel.reports import Checked
from matches.models import DealReport, Event, Match, Round


class GiogAdapter(GameAdapter):
    name = "giog"
    label = gettext_lazy("Giog")
    engine = GiogGame()
    sides_have_captains = False  # a side is one player: no captain to confirm
    entry_types = ("individual",)
    deals_follow_on = False
    has_deal_viewer = True
    site_title = gettext_lazy("Giog 赛事")
    column_note_template = "giog/public/_columns_note.html"
    settings_form = "matches.games.giog.settings_form.GiogSettingsForm"
    result_form = ResultForm()
    score_sheet = SHEET
    messages = game_messages.MESSAGES
    rule_names = game_messages.RULE_NAMES
    player_columns = (
        ("points_display", gettext_lazy("积分"), True),
        ("pieces", gettext_lazy("赢子"), True),
        ("firsts", gettext_lazy("头名"), True),
        ("beheaded", gettext_lazy("斩首"), True),
        ("hands", gettext_lazy("手数"), True),
    )
    export_player_columns = tuple((key, title) for key, title, _numeric in player_columns)

    def deal_name(self, number: int) -> str:
        return _("第%(n)s手") % {"n": number}

    def read_settings(self, data: JSONObject) -> GiogSettings:
        return GiogSettings.from_json(data)

    def rules_line(self, event: Event) -> str:
        """ "Giog · 2-4 人一桌 · 名次分 3/2/1/0" (G4, G11): the table and its place points."""
        points = "/".join(str(p) for p in event.game_rules.place_points)
        return " · ".join(
            (str(self.label), _("2-4 人一桌"), _("名次分 %(points)s") % {"points": points})
        )

    def validate_event(self, event: Event) -> dict[str, Any]:
        if event.entry_type not in self.entry_types:
            return {"entry_type": _("Giog 赛事只能个人报名")}
        return super().validate_event(event)

    def demo_plan(self) -> DemoPlan:
        return demo.PLAN

    def demo_report(
        self, match: Match, number: int, rng: Any
    ) -> tuple[JSONObject | None, JSONObject | None]:
        if match.table is None:
            raise ValueError("a match without a table has no hand to play")
        return demo.random_hand(match.table.seats.count(), number, rng)

    def check_report(
        self,
        match: Match,
        number: int,
        summary: Any,
        play_log: Any,
        earlier: Mapping[int, JSONObject] | None = None,
    ) -> Checked:
        return results.check_hand(match, number, summary, play_log)  # each hand stands alone

    def favoured_seats(self, report: DealReport, sides: Mapping[int, str]) -> frozenset[int]:
        # Each player is a side: the hand favours its first place (a group when seats share
        # it); nobody when every seat shares one place.
        places = GiogDealVerdict.from_json(report.verdict or {}).checked.places
        if len(places) < 2:
            return frozenset()
        return frozenset(int(seat) for seat in places[0])

    def read_verdict(self, data: JSONObject) -> GiogDealVerdict:
        return GiogDealVerdict.from_json(data)

    def tally_deal(
        self, match: Match, report: DealReport, before: Tally[Any] | None
    ) -> Tally[GiogTally] | None:
        return standings.tally_hand(report)  # each hand stands alone

    def read_tally_detail(self, data: JSONObject) -> GiogTally:
        return GiogTally.from_json(data)

    def settle_match(self, match: Match) -> None:
        standings.settle_match(match)

    def standings_rows(self, event: Event, rounds: list[Round], scope: str) -> list[JSONObject]:
        return standings.player_rows(event, rounds)

    def results_table(
        self, event: Event, matches: Any, tallies: dict[int, Any]
    ) -> tuple[list[str], list[list[Any]]]:
        return public.results_table(event, matches, tallies)

    seats_own_tables = True

    def draw_round(self, round_: Round, field: list[Any]) -> None:
        draw.draw_round(round_, field)

    def reflag_tables(self, round_: Round, table_ids: set[int], field: list[Any]) -> None:
        draw.reflag(round_, table_ids, field)

    def table_is_full(self, event: Event, seat_numbers: list[int]) -> bool:
        # G4: two to four players, on seats 1..n
        return 2 <= len(seat_numbers) <= 4 and list(seat_numbers) == list(
            range(1, len(seat_numbers) + 1)
        )

    def public_table(
        self, event: Event, round_: Round, match: Match | None, read: PublicTable
    ) -> tuple[str, str, JSONObject]:
        return public.table(event, round_, match, read)

    def public_player(
        self, event: Event, player: Any, seats: list[PlayedSeat]
    ) -> tuple[str, JSONObject]:
        return public.player(event, player, seats)

    def public_event_json(self, event: Event) -> JSONObject:
        return {"place_points": list(event.game_rules.place_points)}  # per hand, best place first

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
