"""What every game's deal viewer shares: cards (or pieces) grouped for the page, and the
steps made small for the page's script (`static/js/deal_viewer.js`).

A game's viewer (`matches/games/<game>/viewer.py`) words its steps: each step has `n`,
`action` (`who`, `verb`, `cards`, `groups`), `events` (sentences), `table` (the plays on the
table: `who`, `cards`, `groups`), `seats` (`seat`, `side`, `who`, `cards`, `groups`, `count`,
`turn`, `out`, `badges`) and `marked`; the viewer itself has `labels` and `kinds` (a card's
character → its label and CSS class) and `count_text(n)` ("3 张", "3 cards").
"""

from __future__ import annotations


def card_groups(cards: str, labels: dict, kinds: dict) -> list[dict]:
    """'333TT' → [{label 3, count 3}, {label 10, count 2}]: each card once, with how many."""
    groups: list[dict] = []
    for char in cards:
        if groups and groups[-1]["char"] == char:
            groups[-1]["count"] += 1
        else:
            label = labels.get(char, char)
            groups.append({"char": char, "label": label, "kind": kinds.get(char, ""), "count": 1})
    return groups


def without_groups(part: dict | None) -> dict | None:
    return None if part is None else {k: v for k, v in part.items() if k != "groups"}


def viewer_json(viewer: dict) -> dict:
    """The steps for the page's script, small: who sits where once, a seat's cards only at the
    steps where they change, the words for "n cards" once for every n."""
    steps: list[dict] = []
    before: dict = {}
    most = 0
    for step in viewer["steps"]:
        hands, badges = {}, {}
        for seat in step["seats"]:
            number = seat["seat"]
            most = max(most, len(seat["cards"]))
            if before.get(number) != seat["cards"]:
                hands[number] = seat["cards"]
                before[number] = seat["cards"]
            if seat["badges"]:
                badges[number] = seat["badges"]
        steps.append(
            {
                "n": step["n"],
                "action": without_groups(step["action"]),
                "events": step["events"],
                "table": [without_groups(play) for play in step["table"]],
                "marked": step["marked"],
                "hands": hands,
                "badges": badges,
                "turn": next((s["seat"] for s in step["seats"] if s["turn"]), 0),
                "out": [s["seat"] for s in step["seats"] if s["out"]],
            }
        )
    first = viewer["steps"][0]["seats"] if viewer["steps"] else []
    return {
        "labels": viewer["labels"],
        "kinds": viewer["kinds"],
        "counts": [viewer["count_text"](n) for n in range(most + 1)],
        "seats": [{"seat": s["seat"], "side": s["side"], "who": s["who"]} for s in first],
        "steps": steps,
    }
