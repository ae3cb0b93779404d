"""Small deal records written compactly, for position tests.

`deal(["3345", "9", …], "1:3 2:pass 4:yield 1:TTTTT")` builds a `gouji-deal/1` document: six
hands for seats 1–6, and the actions as `seat:CARDS`, `seat:pass` or `seat:yield`.
"""

from __future__ import annotations

from matches.games.gouji.engine.replay import replay


def actions(text: str) -> list[dict]:
    written: list[dict[str, object]] = []
    for token in text.split():
        seat, what = token.split(":")
        if what in ("pass", "yield"):
            written.append({"seat": int(seat), what: True})
        else:
            written.append({"seat": int(seat), "cards": what})
    return written


def deal(hands: list[str], moves: str = "", leader: int = 1, rules="standard", **fields) -> dict:
    doc = {
        "format": "gouji-deal/1",
        "rules": rules,
        "hands": {str(seat): cards for seat, cards in enumerate(hands, start=1)},
        "leader": leader,
        "actions": actions(moves),
    }
    doc.update(fields)
    return doc


def run(hands, moves="", **options) -> dict:
    return replay(deal(hands, moves, **options))
