"""The break: the best N unions after round K go on to the event's knockout stage.

The knockout stage is the one the wizard created (`break_stage`), and its size is the
wizard's `qualifiers`: confirming fills that stage's field (`Stage.break_unions`), it never
adds a second stage. The standings are the event's own (its tie-break order,
`union_rows`); withdrawn unions are left out. `propose_break` shows
the cut before anything is written: which unions are level on match points across the cut, the
tie-break that separated the last union in from the first union out, and for every union why it
is in or out. It lives with the standings because it is their cut; the draw reads only its result
(`Stage.break_unions`): the knockout draw (`matches.draw.union_tables`) seeds from the confirmed field;
tied knockout matches get extra deals (`standings.service._write_match_result`).
"""

from __future__ import annotations

import math

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from matches.models import Registration, Round, RoundLog, Stage
from matches.standings.service import union_rows


class BreakRefused(Exception):
    """The break cannot be proposed or confirmed now (the reason is the message)."""


#: The tie-breaks' names as the break explains them (`matches.models.event.TIE_BREAKS`).
CRITERION_LABELS = {
    "match_points": gettext_lazy("场分"),
    "score_difference": gettext_lazy("净胜分"),
    "opponents_match_points": gettext_lazy("对手分"),
    "head_to_head": gettext_lazy("相互胜负"),
    "deal_wins": gettext_lazy("胜局"),
    "strings_of_three": gettext_lazy("串三户"),
    "seed": gettext_lazy("种子序号"),
}


def knockout_stage(event) -> Stage | None:
    """The event's knockout stage: the first single-elimination stage (the wizard's)."""
    return event.stages.filter(format=Stage.Format.SINGLE_ELIMINATION).order_by("order").first()


def break_stage(event) -> Stage | None:
    """The stage the break fills: the knockout stage, else the wizard's later stage with
    qualifiers (a top-N round robin or Swiss), so that a break never adds a stage beside it."""
    return (
        knockout_stage(event)
        or event.stages.filter(order__gt=1, qualifiers__isnull=False).order_by("order").first()
    )


def default_size(event) -> int | None:
    """The size the wizard gave the break's stage (its qualifiers), if any."""
    stage = break_stage(event)
    return stage.qualifiers if stage is not None else None


def _closed_rounds(event, after_round: int) -> list[Round]:
    return list(
        event.rounds.filter(number__lte=after_round, state=Round.State.CLOSED).order_by("number")
    )


def _shown(criterion: str, value) -> str:
    if value is None:
        return "—"
    if criterion == "seed":
        return str(-value) if value > -(10**9) else "—"
    if criterion == "score_difference":
        return f"{value:+d}"
    return str(value)


def _first_difference(row: dict, other: dict, criteria: list[str]) -> str | None:
    """The first criterion, in the event's order, on which the ranking told the two apart."""
    for criterion in criteria:
        mine, theirs = row["compared"].get(criterion), other["compared"].get(criterion)
        if mine is None or theirs is None:
            continue
        if mine != theirs:
            return criterion
    return None


def _label(criterion: str, event) -> str:
    """A tie-break's name; the string column as the event's game names it (Gou Ji: 串三户, or
    串四户 at an eight-seat table, R47)."""
    if criterion == "strings_of_three" and event is not None:
        return str(event.adapter.strings_of_three_label(event))
    return str(CRITERION_LABELS[criterion])


def _reason(row: dict, other: dict | None, criteria: list[str], event=None) -> str:
    """Why `row` is in (compared with the first union out) or out (with the last union in)."""
    if other is None:
        return _("全部晋级")
    criterion = _first_difference(row, other, criteria)
    if criterion is None:
        return _("与 %(other)s 名次判定全部相同：按报名种子、名称排列") % {"other": other["name"]}
    values = {
        "label": _label(criterion, event),
        "mine": _shown(criterion, row["compared"][criterion]),
        "theirs": _shown(criterion, other["compared"][criterion]),
        "other": other["name"],
    }
    if row["in_break"]:
        return _("%(label)s %(mine)s，高于 %(other)s 的 %(theirs)s") % values
    return _("%(label)s %(mine)s，低于 %(other)s 的 %(theirs)s") % values


def propose_break(event, size: int | None = None, after_round: int | None = None) -> dict:
    """The break as it would be: {"stage" (the stage it fills, `break_stage`, or None), "after_round", "size",
    "rows" (every ranked union, with `in_break`, `tied` and `reason`), "tied_band" (ids of the
    unions level on match points across the cut), "decided_by" (the label of the tie-break that
    set the first union out below the last one in; "" when none had to), "tied_at_cut" (ids
    equal on every tie-break with the last one in but left out), "withdrawn" (names)}."""
    if not event.is_team:
        raise BreakRefused(_("晋级名单只用于团体赛"))
    stage = break_stage(event)
    if size is None:
        size = stage.qualifiers if stage is not None and stage.qualifiers else None
    if size is None:
        raise BreakRefused(_("请填写晋级名额"))
    if size < 2:
        raise BreakRefused(_("晋级名额至少为 2"))
    last_closed = event.rounds.filter(state=Round.State.CLOSED).aggregate(n=Max("number"))["n"]
    if last_closed is None:
        raise BreakRefused(_("还没有结束的轮次"))
    after_round = after_round or last_closed
    rounds = _closed_rounds(event, after_round)
    if not rounds or rounds[-1].number != after_round:
        raise BreakRefused(_("第 %(n)s 轮尚未结束") % {"n": after_round})
    withdrawn = set(
        Registration.objects.filter(event=event, status=Registration.Status.WITHDRAWN).values_list(
            "union_id", flat=True
        )
    )
    ranked = union_rows(event, rounds, with_reasons=True)
    rows = [r for r in ranked if r["union"] not in withdrawn]
    left_out = [r["name"] for r in ranked if r["union"] in withdrawn]
    if size > len(rows):
        raise BreakRefused(_("晋级名额多于参赛联邦数"))
    criteria = ["match_points"] + [c for c in (event.tie_breaks or []) if c != "match_points"]
    last_in = rows[size - 1]
    first_out = rows[size] if size < len(rows) else None
    cut_rank = last_in["rank"]
    tied_out = [r["union"] for r in rows[size:] if r["rank"] == cut_rank]
    band = []
    if first_out is not None and first_out["match_points"] == last_in["match_points"]:
        band = [r["union"] for r in rows if r["match_points"] == last_in["match_points"]]
    for index, row in enumerate(rows):
        row["in_break"] = index < size
        row["tied"] = bool(tied_out) and row["rank"] == cut_rank
        row["in_band"] = row["union"] in band
        row["reason"] = _reason(row, first_out if row["in_break"] else last_in, criteria, event)
    decided = ""
    if first_out is not None and band:
        criterion = _first_difference(first_out, last_in, criteria)
        decided = _label(criterion, event) if criterion else ""
    return {
        "stage": stage,
        "after_round": after_round,
        "size": size,
        "rows": rows,
        "tied_band": band,
        "decided_by": decided,
        "tied_at_cut": tied_out,
        "withdrawn": left_out,
    }


@transaction.atomic
def confirm_break(
    event, size: int | None = None, after_round: int | None = None, *, user=None
) -> Stage:
    """Fill the event's knockout stage with the proposed break, in seed order (on a tie on
    every tie-break the unions listed first, by seed then name, are the ones in).

    The wizard's stage is used (`break_stage`), and its size updated when the organiser chose
    another; only an event made without one gets a knockout stage here (its name is left blank: pages
    show the format's name in the reader's language)."""
    if event.rounds.exclude(state=Round.State.CLOSED).exists():
        raise BreakRefused(_("上一轮尚未结束，不能编排新一轮"))
    proposal = propose_break(event, size, after_round)
    size = proposal["size"]
    seeds = [r["union"] for r in proposal["rows"] if r["in_break"]]
    stage = proposal["stage"]
    if stage is not None and stage.rounds.exists():
        raise BreakRefused(_("淘汰赛已开始编排，不能再改晋级名单"))
    knockout_rounds = max(1, math.ceil(math.log2(size)))
    replaced: list = []  # a break confirmed before, now replaced (logged)
    if stage is None:
        order = (event.stages.aggregate(n=Max("order"))["n"] or 0) + 1
        stage = Stage.objects.create(
            event=event,
            order=order,
            format=Stage.Format.SINGLE_ELIMINATION,
            qualifiers=size,
            planned_rounds=knockout_rounds,
            break_unions=seeds,
        )
    else:
        replaced = list(stage.break_unions)
        stage.qualifiers, stage.break_unions = size, seeds
        if stage.format == Stage.Format.SINGLE_ELIMINATION:
            stage.planned_rounds = knockout_rounds  # a round-robin or Swiss stage keeps its own
        stage.save(update_fields=["qualifiers", "planned_rounds", "break_unions"])
    last = event.rounds.get(number=proposal["after_round"])
    RoundLog.objects.create(
        round=last,
        action=RoundLog.Action.BREAK,
        user=user,
        details={
            "stage": stage.pk,
            "size": size,
            "unions": seeds,
            "tied_band": proposal["tied_band"],
            "tied_at_cut": proposal["tied_at_cut"],
            **({"replaced": replaced} if replaced else {}),
        },
    )
    return stage
