"""Giog's rule messages in the page's language, keyed by the engine's codes (see
matches/games/gouji/messages.py; tests/games/test_messages.py checks every engine code)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

RULE_NAMES: dict = {}

MESSAGES = {
    # outcome: a hand's summary
    "won_total": _("各家赢子之和须等于在场棋子数"),
    "not_whole_tricks": _("赢子数须是人数的整数倍（每墩每家出子相同）"),
    "missing_seat": _("每个座位都须填赢子数（没有赢子填 0）"),
    "negative_won": _("赢子数不能为负"),
    "too_many_beheaded": _("只有两只将帅，最多两人被斩首"),
    "duplicate_beheaded": _("同一座位重复斩首"),
    # record and play: a hand's record
    "empty_hand": _("开局时这个座位没有棋子"),
    "empty_play": _("首出不能不出子"),
    "hand_over": _("本手已结束：在场的棋子都已出完"),
    "hand_size": _("每家的棋子数与人数不符"),
    "must_compete": _("须跟出同样多的棋子"),
    "not_a_combination": _("首出须是同色的 Liab、Dui、Giog 或 Mui"),
    "not_in_hand": _("出的棋子不在手中"),
    "out_of_turn": _("还没轮到这个座位出子"),
    "out_size": _("不参加的棋子数与人数不符"),
    "size_mismatch": _("跟出的棋子数须与首出相同"),
    "too_many_pieces": _("某种棋子超过整副的数量"),
    "unequal_hands": _("各家棋子数须相同"),
    # the service and the form
    "players_mismatch": _("人数与本桌座位数不符"),
    "play_log_mismatch": _("成绩与手谱回放不符"),
    "hand_incomplete": _("手谱未打完"),
    "bad_won": _("赢子数须为整数"),
}
