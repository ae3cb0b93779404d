"""Which stage the next round belongs to: the first stage that is not finished.

A stage is finished when all its planned rounds are drawn, when a later stage has begun, or (a
knockout) when its last round was the final. The dashboard preselects this stage and a draw
posted without a stage draws it, so the defaults never skip a Swiss stage.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from matches.models import Event, Round, Stage


def _finished(stage: Stage, rounds: list[Round]) -> bool:
    if stage.planned_rounds and len(rounds) >= stage.planned_rounds:
        return True
    if stage.format == Stage.Format.SINGLE_ELIMINATION and rounds:
        last = rounds[-1]
        tables = last.matches.filter(union_b__isnull=False).count()
        return last.state == Round.State.CLOSED and tables <= 1
    return False


def next_stage(event: Event) -> Stage | None:
    """The first unfinished stage at or after the stage of the latest round (None: all done)."""
    stages = list(event.stages.order_by("order"))
    rounds = list(event.rounds.order_by("number"))
    by_stage = {stage.pk: [r for r in rounds if r.stage_id == stage.pk] for stage in stages}
    begun = [k for k, stage in enumerate(stages) if by_stage[stage.pk]]
    start = begun[-1] if begun else 0
    for stage in stages[start:]:
        if not _finished(stage, by_stage[stage.pk]):
            return stage
    return None


def needs_break(stage: Stage) -> bool:
    """A knockout that follows another stage is seeded by a confirmed break, nothing else."""
    return (
        stage.format == Stage.Format.SINGLE_ELIMINATION
        and not stage.break_unions
        and not stage.rounds.exists()
        and stage.event.stages.filter(order__lt=stage.order).exists()
    )


def break_refusal() -> str:
    return _("淘汰赛须先确认晋级名单：请先在“晋级淘汰赛”页确认，再编排")
