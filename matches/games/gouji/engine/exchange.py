"""The tribute exchange at the start of a deal (进贡 / 还贡, §7): from the hands as dealt to the
hands play starts with.

The ledger of the deal before (R35–R42, in paying order) says who owes whom how many cards.
Each tribute card is the payer's highest card at that moment, the first kind of R42's order
first, so the engine pays them itself; each receiver then gives back as many cards of its own
choice (还贡), which the record cannot know: the operator says them. The engine checks what it
can: the deal is whole (R3, D10), a return has the size of what was received and is held by the
receiver.

A pooled place tribute (R38 `pool`): each payer puts its highest cards into the pool, the
winners pick theirs out in order of place (the operator says which; the last picker takes what
is left), and the k-th picker returns as many cards to the k-th payer, the pair the ranked
tribute would have made, so that every seat keeps its share (D10).

Then buying a 3 (R28, hold-3 with `no_three = "buy"`): a seat that holds no 3 buys one
(`buy_threes`); nobody chooses anything there, so the engine does it.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from matches.games.gouji.engine.cards import (
    BIG,
    RANK_COUNT,
    SMALL,
    TWO,
    card_count,
    cards_per_seat,
    format_cards,
    full_deck,
    holds,
    remove_cards,
)
from matches.games.gouji.engine.play import THREE
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.seating import head_rival, mates
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


def _pooled(entry: Mapping[str, object]) -> str | None:
    pool = entry.get("pool")
    return pool if pool in ("put", "pick") else None


def exchange(
    rules: RuleSet,
    dealt: Mapping[int, Counts],
    ledger: Sequence[Mapping[str, object]],
    returns: Sequence[Counts],
    picks: Sequence[Counts] = (),
) -> dict[int, Counts]:
    """The hands after the tributes of `ledger` (each `{"from", "to", "kind", "cards"}`, or a
    pooled place tribute's `"pool": "put"` / `"pick"` entries) and the returns (one per ledger
    entry, in its order; nothing for a "put"), with `picks`, the cards each "pick" takes out of
    the pool (the last may be left out: the rest). Raises RuleViolation."""
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
    rows: list[tuple[int, int, int, str | None]] = []
    putters = [entry.get("from") for entry in ledger if _pooled(entry) == "put"]
    picking = [i for i, entry in enumerate(ledger) if _pooled(entry) == "pick"]
    if len(putters) != len(picking) or len(picks) not in (len(picking), len(picking) - 1, 0):
        raise RuleViolation(
            "R38",
            "pool_picks",
            f"{len(picking)} picks from the pool; {len(picks)} given",
            owed=len(picking),
            given=len(picks),
        )
    for index, entry in enumerate(ledger):
        payer, receiver, size = entry.get("from"), entry.get("to"), entry.get("cards")
        pooled = _pooled(entry)
        if pooled == "pick":  # returns to the payer the ranked tribute would have paid it
            payer = putters[picking.index(index)]
        elif pooled == "put":
            receiver = 0  # the pool
        if not isinstance(payer, int) or not isinstance(receiver, int):
            raise RuleViolation(None, "bad_tribute", "a tribute names its payer and receiver")
        if not isinstance(size, int) or size < 0:
            raise RuleViolation(None, "bad_tribute", "a tribute is a count of cards")
        rows.append((payer, receiver, size, pooled))
    pool: Counts = tuple([0] * RANK_COUNT)
    picked = 0
    for payer, receiver, size, pooled in rows:  # R42: in paying order, the payer's highest cards
        if pooled == "pick":
            pool, taken = _pick(
                pool, receiver, size, picks[picked] if picked < len(picks) else None
            )
            picked += 1
            hands[receiver] = _add(hands[receiver], taken)
            continue
        paid = highest(hands[payer], size)
        hands[payer] = remove_cards(hands[payer], paid)
        if pooled == "put":
            pool = _add(pool, paid)
        else:
            hands[receiver] = _add(hands[receiver], paid)
    for (payer, receiver, size, pooled), back in zip(rows, returns, strict=True):  # 还贡
        if pooled == "put":
            receiver, size = payer, 0  # the pool returns nothing; its picker does
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


def _pick(pool: Counts, seat: int, size: int, chosen: Counts | None) -> tuple[Counts, Counts]:
    """(the pool left, the cards taken): `chosen`, or the whole pool for the last picker."""
    if chosen is None:
        chosen = pool
    if card_count(chosen) != size:
        raise RuleViolation(
            "R38",
            "pick_size",
            f"seat {seat} picks {size} cards from the pool, not {card_count(chosen)}",
            seat=seat,
            cards=size,
            picked=card_count(chosen),
        )
    if not holds(pool, chosen):
        raise RuleViolation(
            "R38",
            "pick_not_in_pool",
            f"the pool holds {format_cards(pool)}: seat {seat} cannot pick {format_cards(chosen)}",
            seat=seat,
            pool=format_cards(pool),
            cards=format_cards(chosen),
        )
    return remove_cards(pool, chosen), chosen


def buy_threes(
    hands: Mapping[int, Counts], rules: RuleSet
) -> tuple[dict[int, Counts], list[dict[str, object]]]:
    """R28 (hold-3, `no_three = "buy"`): a seat holding no 3 buys one from its head rival, else a
    union mate, else a mate's head rival (R51/D27: mates in playing order from the buyer), from
    a seller that keeps a 3 of its own. The buyer always pays (a 2, else a small joker, else a
    big one, else its highest card), so that every seat keeps its share of a full deal (D10).
    (the hands after, each purchase as `{"buyer", "seller", "paid"}`)."""
    after = {seat: list(hands[seat]) for seat in rules.seats}
    bought: list[dict[str, object]] = []
    players = rules.players
    for buyer in rules.seats:
        if after[buyer][THREE]:
            continue
        own = mates(buyer, players)
        sellers = [head_rival(buyer, players), *own, *(head_rival(m, players) for m in own)]
        seller = next((s for s in sellers if after[s][THREE] >= 2), None)
        if seller is None:
            continue  # nobody can sell: the seat plays without a 3 (no hold-3 obligation)
        held = after[buyer]
        payment = next((r for r in (TWO, SMALL, BIG) if held[r]), None)
        if payment is None:
            payment = max(r for r in range(RANK_COUNT) if held[r])
        held[payment] -= 1
        held[THREE] += 1
        after[seller][THREE] -= 1
        after[seller][payment] += 1
        paid = format_cards(tuple(1 if r == payment else 0 for r in range(RANK_COUNT)))
        bought.append({"buyer": buyer, "seller": seller, "paid": paid})
    return {seat: tuple(counts) for seat, counts in after.items()}, bought


def buys_threes(rules: RuleSet) -> bool:
    """Whether a seat without a 3 buys one before play (R28)."""
    return rules.hold_three and rules.no_three == "buy"
