"""Refusals of the results service in the request's language.

The service raises `ResultError` with a stable code, an English message and the message's
numbers (`params`); the engine's errors (`errors`) carry their game's codes. Pages and the API
show `localized(exc, adapter)` / `refusal(exc)`: the shared refusals below, with their numbers
filled in, and each engine error from its game's catalogue (`matches/games/<game>/messages.py`,
reached through the adapter). tests/games/test_messages.py checks that every code the service
raises has a message here in zh-hans and in English.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from matches.kernel.games.adapter import fill

REFUSALS = {
    "wrong_pin": _("队长密码不对。"),
    "wrong_player_pin": _("选手密码不对。"),
    "player_favoured": _(
        "这份成绩对第 %(seats)s 座有利，这些座位的选手不能确认：请第 %(others)s 座的选手输入密码。"
    ),
    "player_reported": _(
        "第 %(seat)s 座的选手自己报了这份成绩，不能再确认：请第 %(others)s 座的选手输入密码。"
    ),
    # Who can help, as the table phone's lock note says it (templates/referee/_pin_confirm.html).
    "pin_locked": _(
        "队长密码输错太多次，已锁定 %(minutes)s 分钟。本桌裁判或组织者可以解锁，裁判也可以代队长确认。"
    ),
    "player_pin_locked": _(
        "这名选手的密码输错太多次，已锁定 %(minutes)s 分钟。同桌其他可以确认的选手可以确认，"
        "组织者也可以在“待处理的成绩”中确认本桌的成绩。"
    ),
    "permission_denied": _("你无权这样做。"),
    "permission_denied:enter": _("你不是这张牌桌的裁判，不能提交成绩。"),
    "permission_denied:confirm": _("你无权确认这份成绩。"),
    "permission_denied:correct": _("只有本赛事的组织者可以更正成绩。"),
    "permission_denied:decide": _("只有本赛事的组织者可以裁决成绩。"),
    "permission_denied:recheck": _("只有本赛事的组织者可以复核成绩。"),
    "not_pending": _("这份成绩已不在等待确认。"),
    "not_found": _("没有这份成绩。"),
    "round_closed": _("本轮已结束，只有组织者可以更正成绩。"),
    "round_not_published": _("本轮还没有公布。"),
    "no_confirmation": _("本赛事的成绩无需确认。"),
    "bad_side": _("请说明是哪一方的队长。"),
    "bad_reason": _("请选择异议原因。"),
    "deal_disputed": _("第 %(n)s 局有争议，由组织者裁决。"),
    "already_final": _("本局已有生效的成绩，只有组织者可以更正。"),
    "previous_deal_open": _("第 %(previous)s 局尚无成绩或有争议：先报第 %(previous)s 局。"),
    "no_such_deal": _("没有第 %(n)s 局。"),
    # A feature table's play, entered action by action (matches/results/live.py).
    "not_featured": _("这张牌桌不是直播桌。"),
    "no_live_play": _("这个游戏不能逐手直播。"),
    "malformed": _("发送的数据格式不对。"),
    "deal_started": _("本局已录入出牌，手牌不能再改。"),
    "no_hands": _("请先录入第 %(n)s 局的手牌。"),
    "seq_taken": _("第 %(seq)s 步已录入为另一个动作。"),
    "deal_over": _("本局已结束，不能再录入出牌。"),
    "out_of_order": _("第 %(seq)s 步来早了：应先录入第 %(expected)s 步。"),
    "already_reported": _("本局成绩已提交：请改用更正。"),
    "tributes_unknown": _("上一局在这里还没有打完，不知道应进的贡：请录入进贡之后的手牌。"),
    "has_hands": _("录入了手牌的一局由规则引擎判定何时结束。"),
    "finish_contradicts": _("名次须从出牌中已出完的座位开始（%(finish)s）。"),
    "bad_note": _("解说一行须为 1 到 %(most)s 个字。"),
    "deal_gone": _("这一局已不存在（本轮可能已重新编排），请重新打开本桌。"),
    "table_gone": _("这张牌桌已不存在（本轮可能已重新编排），请重新打开本桌。"),
    "reason_required": _("更正成绩须写明原因。"),
    "same_as_report": _(
        "新的成绩与待裁决的报告完全相同：若原报告无误，请按“维持原报告”；否则改正不同之处。"
    ),
    "same_as_final": _("新的成绩与当前生效的成绩完全相同，没有可更正之处。"),
    "idempotency_key_reused": _("这个请求编号已用于本局的另一份提交，请换一个新编号再发。"),
    "bad_document": _("成绩或牌谱无法读取（%(detail)s）。"),
    "inconsistent_result": _("与规则不符，不能提交。"),
}


def refusal_text(code: str, params: dict | None = None, default: str = "") -> str:
    """The refusal `code` in the active language with its numbers filled in; `default` for a
    code without an entry."""
    params = params or {}
    text = REFUSALS.get(f"{code}:{params.get('action')}") or REFUSALS.get(code or "")
    return fill(str(text), params) if text is not None else default


def refusal(exc) -> str:
    """A `ResultError` in the active language (the service's English text for an unknown code);
    `%(detail)s` is the service's own text (where an unreadable document breaks, say)."""
    return refusal_text(exc.code, {"detail": exc.message, **exc.params}, exc.message)


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
        data["detail"], data["message"] = exc.message, refusal(exc)
    return data
