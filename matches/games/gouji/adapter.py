"""Gou Ji (够级) behind the game interface of `matches/games/adapter.py`.

Two unions of three at a six-seat table, seated alternately (union A on seats 1, 3, 5); deals
follow on from one another within a match (R35 tributes, R40 strings of three).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.draw import service as draw
from matches.games import viewer as shared_viewer
from matches.games.adapter import GameAdapter
from matches.games.errors import BadDocument, RuleViolation
from matches.games.gouji import messages as game_messages
from matches.games.gouji import public, results, standings, viewer
from matches.games.gouji.demo_live import DEMO_NAME, build_live_demo
from matches.games.gouji.engine.game import GoujiGame
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.referee_form import ResultForm
from matches.models import Event


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

    def validate_event(self, event) -> dict:
        """The rule set must be one the engine knows (a preset and flags of the spec)."""
        try:
            RuleSet.from_json(event.rules)
        except (BadDocument, RuleViolation) as error:
            return {"rules": str(getattr(error, "message", error))}
        return {}

    def load_demo(self, organiser):
        existing = Event.objects.filter(name=DEMO_NAME, organisers=organiser).first()
        if existing is not None:
            return existing, False
        return build_live_demo(organiser), True

    def check_report(self, match, number, summary, play_log):
        return results.check_report(match, number, summary, play_log)

    def settle_match(self, match) -> None:
        standings.settle_match(match)

    def standings_rows(self, event, rounds, scope):
        return standings.standings_rows(event, rounds, scope)

    def results_table(self, event, matches, tallies):
        return standings.results_table(event, matches, tallies)

    def draw_round(self, round_) -> None:
        draw.draw_union_tables(round_)

    def reflag_tables(self, round_, table_ids) -> None:
        draw.reflag_drawn_unions(round_, table_ids)

    def table_is_full(self, seat_numbers) -> bool:
        return list(seat_numbers) == [1, 2, 3, 4, 5, 6]

    def seat_problems(self, match, seats) -> list[str]:
        """R1: side A's union on seats 1-3-5, side B's on 2-4-6, each seat of its side's
        union (the draw, swaps and hand pairings are checked with it before publishing)."""
        for seat in seats:
            side = "A" if seat.seat % 2 else "B"
            expected = match.union_a_id if side == "A" else match.union_b_id
            if seat.side != side or seat.union_id != expected:
                return [_("第 %(n)s 桌联邦与座位不符") % {"n": match.table.number}]
        return []

    def public_table(self, event, round_, match, visible):
        return public.table(event, round_, match, visible)

    def public_player(self, event, player, seats):
        return public.player(event, player, seats)

    def public_table_json(self, row, visible):
        return public.table_json(row, visible)

    def deal_viewer(self, event, play_log, summary=None, seat_names=None):
        found = viewer.deal_viewer(event, play_log, summary, seat_names)
        if found is not None:
            found["json"] = shared_viewer.viewer_json(found)
        return found
