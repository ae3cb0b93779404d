"""Small builders for Giog test records."""

from __future__ import annotations

from matches.games.giog.engine.replay import replay


def plays(text: str) -> list[dict]:
    """'1RNC 2ppc' -> [{"seat": 1, "pieces": "RNC"}, {"seat": 2, "pieces": "ppc"}]."""
    return [{"seat": int(token[0]), "pieces": token[1:]} for token in text.split()]


def hand_doc(
    hands: list[str],
    actions: str = "",
    leader: int = 1,
    rules: dict | None = None,
    out: str = "",
    claimed: dict | None = None,
) -> dict:
    doc = {
        "format": "giog-hand/1",
        "players": len(hands),
        "hands": {str(seat): pieces for seat, pieces in enumerate(hands, start=1)},
        "out": out,
        "leader": leader,
        "actions": plays(actions),
    }
    if rules is not None:
        doc["rules"] = rules
    if claimed is not None:
        doc["claimed"] = claimed
    return doc


def run(hands: list[str], actions: str = "", **kwargs) -> dict:
    return replay(hand_doc(hands, actions, **kwargs))
