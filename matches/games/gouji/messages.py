"""Gou Ji's rule messages in the page's language, keyed by the engine's codes.

The engine (pure, English) returns `{"rule", "code", "message", "params"?}`; pages and the API
show `MESSAGES[code]` translated into the request's language (zh-hans msgids, English in
locale/en) with the error's `params` (seats, places, burn numbers) filled in
(`GameAdapter.message`). tests/games/test_messages.py fails when an engine code has no entry
here, when an entry lacks a translation, or when it names a number some engine call does not
give.
"""

from __future__ import annotations

from typing import Any, Mapping

from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from matches.kernel.games.adapter import describe_error

#: Short names of the rules (and the project's decisions, D…) a report can break.
RULE_NAMES = {
    "R1": _("座位"),
    "R3": _("整副牌"),
    "R5": _("牌的写法"),
    "R6": _("牌型"),
    "R9": _("张数"),
    "R10": _("大小"),
    "R11": pgettext_lazy("rule name", "小王"),
    "R12": pgettext_lazy("rule name", "大王"),
    "R15": _("出牌顺序"),
    "R16": pgettext_lazy("rule name", "不要"),
    "R18": _("首家与手牌"),
    "R19": _("对头让牌"),
    "R20": _("开点"),
    "R21": _("烧牌"),
    "R22": _("烧牌与反烧"),
    "R23": _("无头"),
    "R25": _("应答末手"),
    "R26": _("憋三"),
    "R27": _("闷"),
    "R28": _("憋四"),
    "R29": _("革命"),
    "R30": _("名次"),
    "R34": _("宣点"),
    "R35": _("点贡"),
    "R38": _("落贡"),
    "R44": _("八人座位"),
    "R46": _("八人用牌"),
    "R47": _("八人名次"),
    "R52": _("多王压单王"),
    "R56": _("两人革命"),
    "D5": _("诈烧出局"),
    "D10": _("发牌"),
    "D11": _("烧牌者的名次"),
}

MESSAGES = {
    # settle: a summary of a deal
    "finish_not_permutation": _("出完顺序（%(finish)s）须包含本桌全部座位，每个座位一次"),
    "revolution_disabled": _("%(seat)s 号座宣布革命，但本赛事规则不允许革命"),
    "revolution_not_allowed": _("%(seat)s 号座手中有 2 或王，不能革命"),
    # kept for verdicts stored before the code became `deal_void`
    "two_revolutions": _("%(seats)s 号座都宣布革命：两家以上革命，此局作废重发"),
    "deal_void": _("%(seats)s 号座都宣布革命：革命的人数超过规则允许，此局作废重发"),
    "revolutionary_played": _("革命者 %(seat)s 号座不出牌，不能烧、被烧或闷人"),
    "revolutionary_point": _("革命者 %(seat)s 号座不能开点：其对头从一开始就无头"),
    "revolution_place": _("革命者 %(seat)s 号座是第 %(place)s 名，应为第 %(expected)s 名"),
    "special_not_allowed": _("%(seat)s 号座宣布特点，但本赛事规则不允许特殊宣点"),
    "special_failed_undeclared": _("%(seat)s 号座没有宣布特点，不能标为特点失败"),
    "false_burner_out": _(
        "烧 %(burn)s（%(burner)s 号座烧 %(burned)s 号座）：%(seat)s 号座在烧 %(earlier)s "
        "诈烧，已立即出局，不能再烧或被烧"
    ),
    "burn_self": _("烧 %(burn)s（%(burner)s 号座烧 %(burned)s 号座）：不能烧自己"),
    "burn_by_head_rival": _(
        "烧 %(burn)s（%(burner)s 号座烧 %(burned)s 号座）：对头应答不算烧牌，只有非对头才能烧"
    ),
    "burn_without_point": _("烧 %(burn)s（%(burner)s 号座烧 %(burned)s 号座）：烧牌须先开点"),
    "burn_requires_point": _("%(seat)s 号座没有开点，不能烧牌"),
    "burner_not_top_two": _(
        "烧 %(burn)s（%(burner)s 号座烧 %(burned)s 号座）：够级生效时烧牌者出完只能是前 "
        "%(top)s 名，不能是第 %(place)s 名"
    ),
    "counter_without_burn": _(
        "烧 %(burn)s（%(burner)s 号座烧 %(burned)s 号座）：反烧须紧跟在被它中断的 %(burned)s "
        "号座的烧牌之后，且那次烧牌记为“被中断”"
    ),
    "burned_finished_first": _(
        "烧 %(burn)s（%(burner)s 号座烧 %(burned)s 号座）：被烧者不能先于烧牌者出完"
    ),
    "suffocation_without_hold_three": _("本赛事规则不用憋三，没有闷"),
    "suffocated_self": _("%(seat)s 号座不能闷自己"),
    "suffocated_twice": _("%(seat)s 号座被记为闷了两次"),
    "forced_place": _("%(seat)s 号座是第 %(place)s 名，但诈烧者和被闷者须排在剩下的最后几名"),
    "hold_three": _("%(seat)s 号座憋三：手中的 3 须留作最后一手，且不能带别的牌"),
    "hold_four": _("%(seat)s 号座没有 3，憋四：手中的 4 须留作最后一手，且不能带别的牌"),
    "unsupported": _("按本赛事规则暂不支持回放这种革命"),
    # replay: a play log
    "bad_action": _("牌谱中有无法识别的动作"),
    "bad_cards": _("牌的写法不对"),
    "bad_leader": _("首家须是本桌的一个座位，不能是 %(leader)s"),
    "bad_seat": _("座位号不对"),
    "cards_not_held": _("%(seat)s 号座手中没有这些牌"),
    "deal_over": _("本局已结束，不能再出牌"),
    "does_not_beat": _("出的牌管不上桌上的牌"),
    "empty_hand": _("开局时 %(seat)s 号座没有牌"),
    "must_lead": _("%(seat)s 号座是首家，必须出牌"),
    "not_a_hand": _("这不是一手合法的牌型"),
    "not_your_turn": _("还没轮到 %(seat)s 号座"),
    "passed_may_not_burn": _("%(seat)s 号座本圈已经不要，不能再烧牌"),
    "already_passed": _("%(seat)s 号座本圈已经不要了"),
    "already_yielded": _("对头每手最多让一次"),
    "no_yield": _("应答最后一手牌时不能让"),
    "yield_not_head_rival": _("只有 %(owner)s 号座的对头可以让牌"),
    "seat_out": _("%(seat)s 号座已经出完"),
    "size_mismatch": _("出的张数（%(size)s）与桌上这手牌（%(top)s）不同"),
    "too_many_cards": _("有一种牌发出了 %(dealt)s 张，整副牌只有 %(deck)s 张"),
    "uneven_deal": _("整副发完时每个座位应有 %(per_seat)s 张，%(seat)s 号座有 %(held)s 张"),
    # the tribute exchange and plays without hands (feature tables)
    "dealt_not_whole": _("发牌须是整副牌：有一种牌发出了 %(dealt)s 张，整副牌有 %(deck)s 张"),
    "played_too_many": _("%(seat)s 号座已出 %(held)s 张，每家只发 %(per_seat)s 张"),
    "pool_picks": _("贡牌池要拿 %(owed)s 次，填了 %(given)s 次"),
    "pick_size": _("%(seat)s 号座从贡牌池拿 %(cards)s 张，不是 %(picked)s 张"),
    "pick_not_in_pool": _("贡牌池里是 %(pool)s，%(seat)s 号座拿不到 %(cards)s"),
    "bad_tribute": _("进贡的张数不对"),
    "returns_missing": _("应还贡 %(owed)s 次，只填了 %(given)s 次"),
    "return_size": _("%(seat)s 号座收了 %(payer)s 号座 %(cards)s 张贡牌，还了 %(returned)s 张"),
    "return_not_held": _("%(seat)s 号座手中没有要还给 %(payer)s 号座的牌（%(cards)s）"),
    # the service and the form
    "play_log_mismatch": _(
        "成绩与牌谱回放不符：%(field)s，成绩写的是 %(claimed)s，牌谱回放得出 %(replayed)s"
    ),
    "play_log_incomplete": _("牌谱未打完"),
    "incomplete_row": _("有一行未填完整"),
}

#: A code one rule's call says more precisely than the others (its call gives more numbers):
#: R52's joker groups name both groups and their weights; R10–R12 share the code and give none.
BY_RULE = {
    ("R52", "does_not_beat"): _("%(cards)s（重 %(weight)s）管不上 %(top_cards)s（重 %(top)s）"),
}

#: The report's fields a play log's replay is compared with (`results.py`), in words.
FIELDS = {
    "finish": _("出完顺序"),
    "points": _("开点"),
    "burns": _("烧牌"),
    "suffocated": pgettext_lazy("field", "闷"),
    "union_scores": _("本局得分"),
    "declarations": _("宣点"),
    "revolution": _("革命"),
}


def joker_words(cards: str) -> str:
    """A joker group (R5 notation, "BBR") in words: "小王×2 大王"."""
    words = []
    for char, label in (("B", pgettext("card", "小王")), ("R", pgettext("card", "大王"))):
        count = cards.count(char)
        if count:
            words.append(f"{label}×{count}" if count > 1 else str(label))
    return " ".join(words) or "—"


def _seats(value: Any) -> str:
    return ", ".join(map(str, value)) if value else "—"


def _value(field: str, value: Any) -> str:
    """What a report or a replay says of a field, short, in the page's language."""
    if not value:
        return "—"
    if field == "burns" and isinstance(value, list):
        return "; ".join(
            f"{b.get('burner')}→{b.get('burned')}" for b in value if isinstance(b, dict)
        )
    if field == "suffocated" and isinstance(value, list):
        return "; ".join(
            gettext("%(by)s 闷 %(seat)s") % {"by": s.get("by"), "seat": s.get("seat")}
            for s in value
            if isinstance(s, dict)
        )
    if field == "union_scores" and isinstance(value, dict):
        return " · ".join(f"{side} {value[side]:+d}" for side in ("A", "B") if side in value)
    if field == "declarations" and isinstance(value, dict):
        return ", ".join(f"{seat}: {kind}" for seat, kind in value.items())
    return _seats(value) if isinstance(value, list) else str(value)


def describe(error: Mapping[str, Any]) -> str:
    """One engine error for a person (`describe_error`), its numbers in words first: R52's
    joker groups as cards, a replay mismatch's field and both values."""
    params = dict(error.get("params") or {})
    messages: Mapping[str, Any] = MESSAGES
    code = error.get("code") or ""
    special = BY_RULE.get((error.get("rule") or "", code))
    if special is not None and {"cards", "top_cards"} <= params.keys():
        params["cards"] = joker_words(str(params["cards"]))
        params["top_cards"] = joker_words(str(params["top_cards"]))
        messages = {code: special}
    if code == "play_log_mismatch" and "field" in params:
        field = str(params["field"])
        params["claimed"] = _value(field, params.get("claimed"))
        params["replayed"] = _value(field, params.get("replayed"))
        params["field"] = str(FIELDS.get(field, field))
    elif code == "play_log_mismatch":
        messages = {code: _("成绩与牌谱回放不符")}  # stored before mismatches named their field
    return describe_error(messages, {**error, "params": params})
