"""Giog behind the game interface of `matches/games/adapter.py`.

Individual entries only; two to four players a table (G4), opponents rotated round by round;
each hand stands alone (no tributes between hands), scored by place points per hand.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.games import viewer as shared_viewer
from matches.games.adapter import GameAdapter
from matches.games.giog import demo, draw, public, results, standings, viewer
from matches.games.giog import messages as game_messages
from matches.games.giog.engine.game import GiogGame
from matches.games.giog.referee import ResultForm


class GiogAdapter(GameAdapter):
    name = "giog"
    label = gettext_lazy("Giog")
    engine = GiogGame()
    has_unions = False
    entry_types = ("individual",)
    deals_follow_on = False
    has_deal_viewer = True
    site_title = gettext_lazy("Giog 赛事")
    column_note_template = "giog/public/_columns_note.html"
    settings_form = "matches.games.giog.settings_form.GiogSettingsForm"
    result_form = ResultForm()
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

    def validate_event(self, event) -> dict:
        if event.entry_type not in self.entry_types:
            return {"entry_type": _("Giog 赛事只能个人报名")}
        return {}

    def demo_plan(self):
        return demo.PLAN

    def demo_report(self, match, number, rng):
        return demo.random_hand(match.table.seats.count(), number, rng)

    def check_report(self, match, number, summary, play_log):
        return results.check_hand(match, number, summary, play_log)

    def settle_match(self, match) -> None:
        standings.settle_match(match)

    def standings_rows(self, event, rounds, scope):
        return standings.player_rows(event, rounds)

    def results_table(self, event, matches, tallies):
        return public.results_table(event, matches, tallies)

    seats_own_tables = True

    def draw_round(self, round_, field) -> None:
        draw.draw_round(round_, field)

    def reflag_tables(self, round_, table_ids, field) -> None:
        draw.reflag(round_, table_ids, field)

    def table_is_full(self, seat_numbers) -> bool:
        # G4: two to four players, on seats 1..n
        return 2 <= len(seat_numbers) <= 4 and list(seat_numbers) == list(
            range(1, len(seat_numbers) + 1)
        )

    def public_table(self, event, round_, match, read):
        return public.table(event, round_, match, read)

    def public_player(self, event, player, seats):
        return public.player(event, player, seats)

    def public_event_json(self, event) -> dict:
        return {"place_points": event.place_points}  # per hand, best place first

    def public_table_json(self, row, visible):
        return public.table_json(row, visible)

    def deal_viewer(self, event, play_log, summary=None, seat_names=None):
        found = viewer.deal_viewer(event, play_log, summary, seat_names)
        if found is not None:
            found["json"] = shared_viewer.viewer_json(found)
        return found
