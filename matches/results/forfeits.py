"""Results that are not played out: forfeits (a table or a union that did not turn up) and
matches stopped by time. The scores come from the event's settings through the standings
service (`forfeit_result`, `deals_that_count`); this module records the decision, audits it
and settles the match again.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from matches import signals
from matches.draw.refusals import SeatingRefused
from matches.models import DealReport, Match, Round, RoundLog, Union
from matches.standings import service as standings
from matches.store import chain

FORFEIT_SIDES = ("A", "B", "both")


def _open_match(match: Match) -> Match:
    match = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event", "table")
        .order_by("pk")
        .get(pk=match.pk)
    )
    if match.is_bye:
        raise SeatingRefused(_("轮空没有对局可判"))
    if match.round.state != Round.State.PUBLISHED:
        raise SeatingRefused(_("只能在已公布、未结束的轮次里判定"))
    return match


@transaction.atomic
def award_forfeit(match: Match, side: str, *, user=None) -> Match:
    """`side` ("A", "B" or "both") did not play: the match takes the event's forfeit result.
    A table with a final deal keeps its results: correct those instead."""
    if side not in FORFEIT_SIDES:
        raise SeatingRefused(_("请选择弃权的一方"))
    match = _open_match(match)
    if not match.union_sides:
        # A forfeit's result is a union side's (A, B or both); a game whose sides are players
        # has none to give.
        raise SeatingRefused(_("本桌没有可判弃权的联邦"))
    if DealReport.objects.final().filter(deal__match=match).exists():
        raise SeatingRefused(_("本桌已有最终成绩，不能判弃权"))
    match.forfeit = side
    match.save(update_fields=["forfeit"])
    standings.settle_match(match.pk)
    # Late in the transaction: the chain's head stays taken until commit.
    chain.append_forfeit(match)
    RoundLog.objects.create(
        round=match.round,
        action=RoundLog.Action.FORFEIT,
        user=user,
        details={
            "table": match.table.number if match.table else None,
            "forfeit": side,
            "unions": [match.union_a_id, match.union_b_id],
        },
    )
    signals.announce_round_change(match.round, signals.RESULTS)
    return match


@transaction.atomic
def union_no_show(round_: Round, union: Union, *, user=None) -> Match:
    """A union did not turn up for its table in `round_`: its match is forfeited by it."""
    match = round_.matches.played().involving(union).first()
    if match is None:
        raise SeatingRefused(_("联邦本轮没有对局"))
    return award_forfeit(match, "A" if match.union_a_id == union.pk else "B", user=user)


@transaction.atomic
def clear_forfeit(match: Match, *, user=None) -> Match:
    match = _open_match(match)
    if not match.forfeit:
        raise SeatingRefused(_("本桌没有弃权"))
    was = match.forfeit
    match.forfeit = ""
    match.save(update_fields=["forfeit"])
    Match.objects.filter(pk=match.pk).update(
        score_a=None, score_b=None, points_a=None, points_b=None
    )
    standings.settle_match(match.pk)
    chain.append_forfeit(match)  # a forfeit is a result too: chained
    RoundLog.objects.create(
        round=match.round,
        action=RoundLog.Action.FORFEIT,
        user=user,
        details={"table": match.table.number if match.table else None, "forfeit": "", "was": was},
    )
    signals.announce_round_change(match.round, signals.RESULTS)
    return match


@transaction.atomic
def stop_by_time(match: Match, after_deals: int, *, user=None) -> Match:
    """Time ran out after `after_deals` deals: the match is scored from those deals (when the
    event scores stopped matches; it has its result once they are all final)."""
    match = _open_match(match)
    event = match.round.event
    if not event.score_stopped_matches:
        raise SeatingRefused(_("本赛事未设置超时中止按已打局计分"))
    if not 1 <= after_deals <= event.deals_per_match:
        raise SeatingRefused(_("局数须在 1 到 %(n)s 之间") % {"n": event.deals_per_match})
    match.stopped_after = after_deals
    match.save(update_fields=["stopped_after"])
    standings.settle_match(match.pk)
    chain.append_stop(match)  # late in the transaction, as a forfeit's
    RoundLog.objects.create(
        round=match.round,
        action=RoundLog.Action.STOPPED,
        user=user,
        details={"table": match.table.number if match.table else None, "after_deals": after_deals},
    )
    signals.announce_round_change(match.round, signals.RESULTS)
    return match
