"""The one place where draws become database rows: create, re-draw, publish, close.

The pairing itself is done by the pure engine in `matches.kernel.pairing`; `history` reads the event
into plain values; a round is drawn by its game's own seating or by the shared draw of two
unions a table (`union_tables.py`), its tables, matches and seats written with an audit record
(`RoundLog`) in one transaction.

Beside it: `refusals.py` (`SeatingRefused`, `require_draft`), `hand_swaps.py` (the draft's hand
edits), `explanations.py` (why each table is drawn as it is), `control.py` (draft edits) and
`late.py` (late changes).
"""

from __future__ import annotations

import random
from collections import defaultdict

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from matches import signals
from matches.draw import entrants, stages
from matches.draw.refusals import SeatingRefused, require_draft, seating_reason
from matches.draw.union_tables import draw_union_tables
from matches.kernel import punctuation
from matches.kernel.games.registry import adapter_for
from matches.kernel.pairing.types import SeatingError
from matches.models import Match, MatchSide, Round, RoundLog, Stage, Table, TableSeat, Union
from matches.store import chain


def _new_seed() -> int:
    return random.SystemRandom().randrange(1, 2**62)


@transaction.atomic
def create_round(
    stage: Stage, *, user=None, seed: int | None = None, silent: bool = False
) -> Round:
    """Draw the next round of `stage` as a draft. Every earlier round must be closed."""
    event = stage.event
    if event.rounds.exclude(state=Round.State.CLOSED).exists():
        raise SeatingRefused(_("上一轮尚未结束，不能编排新一轮"))
    number = (event.rounds.aggregate(last=Max("number"))["last"] or 0) + 1
    stage_round = stage.rounds.count() + 1
    if stage.planned_rounds and stage_round > stage.planned_rounds:
        raise SeatingRefused(_("本阶段的轮次已全部编排"))
    if stages.needs_break(stage):
        raise SeatingRefused(stages.break_refusal())
    round_ = Round.objects.create(
        event=event,
        stage=stage,
        number=number,
        stage_round=stage_round,
        seed=_new_seed() if seed is None else seed,
        silent=silent,
    )
    _draw_into(round_)
    RoundLog.objects.create(
        round=round_,
        action=RoundLog.Action.DRAW,
        user=user,
        details={"seed": round_.seed, "quality": round_.quality},
    )
    return round_


@transaction.atomic
def redraw_round(round_: Round, *, user=None, seed: int | None = None) -> Round:
    """Throw away a draft draw (and any swaps) and draw again, from a new seed by default.
    Entries that arrived while the round was a draft and are checked in for it join it."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if not round_.is_draft:
        raise SeatingRefused(_("已公布的轮次不能重新编排"))
    admitted = entrants.admit_to_draft(round_)
    old_seed = round_.seed
    clear_round(round_)
    round_.seed = _new_seed() if seed is None else seed
    round_.save(update_fields=["seed"])
    _draw_into(round_)
    RoundLog.objects.create(
        round=round_,
        action=RoundLog.Action.REDRAW,
        user=user,
        details={
            "old_seed": old_seed,
            "seed": round_.seed,
            "quality": round_.quality,
            **({"admitted": admitted} if admitted else {}),
        },
    )
    return round_


def clear_round(round_: Round) -> None:
    """Delete a round's drawn rows (seats, sides, matches, tables, its unions), as a redraw, a
    deleted draft and a deleted event do; the round row itself stays."""
    TableSeat.objects.filter(round=round_).delete()
    MatchSide.objects.filter(round=round_).delete()
    Match.objects.filter(round=round_).delete()
    Table.objects.filter(round=round_).delete()
    Union.objects.filter(round=round_).delete()


def _draw_into(round_: Round) -> None:
    """The game's own seating when it has one (it gets the round's field and writes its rows
    through `matches.kernel.draw_rows`), else the shared draw of two unions a table."""
    adapter = adapter_for(round_.event)
    try:
        if adapter.seats_own_tables:
            adapter.draw_round(round_, entrants.active_registrations(round_.event, round_.number))
        else:
            draw_union_tables(round_)
    except SeatingError as error:
        raise SeatingRefused(seating_reason(error)) from error


@transaction.atomic
def publish_round(round_: Round, *, user=None) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    require_draft(round_)
    problems = check_round(round_)
    if problems:
        raise SeatingRefused(punctuation.clauses(problems))
    round_.state = Round.State.PUBLISHED
    round_.published_at = timezone.now()
    round_.published_by = user if user is not None and user.is_authenticated else None
    round_.save(update_fields=["state", "published_at", "published_by"])
    chain.sync_byes(round_)  # a bye is a result: in the event's result chain
    RoundLog.objects.create(round=round_, action=RoundLog.Action.PUBLISH, user=round_.published_by)
    signals.announce_round_change(round_, signals.PUBLISHED)
    return round_


@transaction.atomic
def close_round(round_: Round, *, user=None) -> Round:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.state != Round.State.PUBLISHED:
        raise SeatingRefused(_("只能结束已公布的轮次"))
    missing = unfinished_tables(round_)
    if missing:
        raise SeatingRefused(
            _("以下牌桌尚无最终成绩：%(tables)s")
            % {"tables": punctuation.listed(_("第 %(n)s 桌") % {"n": n} for n in missing)}
        )
    round_.state = Round.State.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["state", "closed_at"])
    RoundLog.objects.create(round=round_, action=RoundLog.Action.CLOSE, user=user)
    signals.announce_round_change(round_, signals.CLOSED)
    return round_


def unfinished_tables(round_: Round) -> list[int]:
    """Table numbers of the round's matches without a final result, in table order."""
    return list(
        round_.matches.unfinished()
        .order_by("table__number")
        .values_list("table__number", flat=True)
    )


def check_round(round_: Round) -> list[str]:
    """What the database cannot refuse by itself: every table full, and the game's own seat
    rules (`seat_problems`: Gou Ji's unions on alternate seats)."""
    problems = []
    adapter = adapter_for(round_.event)
    seats = defaultdict(list)
    for seat in TableSeat.objects.filter(round=round_):
        seats[seat.table_id].append(seat)
    for match in round_.matches.with_sides().select_related("table"):
        if match.is_bye:
            continue
        table_seats = seats[match.table_id]
        if not adapter.table_is_full(round_.event, sorted(s.seat for s in table_seats)):
            problems.append(_("第 %(n)s 桌座位不全") % {"n": match.table.number})
        problems += adapter.seat_problems(match, table_seats)
    return problems
