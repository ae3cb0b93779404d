"""Read queries behind the public pages, the public API and the exports: one place that knows
how a round's tables, seats and tallies are read, so the three show the same thing.

What a game shows of a table's result is its adapter's (`public_table_json`, `public_table`,
`public_player`); the rows here are game-neutral.
"""

from __future__ import annotations

from collections import Counter, defaultdict

from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from matches.kernel.engine_types import PlayedSeat, PublicTable
from matches.models import Deal, DealReport, DealTally, TableSeat
from matches.models.round import SIDE_A
from matches.public import visibility


def seats_by_table(round_) -> dict[int, list[TableSeat]]:
    """table id -> its seats, seat 1 first, with the players."""
    seats = defaultdict(list)
    for seat in TableSeat.objects.filter(round=round_).select_related("player").order_by("seat"):
        seats[seat.table_id].append(seat)
    return seats


def tallies_by_match(matches) -> dict[int, list[DealTally]]:
    """match id -> its deal tallies, deal 1 first."""
    tallies = defaultdict(list)
    for tally in (
        DealTally.objects.filter(match__in=matches).select_related("deal").order_by("deal__number")
    ):
        tallies[tally.match_id].append(tally)
    return tallies


def round_tables(round_, with_results: bool) -> list[dict]:
    """Each match of a round with its seats and, when results are visible, its tallies so far."""
    seats = seats_by_table(round_)
    matches = list(
        round_.matches.with_sides().select_related("table").order_by("table__number", "id")
    )
    tallies = tallies_by_match(matches) if with_results else {}
    rows = []
    for match in matches:
        table_seats = seats.get(match.table_id, [])
        played = tallies.get(match.pk, [])
        rows.append(
            {
                "match": match,
                "seats": table_seats,
                "seats_a": [s for s in table_seats if s.side == SIDE_A],
                "seats_b": [s for s in table_seats if s.side != SIDE_A],
                "deals": played,
                # the sides' scores so far (a game whose sides score nothing has none)
                "running_a": sum(t.score_a or 0 for t in played),
                "running_b": sum(t.score_b or 0 for t in played),
                "finished": match.is_complete,
            }
        )
    return rows


def table_seats(match) -> dict[int, TableSeat]:
    """seat number -> seat of one table, with the players."""
    return {
        s.seat: s
        for s in TableSeat.objects.filter(table_id=match.table_id).select_related("player")
    }


def table_tallies(match) -> dict[int, DealTally]:
    """deal id -> tally, for one match."""
    return {t.deal_id: t for t in DealTally.objects.filter(match=match)}


def player_seats(event, player) -> list[TableSeat]:
    """A player's seats in the event's visible rounds, first round first."""
    return list(
        TableSeat.objects.filter(
            round__event=event, player=player, round__in=visibility.visible_rounds(event)
        )
        .select_related("round", "table", "union")
        .order_by("round__number")
    )


def seat_tallies(seat) -> list[DealTally]:
    """The tallies of the table a seat was at, deal 1 first."""
    return list(
        DealTally.objects.filter(match__table=seat.table_id)
        .select_related("deal")
        .order_by("deal__number")
    )


def public_table(match, visible: bool) -> PublicTable:
    """What a table's public page shows, read for the game's `public_table`."""
    if not visible:
        return PublicTable(seats=table_seats(match), visible=False)
    return PublicTable(
        seats=table_seats(match),
        visible=True,
        tallies=table_tallies(match),
        logged=deals_with_play_log(match),
    )


def played_seats(seats: list[TableSeat]) -> list[PlayedSeat]:
    """A player's seats (`player_seats`) with their tables' tallies where results are visible,
    for the game's `public_player`."""
    played = []
    for seat in seats:
        visible = visibility.results_visible(seat.round)
        played.append(PlayedSeat(seat, visible, seat_tallies(seat) if visible else []))
    return played


# --- a table's state: one definition for the referee pages, the dashboard and the API ----------

#: in the order the dashboard counts them
TABLE_STATES = ("waiting", "reported", "confirmed", "disputed")

#: One wording for each state on every page (the referee's phone, the organiser's pages, the
#: public pages) and in the API (`state_label`), A deal on the table's phone is being
#: entered, kept on the phone while offline, or sent; its report is then pending, final or
#: disputed. A table takes the words of its most pressing deal: `TABLE_STATE_AS_DEAL`.
STATE_WORDS = {
    "entering": _("录入中"),
    "queued": _("未联网：已存在手机上，联网后自动发送"),
    "sent": _("已发送"),
    "pending": _("已提交，等待确认"),
    "final": _("已确认"),
    "disputed": _("有争议，等待组织者裁决"),
    "superseded": _("已被取代"),
    "rejected": _("已驳回"),
    "waiting": _("等待录入"),
}
TABLE_STATE_AS_DEAL = {
    "waiting": "waiting",
    "reported": "pending",
    "confirmed": "final",
    "disputed": "disputed",
}


def state_label(state: str) -> str:
    """The words for a deal's, a report's or a table's state in the active language."""
    words = STATE_WORDS.get(TABLE_STATE_AS_DEAL.get(state, state))
    return str(words) if words is not None else state


def state_from_counts(counts: Counter, deals_to_play: int) -> str:
    """disputed: a report waits for the organiser; reported: a report waits for confirmation;
    confirmed: every deal the match plays is final; waiting: deals still to be reported."""
    if counts[DealReport.State.DISPUTED]:
        return "disputed"
    if counts[DealReport.State.PENDING]:
        return "reported"
    if counts[DealReport.State.FINAL] >= deals_to_play:
        return "confirmed"
    return "waiting"


def table_states(matches) -> dict[int, dict]:
    """match id -> {"state", "final", "pending"} for these matches, in two queries."""
    matches = list(matches)
    counts: dict[int, Counter] = defaultdict(Counter)
    for match_id, state in DealReport.objects.filter(deal__match__in=matches).values_list(
        "deal__match_id", "state"
    ):
        counts[match_id][state] += 1
    deal_rows = dict(
        Deal.objects.filter(match__in=matches)
        .order_by()
        .values("match_id")
        .annotate(n=Count("id"))
        .values_list("match_id", "n")
    )
    found = {}
    for match in matches:
        to_play = max(match.round.event.deals_per_match, deal_rows.get(match.pk, 0))
        tally = counts[match.pk]
        state = state_from_counts(tally, to_play)
        if match.forfeit or (match.stopped_after is not None and match.is_complete):
            # Decided without all its deals: a forfeit, or a stop by time.
            state = "confirmed"
        found[match.pk] = {
            "state": state,
            "final": tally[DealReport.State.FINAL],
            "pending": tally[DealReport.State.PENDING],
        }
    return found


def table_state(table) -> str:
    """The state of one table (see `state_from_counts`); waiting while it has no match."""
    match = getattr(table, "match", None)
    if match is None:
        return "waiting"
    return table_states([match])[match.pk]["state"]


# --- the deal viewer ------------------------------------------------------------------------------


def viewer_report(report_id: int, **scope) -> DealReport | None:
    """A report with a play log, within `scope` (e.g. `deal__match__table=table`), or None."""
    return (
        DealReport.objects.filter(pk=report_id, play_log__isnull=False, **scope)
        .select_related("deal__match__round__event", "deal__match__table")
        .first()
    )


def final_report(match, number: int) -> DealReport | None:
    """The final report of deal `number` of `match`, or None."""
    return (
        DealReport.objects.final()
        .filter(deal__match=match, deal__number=number)
        .select_related("deal")
        .first()
    )


def deal_reports(deal) -> list[DealReport]:
    """Every report of a deal, oldest first."""
    return list(DealReport.objects.filter(deal=deal).order_by("created_at", "id"))


def deals_with_play_log(match) -> set[int]:
    """Numbers of the match's deals whose final report carries a play log."""
    return set(
        DealReport.objects.final()
        .filter(deal__match=match, play_log__isnull=False)
        .values_list("deal__number", flat=True)
    )
