"""The Gou Ji deal viewer: a play log's steps (`engine/steps.py`) worded for a page.

`deal_viewer(event, play_log, summary, seat_names)` gives what the shared viewer page shows:
one entry per step, every sentence in the page's language, cards as rank labels (suits play no
part in Gou Ji: a card is its rank; the jokers are 小王 and 大王), and the first step at which the
log and the summary disagree, marked. The page renders the current step itself (no JavaScript:
`?step=N`) and hands every step to `static/js/deal_viewer.js` as JSON.
"""

from __future__ import annotations

import copy

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from matches.games.gouji.engine.cards import RANK_CHARS
from matches.games.gouji.engine.steps import deal_steps
from matches.games.gouji.table import shape_for
from matches.kernel.engine_errors import BadDocument
from matches.kernel.games import viewer as shared


def card_labels() -> dict:
    """R5 character → what a reader sees: 3…10, J, Q, K, A, 2 and the two jokers."""
    labels = {char: char for char in RANK_CHARS}
    labels["T"] = "10"
    labels["B"] = _("小王")
    labels["R"] = _("大王")
    return labels


#: the look of a card on the page (static/css/viewer.css)
KINDS = {"2": "two", "B": "joker-small", "R": "joker-big"}


def card_groups(cards: str, labels: dict) -> list[dict]:
    return shared.card_groups(cards, labels, KINDS)


def cards_text(count: int) -> str:
    return ngettext("%(n)s 张", "%(n)s 张", count) % {"n": count}


def _seat(seat_names: dict, seat) -> str:
    label = _("%(seat)s号") % {"seat": seat}
    name = seat_names.get(seat) or seat_names.get(str(seat))
    return f"{label} {name}" if name else label


def _event_text(event: dict, seat_names: dict, union_size: int) -> str:
    def s(key):
        return _seat(seat_names, event.get(key))

    code = event["code"]
    if code == "finish":
        return _("%(seat)s出完牌，得第%(place)s名") % {"seat": s("seat"), "place": event["place"]}
    if code == "out":
        return _("%(seat)s被判出局，得第%(place)s名") % {"seat": s("seat"), "place": event["place"]}
    if code == "last":
        return _("%(seat)s留在最后，得第%(place)s名") % {"seat": s("seat"), "place": event["place"]}
    if code == "filled" and union_size == 4:
        # R47, D22: at eight seats a union strings four; the rest fill places 5-8 (D13)
        return _("串四户后%(seat)s定为第%(place)s名") % {
            "seat": s("seat"),
            "place": event["place"],
        }
    if code == "filled":
        return _("串三户后%(seat)s定为第%(place)s名") % {
            "seat": s("seat"),
            "place": event["place"],
        }
    if code == "point":
        return _("%(seat)s开点") % {"seat": s("seat")}
    if code == "burn":
        return _("%(burner)s烧%(burned)s") % {"burner": s("burner"), "burned": s("burned")}
    if code == "burn_success":
        return _("%(burner)s烧%(burned)s成功") % {"burner": s("burner"), "burned": s("burned")}
    if code == "burn_counter":
        return _("%(burner)s反烧%(burned)s成功") % {"burner": s("burner"), "burned": s("burned")}
    if code == "burn_stopped":
        return _("%(burner)s烧%(burned)s被截住") % {"burner": s("burner"), "burned": s("burned")}
    if code == "burn_false":
        return _("%(burner)s诈烧") % {"burner": s("burner")}
    if code == "suffocated":
        return _("%(seat)s被%(by)s闷住") % {"seat": s("seat"), "by": s("by")}
    if code == "lead":
        return _("新一圈：%(seat)s出牌") % {"seat": s("seat")}
    if code == "gouji":
        return _("%(seat)s出够级牌，%(rival)s须应") % {"seat": s("seat"), "rival": s("rival")}
    if code == "over":
        return _("本局结束")
    return code


def joker_group_weight(cards: str) -> int | None:
    """R52: a hand of jokers only is a joker group of weight s + 2b; None for any other hand."""
    if not cards or set(cards) - {"B", "R"}:
        return None
    return cards.count("B") + 2 * cards.count("R")


def _action(
    action: dict | None, seat_names: dict, labels: dict, joker_groups: bool = False
) -> dict | None:
    if action is None:
        return None
    words = {"play": _("出牌"), "pass": _("不要"), "yield": _("让牌")}
    verb = words.get(action["kind"], action["kind"])
    weight = joker_group_weight(action.get("cards") or "") if joker_groups else None
    if action["kind"] == "play" and weight is not None:
        # Under R52 a group of jokers beats a group by weight, whatever its size: say so.
        verb = _("出王组（重 %(w)s）") % {"w": weight}
    return {
        "seat": action["seat"],
        "who": _seat(seat_names, action["seat"]),
        "kind": action["kind"],
        "verb": verb,
        "cards": action.get("cards") or "",
        "groups": card_groups(action.get("cards") or "", labels),
    }


def _place_word(place: int) -> str:
    return _("第%(place)s名") % {"place": place}


def disagreement_text(found: dict | None, seat_names: dict) -> str:
    """What the marked step contradicts, in a sentence."""
    if not found:
        return ""
    code = found["code"]
    if code == "place":
        if found.get("claimed"):
            return _("%(seat)s在牌谱中得第%(replayed)s名，报告写的是第%(claimed)s名") % {
                "seat": _seat(seat_names, found["seat"]),
                "replayed": found["replayed"],
                "claimed": found["claimed"],
            }
        return _("%(seat)s在牌谱中得第%(replayed)s名，报告没有写它的名次") % {
            "seat": _seat(seat_names, found["seat"]),
            "replayed": found["replayed"],
        }
    if code == "point_extra":
        return _("%(seat)s在牌谱中开点，报告没有写") % {"seat": _seat(seat_names, found["seat"])}
    if code == "point_missing":
        return _("报告写%(seat)s开点，牌谱到这一步已不可能开点") % {
            "seat": _seat(seat_names, found["seat"])
        }
    if code in ("burn_extra", "burn_outcome"):
        return _("牌谱中%(burner)s烧%(burned)s，与报告不符") % {
            "burner": _seat(seat_names, found["burner"]),
            "burned": _seat(seat_names, found["burned"]),
        }
    if code == "burn_missing":
        return _("报告写%(burner)s烧%(burned)s，牌谱到这一步已不可能烧牌") % {
            "burner": _seat(seat_names, found["burner"]),
            "burned": _seat(seat_names, found["burned"]),
        }
    if code == "suffocated_extra":
        return _("牌谱中%(seat)s被闷，报告没有写") % {"seat": _seat(seat_names, found["seat"])}
    if code == "suffocated_missing":
        return _("报告写%(seat)s被闷，牌谱中没有") % {"seat": _seat(seat_names, found["seat"])}
    if code == "setup":
        return _("报告的宣告或革命与牌谱不同")
    return _("牌谱的结果与报告不同（%(field)s）") % {"field": found.get("field", "")}


def deal_viewer(event, play_log, summary=None, seat_names=None) -> dict | None:
    """Every step of `play_log` worded for the page, judged by the event's rule set (as the
    report was), or None when the log cannot be read."""
    if not isinstance(play_log, dict):
        return None
    seat_names = seat_names or {}
    doc = copy.deepcopy(play_log)
    doc["rules"] = event.game_rules.rules_json
    rules = event.game_rules.rules
    shape = shape_for(rules.players)
    try:
        result = deal_steps(doc, summary if isinstance(summary, dict) else None)
    except BadDocument:
        return None
    labels = card_labels()
    found = result["disagreement"]
    steps = []
    for raw in result["steps"]:
        n = raw["n"]
        places = {int(seat): place for seat, place in raw["places"].items()}
        seats = []
        for seat in sorted(int(key) for key in raw["hands"]):
            cards = raw["hands"][str(seat)]
            badges = []
            if seat in places:
                badges.append(_place_word(places[seat]))
            if seat in raw["points"]:
                badges.append(_("已开点"))
            if seat in raw["passed"]:
                badges.append(_("不要"))
            seats.append(
                {
                    "seat": seat,
                    "side": shape.side_of(seat) if seat <= shape.size else "",
                    "who": _seat(seat_names, seat),
                    "cards": cards,
                    "groups": card_groups(cards, labels),
                    "count": cards_text(len(cards)),
                    "turn": seat == raw["turn"],
                    "out": seat in raw["out"],
                    "badges": badges,
                }
            )
        top = raw["top"]
        table = []
        if top:
            table.append(
                {
                    "who": _seat(seat_names, top["seat"]),
                    "cards": top["cards"] or "",
                    "groups": card_groups(top["cards"] or "", labels),
                }
            )
        steps.append(
            {
                "n": n,
                "action": _action(raw["action"], seat_names, labels, rules.joker_groups),
                "events": [_event_text(e, seat_names, shape.union_size) for e in raw["events"]],
                "seats": seats,
                "table": table,
                "marked": bool(found) and found["step"] == n,
            }
        )
    error = result["error"]
    return {
        "steps": steps,
        "labels": labels,
        "kinds": KINDS,
        "table_title": _("桌面上的牌"),
        "legend": " ".join(
            [_("牌面：3 最小，2 大于 A，小王、大王最大。")]
            + (
                [_("王组（只有王的一手，R52）按重量比大小，不论张数：小王重 1，大王重 2。")]
                if rules.joker_groups
                else []
            )
        ),
        "count_text": cards_text,
        "disagreement": found,
        "disagreement_text": disagreement_text(found, seat_names),
        "error": error,
        "complete": result["complete"],
    }
