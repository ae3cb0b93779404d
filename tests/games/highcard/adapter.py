"""High card behind the game interface (`matches/kernel/games/adapter.py`): the whole Django side of a
game in one small file."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from matches.kernel.draw_rows import write_player_tables
from matches.kernel.engine_types import Tally
from matches.kernel.games.adapter import GameAdapter
from matches.kernel.pairing.individual import TableDraw
from matches.kernel.reports import Checked, require_documents
from matches.models import DealTally, Registration, TableSeat
from tests.games.highcard.engine import (
    DEAL_FORMAT,
    OUTCOME_FORMAT,
    HighCardGame,
    HighCardTally,
    HighCardVerdict,
)


@dataclass
class CardEntry:
    cards: dict = field(default_factory=dict)
    idempotency_key: str = ""
    reason: str = ""

    def problems(self) -> list[dict]:
        return []

    def summary(self) -> dict:
        return {"format": OUTCOME_FORMAT, "cards": dict(self.cards)}

    def play_log(self):
        return None


def _card(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


class CardForm:
    templates = {
        "page": "highcard/table.html",
        "form": "highcard/form.html",
        "correct": "highcard/table.html",
        "summary": "highcard/summary.html",
    }

    def blank(self, table):
        return CardEntry(idempotency_key=uuid.uuid4().hex)

    def from_post(self, table, data, files):
        return CardEntry(
            cards={seat: _card(data.get(f"card_{seat}")) for seat in ("1", "2")},
            idempotency_key=data.get("idempotency_key") or uuid.uuid4().hex,
        )

    def from_report(self, table, report):
        return CardEntry(cards=dict((report.summary or {}).get("cards") or {}))

    def describe(self, problems):
        return problems

    def summary_context(self, report, seat_names):
        return {"report": report, "winner": (report.verdict or {}).get("winner")}

    def context(self, context):
        return {}


class HighCardAdapter(GameAdapter):
    name = "highcard"
    label = "High card"
    engine = HighCardGame()
    sides_have_captains = False
    entry_types = ("individual",)
    deals_follow_on = False
    site_title = "High card"
    result_form = CardForm()
    player_columns = (("wins", "Wins", True), ("deals", "Deals", True))
    export_player_columns = (("wins", "Wins"), ("deals", "Deals"))

    def deal_name(self, number):
        return f"card {number}"

    def check_report(self, match, number, summary, play_log, earlier=None):
        require_documents(summary, play_log, OUTCOME_FORMAT, DEAL_FORMAT)
        summary = summary or play_log
        verdict = HighCardVerdict.from_json(self.engine.check_summary(summary))
        return Checked(
            summary=summary,
            play_log=play_log,
            verdict=verdict,
            errors=[error.to_json() for error in verdict.errors],
        )

    def read_verdict(self, data):
        return HighCardVerdict.from_json(data)

    # settle_match: the interface's own (tallies, then the two sides' match result)
    def tally_deal(self, match, report, before):
        verdict = HighCardVerdict.from_json(report.verdict)
        if verdict.winner is None:
            return None
        score_a, score_b = verdict.side_scores()
        return Tally(
            places=((verdict.winner,), (3 - verdict.winner,)),
            detail=HighCardTally(verdict.winner),
            score_a=score_a,
            score_b=score_b,
        )

    def read_tally_detail(self, data):
        return HighCardTally.from_json(data)

    def standings_rows(self, event, rounds, scope):
        seats = {
            (t, s): (pid, name)
            for t, s, pid, name in TableSeat.objects.filter(round__in=rounds).values_list(
                "table_id", "seat", "player_id", "player__name"
            )
        }
        lines = {
            pid: {"player": pid, "name": name, "wins": 0, "deals": 0}
            for pid, name in Registration.objects.filter(event=event).values_list(
                "player_id", "player__name"
            )
        }
        for row in DealTally.objects.filter(match__round__in=rounds).select_related("match"):
            table_id = row.match.table_id
            for place, seat in enumerate(self.read_tally(row).seats):
                pid, _name = seats[(table_id, seat)]
                lines[pid]["deals"] += 1
                lines[pid]["wins"] += place == 0
        ordered = sorted(lines.values(), key=lambda line: (-line["wins"], line["name"]))
        return [{**line, "rank": rank} for rank, line in enumerate(ordered, 1)]

    def results_table(self, event, matches, tallies):
        return ["table", "deal", "winner"], [
            [m.table.number, t.deal.number, self.read_tally(t).detail.winner]
            for m in matches
            for t in tallies.get(m.pk, [])
        ]

    seats_own_tables = True

    def draw_round(self, round_, field):
        players = [r.player_id for r in field]
        tables = [TableDraw(seats=players[k : k + 2]) for k in range(0, len(players) - 1, 2)]
        write_player_tables(round_, tables)
        round_.quality = {"method": "highcard"}
        round_.save(update_fields=["quality"])

    def reflag_tables(self, round_, table_ids, field):
        pass

    def table_is_full(self, event, seat_numbers):
        return list(seat_numbers) == [1, 2]

    def public_table(self, event, round_, match, read):
        return "highcard/table.html", "highcard/table.html", {}

    def public_player(self, event, player, seats):
        return "highcard/table.html", {}

    def public_table_json(self, row, visible):
        match = row["match"]
        entry = {
            "table": match.table.number,
            "players": [{"seat": s.seat, "name": s.player.name} for s in row["seats"]],
        }
        if visible:
            entry["winners"] = [self.read_tally(t).places[0][0] for t in row["deals"]]
        return entry
