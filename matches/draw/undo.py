"""Undoing a round step: delete a draft, reopen the last closed round.

Both are written to the audit log (`RoundLog`): a deleted draft's entry keeps the event and the
round's number, seed and stage in its details (the round row itself is gone). Reopening needs a
reason and sends `round_changed`, so standings are recomputed as after closing.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from matches import signals
from matches.draw.refusals import SeatingRefused
from matches.draw.service import clear_round
from matches.models import Round, RoundLog


@transaction.atomic
def delete_draft(round_: Round, *, user=None) -> int:
    """Delete a draft round with its tables and seats; returns its number (the next draw takes
    it again). Published and closed rounds are never deleted."""
    round_ = Round.objects.select_for_update().select_related("stage").get(pk=round_.pk)
    if not round_.is_draft:
        raise SeatingRefused(_("只能删除草稿轮次；已公布的轮次请先撤回公布"))
    number = round_.number
    RoundLog.objects.create(
        round=round_,
        event_id=round_.event_id,
        action=RoundLog.Action.DELETE_DRAFT,
        user=user,
        details={
            "number": number,
            "stage": round_.stage_id,
            "stage_round": round_.stage_round,
            "seed": round_.seed,
            "placed": list(round_.sides.exclude(union=None).values_list("union_id", flat=True)),
        },
    )
    clear_round(round_)
    round_.delete()  # its log entries stay, with the event (RoundLog.round is set to null)
    return number


@transaction.atomic
def reopen_round(round_: Round, *, reason: str, user=None) -> Round:
    """The last closed round is open again (published): results can be corrected, then it is
    closed again. Refused when a later round exists or without a reason."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    reason = (reason or "").strip()
    if round_.state != Round.State.CLOSED:
        raise SeatingRefused(_("只能重新开启已结束的轮次"))
    later = round_.event.rounds.filter(number__gt=round_.number).order_by("number").first()
    if later is not None:
        if later.is_draft:
            raise SeatingRefused(
                _("第 %(n)s 轮已有草稿：请先删除草稿，再重新开启第 %(m)s 轮")
                % {"n": later.number, "m": round_.number}
            )
        raise SeatingRefused(_("只能重新开启最后一轮"))
    if not reason:
        raise SeatingRefused(_("请填写重新开启的原因"))
    closed_at = round_.closed_at
    round_.state = Round.State.PUBLISHED
    round_.closed_at = None
    round_.save(update_fields=["state", "closed_at"])
    RoundLog.objects.create(
        round=round_,
        action=RoundLog.Action.REOPEN,
        user=user,
        details={"reason": reason, "closed_at": closed_at.isoformat() if closed_at else None},
    )
    signals.announce_round_change(round_, signals.REOPENED)
    return round_
