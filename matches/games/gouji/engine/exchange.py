"""The tribute exchange at the start of a deal (进贡 / 还贡, §7): from the hands as dealt to the
hands play starts with.

The ledger of the deal before (R35–R42, in paying order) says who owes whom how many cards.
Each tribute card is the payer's highest card at that moment, the first kind of R42's order
first, so the engine pays them itself; each receiver then gives back as many cards of its own
choice (还贡), which the record cannot know: the operator says them. The engine checks what it
can: the deal is whole (R3, D10), a return has the size of what was received and is held by the
receiver. A pooled place tribute (R38 `pool`) is not exchanged here: its hands are entered
after the tributes.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from matches.games.gouji.engine.cards import (
    RANK_COUNT,
    card_count,
    cards_per_seat,
    format_cards,
    full_deck,
    holds,
    remove_cards,
)
from matches.games.gouji.engine.ruleset import RuleSet
from matches.kernel.engine_errors import RuleViolation

Counts = tuple[int, ...]


def _add(have: Counts, take: Counts) -> Counts:
    return tuple(a + b for a, b in zip(have, take, strict=True))


def highest(hand: Counts, count: int) -> Counts:
    """The `count` highest cards of `hand` (big joker, small joker, 2, A … 3)."""
    taken = [0] * RANK_COUNT
    left = count
    for rank in range(RANK_COUNT - 1, -1, -1):
        take = min(left, hand[rank])
        taken[rank] = take
        left -= take
    return tuple(taken)


def whole_deal_error(rules: RuleSet, dealt: Mapping[int, Counts]) -> RuleViolation | None:
    """The hands as dealt are the whole deck (R3), the same share for every seat (D10)."""
    deck = full_deck(rules)
    for rank in range(RANK_COUNT):
        total = sum(dealt[seat][rank] for seat in rules.seats)
        if total != deck[rank]:
            char = format_cards(tuple(1 if i == rank else 0 for i in range(RANK_COUNT)))
            return RuleViolation(
                "R3",
                "dealt_not_whole",
                f"{total} cards {char} dealt; the deck holds {deck[rank]}",
                dealt=total,
                deck=deck[rank],
            )
    per_seat = cards_per_seat(rules)
    for seat in rules.seats:
        if card_count(dealt[seat]) != per_seat:
            return RuleViolation(
                "D10",
                "uneven_deal",
                f"a full deal gives every seat {per_seat} cards; "
                f"seat {seat} holds {card_count(dealt[seat])}",
                seat=seat,
                per_seat=per_seat,
                held=card_count(dealt[seat]),
            )
    return None


def exchange(
    rules: RuleSet,
    dealt: Mapping[int, Counts],
    ledger: Sequence[Mapping[str, object]],
    returns: Sequence[Counts],
) -> dict[int, Counts]:
    """The hands after the tributes of `ledger` (each `{"from", "to", "kind", "cards"}`) and the
    returns (one per ledger entry, in its order). Raises RuleViolation."""
    problem = whole_deal_error(rules, dealt)
    if problem is not None:
        raise problem
    hands = {seat: tuple(dealt[seat]) for seat in rules.seats}
    if len(returns) != len(ledger):
        raise RuleViolation(
            None,
            "returns_missing",
            f"{len(ledger)} tributes need {len(ledger)} returns; {len(returns)} given",
            owed=len(ledger),
            given=len(returns),
        )
    rows = []
    for entry in ledger:
        payer, receiver, size = entry.get("from"), entry.get("to"), entry.get("cards")
        if entry.get("pool") or not isinstance(payer, int) or not isinstance(receiver, int):
            raise RuleViolation(
                "R38",
                "pooled_tribute",
                "a pooled place tribute is not exchanged here: give the hands after the tributes",
            )
        if not isinstance(size, int) or size < 0:
            raise RuleViolation(None, "bad_tribute", "a tribute is a count of cards")
        rows.append((payer, receiver, size))
    for payer, receiver, size in rows:  # R42: in paying order, the payer's highest cards
        paid = highest(hands[payer], size)
        hands[payer] = remove_cards(hands[payer], paid)
        hands[receiver] = _add(hands[receiver], paid)
    for (payer, receiver, size), back in zip(rows, returns, strict=True):  # 还贡
        if card_count(back) != size:
            raise RuleViolation(
                None,
                "return_size",
                f"seat {receiver} received {size} cards from seat {payer} "
                f"and returns {card_count(back)}",
                seat=receiver,
                payer=payer,
                cards=size,
                returned=card_count(back),
            )
        if not holds(hands[receiver], back):
            raise RuleViolation(
                None,
                "return_not_held",
                f"seat {receiver} does not hold {format_cards(back)} to return",
                seat=receiver,
                payer=payer,
                cards=format_cards(back),
            )
        hands[receiver] = remove_cards(hands[receiver], back)
        hands[payer] = _add(hands[payer], back)
    return hands
