"""Time the static engine's hot path: what a replay does for each played hand.

    /work/main/.venv/bin/python bench/gouji_hands.py

Prints microseconds per call for parse_cards, classify (memoised), beats, is_gouji,
opens_point and remove_cards, and for all of them together ("one action").
"""

from __future__ import annotations

import os
import sys
import timeit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from matches.games.gouji.engine.cards import holds, parse_cards, remove_cards  # noqa: E402
from matches.games.gouji.engine.hands import beats, classify, is_gouji, opens_point  # noqa: E402
from matches.games.gouji.engine.ruleset import RuleSet  # noqa: E402

RULES = RuleSet.from_json("standard")
PLAYS = ["TTTTT", "JJJ2", "666B", "QQQRR", "2", "R", "33", "KK", "AAAA2", "9999"]
TOPS = ["99999", "TTT2", "555B", "JJJBB", "A", "B", "22", "QQ", "KKKKK", "8888"]
HELD = parse_cards("333444TTTTTJJJ22QQQKKAAAAA66699BBRR")


def one_action(text, top_text):
    cards = parse_cards(text)
    hand = classify(cards)
    top = classify(parse_cards(top_text))
    beats(hand, top, RULES)
    is_gouji(hand)
    opens_point(hand, RULES)
    if holds(HELD, cards):
        remove_cards(HELD, cards)


def per_call(statement, number=20000):
    seconds = min(timeit.repeat(statement, number=number, repeat=5))
    return seconds / number * 1e6


def main():
    counts = [parse_cards(t) for t in PLAYS]
    hands = [classify(c) for c in counts]
    tops = [classify(parse_cards(t)) for t in TOPS]
    pairs = list(zip(hands, tops))
    figures = {
        "parse_cards": per_call(lambda: [parse_cards(t) for t in PLAYS]) / len(PLAYS),
        "classify (memoised)": per_call(lambda: [classify(c) for c in counts]) / len(counts),
        "beats": per_call(lambda: [beats(h, t, RULES) for h, t in pairs]) / len(pairs),
        "is_gouji": per_call(lambda: [is_gouji(h) for h in hands]) / len(hands),
        "opens_point": per_call(lambda: [opens_point(h, RULES) for h in hands]) / len(hands),
        "remove_cards": per_call(lambda: remove_cards(HELD, counts[0])),
        "one action (all of the above)": per_call(
            lambda: [one_action(p, t) for p, t in zip(PLAYS, TOPS)], number=5000
        )
        / len(PLAYS),
    }
    for name, micros in figures.items():
        print(f"{name:32s} {micros:6.2f} µs")


if __name__ == "__main__":
    main()
