"""Giog's rule messages in the page's language, keyed by the engine's codes, with the error's
`params` filled in (see matches/games/gouji/messages.py; tests/games/test_messages.py checks
every engine code)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

RULE_NAMES = {
    "G1": _("整副棋子"),
    "G4": _("发子"),
    "G8": _("出子"),
    "G10": _("赢子与轮次"),
    "G11": _("名次"),
    "G12": _("斩首"),
}

MESSAGES = {
    # outcome: a hand's summary
    "won_total": _("各家赢子之和是 %(total)s，%(players)s 人对局在场的棋子是 %(in_play)s 个"),
    "not_whole_tricks": _(
        "%(seat)s 号座赢子 %(count)s 个，不是人数 %(players)s 的整数倍（每墩每家出子相同）"
    ),
    "missing_seat": _("%(seats)s 号座没有填赢子数（没有赢子填 0）"),
    "negative_won": _("%(seat)s 号座的赢子数（%(count)s）不能为负"),
    "too_many_beheaded": _("%(count)s 人被斩首，但只有两只将帅，最多两人被斩首"),
    "duplicate_beheaded": _("同一座位重复斩首"),
    # record and play: a hand's record
    "empty_hand": _("开局时 %(seat)s 号座没有棋子"),
    "empty_play": _("%(seat)s 号座首出，不能不出子"),
    "hand_over": _("本手已结束：在场的棋子都已出完"),
    "hand_size": _("%(seat)s 号座有 %(size)s 个棋子，这个人数每家应有 %(hand_size)s 个"),
    "must_compete": _("%(seat)s 号座有能管上的棋子，须跟出管上"),
    "not_a_combination": _("%(seat)s 号座首出的不是同色的 Liab、Dui、Giog 或 Mui"),
    "not_in_hand": _("%(seat)s 号座出的棋子不在手中"),
    "out_of_turn": _("还没轮到 %(seat)s 号座，该 %(turn)s 号座出子"),
    "out_size": _("%(players)s 人对局有 %(size)s 个棋子不参加，不是 %(given)s 个"),
    "size_mismatch": _("%(seat)s 号座跟出的棋子数（%(size)s）须与首出（%(lead)s）相同"),
    "too_many_pieces": _("某种棋子有 %(count)s 个，整副只有 %(limit)s 个"),
    "unequal_hands": _("各家棋子数须相同"),
    # the service and the form
    "players_mismatch": _("手谱是 %(players)s 人的，本桌有 %(seats)s 个座位"),
    "play_log_mismatch": _("成绩与手谱回放不符"),
    "hand_incomplete": _("手谱未打完"),
    "bad_won": _("%(seat)s 号座的赢子数须为整数"),
}
