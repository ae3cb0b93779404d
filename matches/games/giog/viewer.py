"""The Giog hand viewer: a hand record's steps (`engine/steps.py`) worded for a page.

Pieces show as their xiangqi characters in Chinese (帥仕相俥傌炮兵 for Red, 將士象車馬砲卒 for
Black) and as their FEN letters in English, red or black as their colour; the plays of the
trick are on the table; the badges say the pieces each seat has won and who is beheaded (G12).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from matches.games.giog.engine.steps import hand_steps
from matches.kernel.engine_errors import BadDocument
from matches.kernel.games import viewer as shared

RED, BLACK = "KABRNCP", "kabrncp"
KINDS = {**{p: "red" for p in RED}, **{p: "black" for p in BLACK}}


def piece_labels() -> dict:
    red, black = _("帥仕相俥傌炮兵"), _("將士象車馬砲卒")  # English: the FEN letters
    if len(red) != 7 or len(black) != 7:  # not one character a piece: the letters
        red = black = RED
    return dict(zip(RED + BLACK, red + black))


def pieces_text(count: int) -> str:
    return ngettext("%(n)s 子", "%(n)s 子", count) % {"n": count}


def _seat(seat_names: dict, seat) -> str:
    label = _("%(seat)s号") % {"seat": seat}
    name = seat_names.get(seat) or seat_names.get(str(seat))
    return f"{label} {name}" if name else label


def _event_text(event: dict, seat_names: dict) -> str:
    code = event["code"]
    if code == "trick":
        return ngettext(
            "%(seat)s赢得这一墩，%(n)s 子", "%(seat)s赢得这一墩，%(n)s 子", event["pieces"]
        ) % {"seat": _seat(seat_names, event["seat"]), "n": event["pieces"]}
    if code == "beheaded":
        return _("%(seat)s在第一墩或最后一墩出了帥（將），被斩首") % {
            "seat": _seat(seat_names, event["seat"])
        }
    if code == "over":
        return _("本手结束")
    return code


def disagreement_text(found: dict | None, seat_names: dict) -> str:
    if not found:
        return ""
    code = found["code"]
    seat = _seat(seat_names, found.get("seat"))
    if code == "won_extra":
        return _("%(seat)s在牌谱中已赢%(replayed)s子，多于报告的%(claimed)s子") % {
            "seat": seat,
            "replayed": found["replayed"],
            "claimed": found["claimed"],
        }
    if code == "won_short":
        return _("报告写%(seat)s赢%(claimed)s子，牌谱到这一步已不可能（已赢%(replayed)s子）") % {
            "seat": seat,
            "replayed": found["replayed"],
            "claimed": found["claimed"],
        }
    if code == "beheaded_extra":
        return _("%(seat)s在牌谱中被斩首，报告没有写") % {"seat": seat}
    if code == "beheaded_missing":
        return _("报告写%(seat)s被斩首，牌谱中没有") % {"seat": seat}
    return _("牌谱的结果与报告不同（%(field)s）") % {"field": found.get("field", "")}


def deal_viewer(event, play_log, summary=None, seat_names=None) -> dict | None:
    """Every step of the hand record `play_log` worded for the page, or None when the record
    cannot be read."""
    if not isinstance(play_log, dict):
        return None
    seat_names = seat_names or {}
    try:
        result = hand_steps(play_log, summary if isinstance(summary, dict) else None)
    except BadDocument:
        return None
    labels = piece_labels()
    found = result["disagreement"]
    verbs = {"lead": _("领出"), "follow": _("跟出")}
    steps = []
    for raw in result["steps"]:
        seats = []
        for key, pieces in raw["hands"].items():
            seat = int(key)
            won = raw["won"][key]
            badges = [ngettext("赢 %(n)s 子", "赢 %(n)s 子", won) % {"n": won}] if won else []
            if seat in raw["beheaded"]:
                badges.append(_("斩首"))
            seats.append(
                {
                    "seat": seat,
                    "side": "",
                    "who": _seat(seat_names, seat),
                    "cards": pieces,
                    "groups": shared.card_groups(pieces, labels, KINDS),
                    "count": pieces_text(len(pieces)),
                    "turn": seat == raw["turn"],
                    "out": False,
                    "badges": badges,
                }
            )
        action = raw["action"]
        steps.append(
            {
                "n": raw["n"],
                "action": {
                    "seat": action["seat"],
                    "who": _seat(seat_names, action["seat"]),
                    "kind": action["kind"],
                    "verb": verbs[action["kind"]],
                    "cards": action["pieces"],
                    "groups": shared.card_groups(action["pieces"], labels, KINDS),
                }
                if action
                else None,
                "events": [_event_text(e, seat_names) for e in raw["events"]],
                "seats": seats,
                "table": [
                    {
                        "who": _seat(seat_names, play["seat"])
                        + (" ★" if play["seat"] == raw["winning"] else ""),
                        "cards": play["pieces"],
                        "groups": shared.card_groups(play["pieces"], labels, KINDS),
                    }
                    for play in raw["plays"]
                ],
                "marked": bool(found) and found["step"] == raw["n"],
            }
        )
    return {
        "steps": steps,
        "labels": labels,
        "kinds": KINDS,
        "table_title": _("这一墩（★ 目前最大）"),
        "legend": _(
            "棋子：帥（將）、仕（士）、相（象）、俥（車）、傌（馬）、炮（砲）、兵（卒）；红方红字，黑方黑字。"
        ),
        "count_text": pieces_text,
        "disagreement": found,
        "disagreement_text": disagreement_text(found, seat_names),
        "error": result["error"],
        "complete": result["complete"],
    }
