"""Gou Ji's rule messages in the page's language, keyed by the engine's codes.

The engine (pure, English) returns `{"rule", "code", "message"}`; pages and the API show
`MESSAGES[code]` translated into the request's language (zh-hans msgids, English in
locale/en). tests/games/test_messages.py fails when an engine code has no entry here.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

#: Short names of the rules a report can break.
RULE_NAMES = {
    "R20": _("开点"),
    "R21": _("烧牌"),
    "R22": _("烧牌与反烧"),
    "R23": _("无头"),
    "R27": _("闷"),
    "R29": _("革命"),
    "R30": _("名次"),
    "R34": _("宣点"),
    "R35": _("点贡"),
    "D11": _("革命时对头自动开点"),
}

MESSAGES = {
    # settle: a summary of a deal
    "finish_not_permutation": _("出完顺序须包含全部六个座位，每个座位一次"),
    "revolution_disabled": _("本赛事规则不允许革命"),
    "revolution_not_allowed": _("手中有2或王的座位不能革命"),
    "two_revolutions": _("两家以上革命：此局作废重发"),
    "revolutionary_played": _("革命者不出牌，不能烧、被烧或闷人"),
    "revolutionary_point": _("革命者不能开点"),
    "revolution_place": _("革命者的名次不对"),
    "special_not_allowed": _("本赛事规则不允许特殊宣点"),
    "special_failed_undeclared": _("只有宣布特点的座位才能标为特点失败"),
    "false_burner_out": _("诈烧者立即出局，不能再烧或被烧"),
    "burn_self": _("不能烧自己"),
    "burn_by_head_rival": _("对头不能烧"),
    "burn_without_point": _("烧牌须先开点"),
    "burn_requires_point": _("烧牌须先开点"),
    "burner_not_top_two": _("够级生效时烧牌者出完只能是第一或第二名，不能落在后面"),
    "counter_without_burn": _("反烧须对应一次被中断的烧牌"),
    "burned_finished_first": _("被烧者不能先于烧牌者出完"),
    "suffocation_without_hold_three": _("闷须有人憋三"),
    "suffocated_self": _("不能闷自己"),
    "suffocated_twice": _("同一座位只能被闷一次"),
    "hold_three": _("憋三：手中的3须留作最后一手，且不能带别的牌"),
    "hold_four": _("憋四：手中的4须按规则留到最后"),
    "unsupported": _("按本赛事规则暂不支持回放这种革命"),
    # replay: a play log
    "bad_cards": _("牌的写法不对"),
    "bad_leader": _("首家不对"),
    "bad_seat": _("座位号不对"),
    "cards_not_held": _("出的牌不在手中"),
    "deal_over": _("本局已结束，不能再出牌"),
    "does_not_beat": _("出的牌管不上桌上的牌"),
    "empty_hand": _("开局时这个座位没有牌"),
    "must_lead": _("首出的座位必须出牌"),
    "not_a_hand": _("这不是一手合法的牌型"),
    "not_your_turn": _("还没轮到这个座位出牌"),
    "passed_may_not_burn": _("本圈已经不要的座位不能烧牌"),
    "already_passed": _("这个座位本轮已经不要了"),
    "already_yielded": _("对头每手最多让一次"),
    "no_yield": _("应答最后一手牌时不能让"),
    "yield_not_head_rival": _("只有出牌者的对头可以让牌"),
    "seat_out": _("这个座位已经出完"),
    "size_mismatch": _("出的张数与桌上这手牌不同"),
    "too_many_cards": _("某种牌发出的张数超过整副牌"),
    "uneven_deal": _("发牌后各座位的张数须相同"),
    # the service and the form
    "play_log_mismatch": _("成绩与牌谱回放不符"),
    "play_log_incomplete": _("牌谱未打完"),
    "incomplete_row": _("有一行未填完整"),
}
