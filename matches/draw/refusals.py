"""Why the draw refuses: `SeatingRefused` (its message is for the organiser), a failed pairing
worded in the organiser's language (`seating_reason`), and the guard of the draft edits
(`require_draft`). Every module of the draw raises these."""

from __future__ import annotations

from django.utils.translation import gettext as _

from matches.kernel.pairing.types import SeatingError
from matches.models import Round


class SeatingRefused(Exception):
    """The action is not allowed in the round's state or with these entrants."""


def seating_reason(error: SeatingError) -> str:
    """Why a draw failed, in the organiser's language (the pairing code speaks English)."""
    if error.code == "too_few":
        return _("参赛方太少，无法编排：至少需要 %(n)s 个（联邦或选手）") % {"n": error.at_least}
    if error.code == "entered_twice":
        return _("同一参赛方被重复编排，请检查报名与签到")
    if error.code == "unpairable":
        return _("无法在避免重复对阵的条件下编排本轮，请调整签到或赛制后重试")
    return _("无法编排本轮：%(reason)s") % {"reason": error}


def require_draft(round_: Round) -> None:
    if not round_.is_draft:
        raise SeatingRefused(_("只能在公布前调整编排"))
