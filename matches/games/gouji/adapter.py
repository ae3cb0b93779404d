"""Gou Ji (够级) behind the game interface of `matches/games/adapter.py`.

Two unions of three at a six-seat table, seated alternately (union A on seats 1, 3, 5); deals
follow on from one another within a match (R35 tributes, R40 strings of three).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.games import viewer as shared_viewer
from matches.games.adapter import GameAdapter
from matches.games.errors import BadDocument, RuleViolation
from matches.games.gouji import demo, public, results, standings, viewer
from matches.games.gouji import messages as game_messages
from matches.games.gouji.engine.game import GoujiGame
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.referee_form import ResultForm


class GoujiAdapter(GameAdapter):
    name = "gouji"
    label = gettext_lazy("够级")
    engine = GoujiGame()
    has_unions = True
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

    def demo_plan(self):
        return demo.PLAN

    def demo_report(self, match, number, rng):
        return demo.random_outcome(rng), None

    def check_report(self, match, number, summary, play_log):
        return results.check_report(match, number, summary, play_log)

    def settle_match(self, match) -> None:
        standings.settle_match(match)

    def standings_rows(self, event, rounds, scope):
        return standings.standings_rows(event, rounds, scope)

    def results_table(self, event, matches, tallies):
        return standings.results_table(event, matches, tallies)

    def table_is_full(self, seat_numbers) -> bool:
        return list(seat_numbers) == [1, 2, 3, 4, 5, 6]

    def public_table(self, event, round_, match, read):
        return public.table(event, round_, match, read)

    def public_player(self, event, player, seats):
        return public.player(event, player, seats)

    def public_table_json(self, row, visible):
        return public.table_json(row, visible)

    def deal_viewer(self, event, play_log, summary=None, seat_names=None):
        found = viewer.deal_viewer(event, play_log, summary, seat_names)
        if found is not None:
            found["json"] = shared_viewer.viewer_json(found)
        return found
