"""Refusals of the results service in the request's language.

The service raises `ResultError` with a stable code and an English message; the engine's errors
(`errors`) carry their game's codes. Pages and the API show `localized(exc, adapter)`: the
shared refusals below, and each engine error from its game's catalogue
(`matches/games/<game>/messages.py`, reached through the adapter)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

REFUSALS = {
    "wrong_pin": _("队长密码不对。"),
    "pin_locked": _("队长密码错误次数过多，请稍后再试，或请组织者确认。"),
    "permission_denied": _("你无权确认这份成绩。"),
    "not_pending": _("这份成绩已不在等待确认。"),
    "round_closed": _("本轮已结束，只有组织者可以更正成绩。"),
    "no_confirmation": _("本赛事的成绩无需确认。"),
    "bad_side": _("请说明是哪一方的队长。"),
    "bad_reason": _("请选择异议原因。"),
    "deal_disputed": _("本局有争议，由组织者裁决。"),
    "already_final": _("本局已有生效的成绩，只有组织者可以更正。"),
    "previous_deal_open": _("上一局的成绩尚未生效：先确认上一局。"),
}


def localized(exc, adapter=None) -> dict:
    """`exc.as_dict()` with `message` (and each engine error's) in the active language; the
    service's English text stays in `detail`."""
    data = exc.as_dict()
    if exc.errors and adapter is not None:
        data["errors"] = adapter.describe_errors(exc.errors)
        first = data["errors"][0]["message"]
        more = len(data["errors"]) - 1
        data["detail"], data["message"] = exc.message, first if not more else f"{first} (+{more})"
    elif exc.code in REFUSALS:
        data["detail"], data["message"] = exc.message, str(REFUSALS[exc.code])
    return data
