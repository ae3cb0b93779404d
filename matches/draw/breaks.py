"""The break: the best N unions after round K go on to a knockout stage.

The standings are the event's own (its tie-break order, `matches.standings.service.union_rows`);
withdrawn unions are left out. `propose_break` shows the cut before anything is written,
including unions tied with the last one in (equal on every tie-break: the organiser sees it);
`confirm_break` creates the knockout stage with that field in seed order, and the knockout
draw (`service._draw_knockout`) seeds from it: 1 v N, 2 v N-1, ...; tied knockout matches get
extra deals (`standings.service._write_match_result`).
"""

from __future__ import annotations

import math

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from matches.draw.service import SeatingRefused
from matches.models import Registration, Round, RoundLog, Stage
from matches.standings.service import union_rows


def _closed_rounds(event, after_round: int) -> list[Round]:
    return list(
        event.rounds.filter(number__lte=after_round, state=Round.State.CLOSED).order_by("number")
    )


def propose_break(event, size: int, after_round: int | None = None) -> dict:
    """The break as it would be: {"after_round", "size", "rows" (every ranked union, with
    `in_break`), "tied_at_cut" (union ids tied with the last one in but left out), "withdrawn"
    (names of withdrawn unions, not in the break; their ranks stay as the standings have them)}."""
    if not event.is_team:
        raise SeatingRefused(_("晋级名单只用于团体赛"))
    if size < 2:
        raise SeatingRefused(_("晋级名额至少为 2"))
    last_closed = event.rounds.filter(state=Round.State.CLOSED).aggregate(n=Max("number"))["n"]
    if last_closed is None:
        raise SeatingRefused(_("还没有结束的轮次"))
    after_round = after_round or last_closed
    rounds = _closed_rounds(event, after_round)
    if not rounds or rounds[-1].number != after_round:
        raise SeatingRefused(_("第 %(n)s 轮尚未结束") % {"n": after_round})
    withdrawn = set(
        Registration.objects.filter(event=event, status=Registration.Status.WITHDRAWN).values_list(
            "union_id", flat=True
        )
    )
    ranked = union_rows(event, rounds)
    rows = [r for r in ranked if r["union"] not in withdrawn]
    left_out = [r["name"] for r in ranked if r["union"] in withdrawn]
    if size > len(rows):
        raise SeatingRefused(_("晋级名额多于参赛联邦数"))
    cut_rank = rows[size - 1]["rank"]
    tied_out = [r["union"] for r in rows[size:] if r["rank"] == cut_rank]
    for index, row in enumerate(rows):
        row["in_break"] = index < size
        row["tied"] = bool(tied_out) and row["rank"] == cut_rank
    return {
        "after_round": after_round,
        "size": size,
        "rows": rows,
        "tied_at_cut": tied_out,
        "withdrawn": left_out,
    }


@transaction.atomic
def confirm_break(
    event, size: int, after_round: int | None = None, *, name: str = "", user=None
) -> Stage:
    """Create the knockout stage with the proposed break (the unions listed first on a tie at
    the cut are the ones in, by the event's last tie-break, seed)."""
    if event.rounds.exclude(state=Round.State.CLOSED).exists():
        raise SeatingRefused(_("上一轮尚未结束，不能编排新一轮"))
    proposal = propose_break(event, size, after_round)
    seeds = [r["union"] for r in proposal["rows"] if r["in_break"]]
    order = (event.stages.aggregate(n=Max("order"))["n"] or 0) + 1
    stage = Stage.objects.create(
        event=event,
        order=order,
        name=name,  # blank: shown as the format's name in the page's language (Stage.label)
        format=Stage.Format.SINGLE_ELIMINATION,
        qualifiers=size,
        planned_rounds=max(1, math.ceil(math.log2(size))),
        break_unions=seeds,
    )
    last = event.rounds.get(number=proposal["after_round"])
    RoundLog.objects.create(
        round=last,
        action=RoundLog.Action.BREAK,
        user=user,
        details={
            "stage": stage.pk,
            "size": size,
            "unions": seeds,
            "tied_at_cut": proposal["tied_at_cut"],
        },
    )
    return stage
