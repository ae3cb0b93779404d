"""The play of one Gou Ji deal as an immutable state machine (R15–R30, D1–D13).

`start(...)` builds the first state, `apply(state, action)` returns the next one or raises
`RuleViolation`, and `legal_actions(state)` lists every action `apply` accepts. A state is a
small slotted object: each action copies it and changes a few fields, so a replay does not
rebuild the table on every card.

Seats are 1..n, n = the rule set's `players` (6, or 8 under R44); every per-seat tuple has a
dummy entry at index 0 so that `hands[seat]` reads like the rules. The table's geometry (head
rivals, unions, when the melee begins) is fixed once per deal in `Table`. Sets of seats are bit masks (`1 << seat`). Cards are 15-int count tuples
(`cards.py`); hands are classified once per distinct count tuple (`hands.classify`, memoised).

Phases of play:
- LEAD: `turn` must play any hand (R15).
- FOLLOW: normal order; `turn` beats the top hand or passes (R15, R16).
- FINAL: R16/D2's final chance of the top hand owner's head rival.
- GOUJI: a Gou Ji hand in force (R19): the owner's head rival decides in turn; burners (R21)
  and headless players (D6) may answer out of turn.
- LAST_ANSWER: R25, the head rival of one of the first n − 4 finishers answers the last hand
  (1st and 2nd at six seats, 1st to 4th at eight, R48/D21).
- ANSWERED: R25/D8, after that answer others may only burn it before the answerer leads.
- OVER: the deal is complete (R30, D13).
"""

from __future__ import annotations

from functools import lru_cache
from operator import sub
from typing import Iterable, Iterator, NamedTuple, Sequence

from matches.games.gouji.engine import seating
from matches.games.gouji.engine.cards import BIG, SMALL, TWO, format_cards
from matches.games.gouji.engine.hands import (
    JOKERS,
    Hand,
    beats,
    classify,
    is_gouji,
    joker_weight,
    opens_point,
)
from matches.games.gouji.engine.ruleset import RuleSet
from matches.kernel.engine_errors import EngineBug, RuleViolation

THREE, FOUR = 0, 1  # rank indices of 3 and 4
NO_CARDS = (0,) * 15

LEAD, FOLLOW, FINAL, GOUJI, LAST_ANSWER, ANSWERED, OVER = range(7)
PHASE_NAMES = ("lead", "follow", "final", "gouji", "last_answer", "answered", "over")

PLAY, PASS, YIELD = "play", "pass", "yield"

#: a 15-int count tuple, one count a rank (cards.py)
Counts = tuple[int, ...]
#: a count tuple per seat, index 0 unused (NO_CARDS) so that `hands[seat]` reads like the rules
Hands = tuple[Counts, ...]
#: (burner, burned, outcome or None while undecided, whether it counters the burn before it)
BurnEntry = tuple[int, int, str | None, bool]


class Action(NamedTuple):
    seat: int
    kind: str  # PLAY, PASS or YIELD
    cards: Counts | None = None  # count tuple for PLAY


def play(seat: int, cards: Counts) -> Action:
    return Action(seat, PLAY, cards)


@lru_cache(maxsize=None)
def hand_of(counts: Counts) -> Hand:
    """Classify a count tuple once (R6); raises RuleViolation for a non-hand."""
    return classify(counts)


def _top(state: State) -> Hand:
    """The hand on top of the round, in a phase that has one."""
    if state.top is None:
        raise EngineBug(f"no hand on top in {state!r}")
    return state.top


class Table:
    """What does not change during a deal: the rule set, the table's geometry and per-seat
    obligations."""

    __slots__ = (
        "rules",
        "hold",
        "revolution",
        "players",
        "seats",
        "rival",
        "union",
        "k",
        "m",
        "answered",
        "places",
    )

    def __init__(self, rules: RuleSet, hold: tuple[int, ...], revolution: tuple[int, ...]):
        self.rules = rules
        # hold[seat]: rank index the seat must keep for its final hand (R26, R28), or -1
        self.hold = hold
        self.revolution = revolution
        n = rules.players
        self.players = n
        self.seats = rules.seats
        # rival[seat], union[seat]: R2/R45 and R1/R44, index 0 unused
        self.rival = (0, *(seating.head_rival(seat, n) for seat in self.seats))
        self.union = ("", *(seating.union_of(seat, n) for seat in self.seats))
        # k: the seats of a union; a string (串三户, 串四户 at eight seats) is places 1..k (R47)
        self.k = n // 2
        # R48: Gou Ji is in force, and points open, while more than m seats are in play; m = 3
        # when the revolutions leave exactly four seats to play (R56, D37), else 4
        self.m = 3 if n - len(revolution) == 4 else 4
        # R48/D21/D41: the last hands of the first n − 4 finishers are answered (R25)
        self.answered = n - 4
        self.places = tuple(range(1, n + 1))

    def in_force(self, gone_count: int) -> bool:
        """R48: more than m seats in play (Gou Ji in force, points may open)."""
        return self.players - gone_count > self.m


class State:
    __slots__ = (
        "table",
        "hands",  # n + 1 count tuples, hands[0] unused
        "phase",
        "turn",  # seat to act in turn (LEAD, FOLLOW, FINAL, GOUJI, LAST_ANSWER, ANSWERED)
        "top",  # Hand on top of the round, or None
        "owner",  # seat that played `top`
        "passed",  # mask of seats that passed in this round (R16)
        "last_passer",  # seat of the last pass on the current top hand (D2), or 0
        "yielded",  # the head rival yielded on the current top hand (D3)
        "no_final",  # no R16 final chance on this hand (declined R25 answer, D2)
        "gone",  # mask of seats out of play: finished, revolution, false burn, suffocated (D7)
        "gone_count",
        "places",  # n + 1 ints: place fixed for a seat, 0 while open (R30)
        "finished",  # seats in order of playing out
        "points",  # seats that opened a point, in order (R20)
        "no_point",  # mask: opened a point already, or may not (R28a)
        "burner",  # seat whose burn is in progress, or 0
        "burns",  # tuple of [burner, burned, outcome, counter?] tuples, in order started
        "suffocated",  # tuple of (seat, by)
        "hold_pending",  # seat whose last hand before its held 3s is on top (R27), or 0
        "notes",  # tuple of strings
        "late_points",  # mask: points opened by R25 after the head rival finished (D12)
        "filled",  # mask: places filled by D13 when a union strung three, not by play
        "led",  # mask: seats that have had the lead of a round (R34 特点)
        "rival_led",  # mask: seats whose head rival had the lead before they left play (R34, D12)
        "judged",  # mask: seats whose `rival_led` bit is fixed (they left play)
    )
    table: Table
    hands: Hands
    phase: int
    turn: int
    top: Hand | None
    owner: int
    passed: int
    last_passer: int
    yielded: bool
    no_final: bool
    gone: int
    gone_count: int
    places: tuple[int, ...]
    finished: tuple[int, ...]
    points: tuple[int, ...]
    no_point: int
    burner: int
    burns: tuple[BurnEntry, ...]
    suffocated: tuple[tuple[int, int], ...]
    hold_pending: int
    notes: tuple[str, ...]
    late_points: int
    filled: int
    led: int
    rival_led: int
    judged: int

    def copy(self) -> State:
        """A shallow copy to change a few fields of; every field is immutable (spelled out
        because a getattr/setattr loop over the slots was the replay's largest cost)."""
        new = State.__new__(State)
        new.table = self.table
        new.hands = self.hands
        new.phase = self.phase
        new.turn = self.turn
        new.top = self.top
        new.owner = self.owner
        new.passed = self.passed
        new.last_passer = self.last_passer
        new.yielded = self.yielded
        new.no_final = self.no_final
        new.gone = self.gone
        new.gone_count = self.gone_count
        new.places = self.places
        new.finished = self.finished
        new.points = self.points
        new.no_point = self.no_point
        new.burner = self.burner
        new.burns = self.burns
        new.suffocated = self.suffocated
        new.hold_pending = self.hold_pending
        new.notes = self.notes
        new.late_points = self.late_points
        new.filled = self.filled
        new.led = self.led
        new.rival_led = self.rival_led
        new.judged = self.judged
        return new

    # -- read-only helpers --------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def rules(self) -> RuleSet:
        return self.table.rules

    def active(self, seat: int) -> bool:
        return not self.gone >> seat & 1

    def headless(self, seat: int) -> bool:
        """R23: a seat whose head rival is out of play."""
        return bool(self.gone >> self.table.rival[seat] & 1)

    @property
    def seats(self) -> tuple[int, ...]:
        return self.table.seats

    @property
    def in_force(self) -> bool:
        """R48: Gou Ji is in force (more than m seats in play)."""
        return self.table.in_force(self.gone_count)

    def final_order(self) -> list[int]:
        """Seats ordered by the places fixed so far (all of them when the deal is over)."""
        placed = sorted((place, seat) for seat, place in enumerate(self.places) if place)
        return [seat for _, seat in placed]

    def describe(self) -> str:
        return (
            f"<State {PHASE_NAMES[self.phase]} turn={self.turn} owner={self.owner} "
            f"top={self.top and self.top.cards} passed={self.passed:b} gone={self.gone:b}>"
        )

    __repr__ = describe


# ---------------------------------------------------------------------------------------
# Setting up


def hold_ranks(rules: RuleSet, hands: Hands) -> tuple[int, ...]:
    """R26/R28: the rank each seat must keep for its final hand under hold-3, else -1."""
    if not rules.hold_three:
        return (-1,) * (rules.players + 1)
    held = [-1]
    for seat in rules.seats:
        counts = hands[seat]
        if counts[THREE]:
            held.append(THREE)
        elif rules.no_three == "hold_four" and counts[FOUR]:
            held.append(FOUR)
        else:
            # dealt (and bought) no 3: nothing to hold (a record holds the hands after buying)
            held.append(-1)
    return tuple(held)


def start(rules: RuleSet, hands: Hands, leader: int, revolution: Iterable[int] = ()) -> State:
    """The state before the first action. `hands` holds n + 1 count tuples (index 0 unused).
    Setup checks (deck totals, revolution rights) belong to `record.py`."""
    s = State.__new__(State)
    revolution = tuple(revolution)
    s.table = table = Table(rules, hold_ranks(rules, hands), revolution)
    n = table.players
    s.hands = tuple(hands)
    s.top = None
    s.owner = 0
    s.passed = 0
    s.last_passer = 0
    s.yielded = False
    s.no_final = False
    s.gone = 0
    s.gone_count = 0
    s.places = (0,) * (n + 1)
    s.finished = ()
    s.points = ()
    s.no_point = 0
    s.burner = 0
    s.burns = ()
    s.suffocated = ()
    s.hold_pending = 0
    s.notes = ()
    s.late_points = 0
    s.filled = 0
    s.led = 0
    s.rival_led = 0
    s.judged = 0
    places = [0] * (n + 1)
    k = table.k
    for place, seat in enumerate(sorted(revolution), start=k if len(revolution) > 1 else k + 1):
        # R29/R50: one revolutionary does not play and is placed k + 1 (4th of six, 5th of
        # eight); R56/D39: two take k and k + 1, the lower seat k until a union strings (places
        # move to k in `_place_rebels`). Their head rival opens a point automatically, unless it
        # is the other revolutionary (D40), and not under `revolution_contest`, whose points the
        # replay takes from the record's claim.
        s.gone |= 1 << seat
        s.gone_count += 1
        places[seat] = place
        rival = table.rival[seat]
        if rival in revolution:
            continue
        if not rules.revolution_contest and not s.no_point >> rival & 1:
            s.points += (rival,)
            s.no_point |= 1 << rival
    s.places = tuple(places)
    if not 1 <= leader <= n:
        raise RuleViolation(
            "R18", "bad_leader", f"leader must be a seat 1–{n}, not {leader}", leader=leader
        )
    if not s.active(leader):
        leader = _next_active(s, leader)
    s.phase = LEAD
    s.turn = leader
    s.led = 1 << leader
    _check_complete(s)
    return s


# ---------------------------------------------------------------------------------------
# Small helpers on a state being built (they mutate `s`, a fresh copy)


def _next_active(s: State, seat: int) -> int:
    """R17 接风: the next seat after `seat`, in playing order, still in play."""
    n = s.table.players
    for _ in range(n):
        seat = seat % n + 1
        if not s.gone >> seat & 1:
            return seat
    raise EngineBug("no active seat left")


def _lowest_open(places: Sequence[int]) -> int:
    """The lowest place no seat holds (`places` lists one entry a seat, 0 when open)."""
    for place in range(len(places), 0, -1):
        if place not in places:
            return place
    raise EngineBug("no open place")


def _highest_open(places: Sequence[int]) -> int:
    for place in range(1, len(places) + 1):
        if place not in places:
            return place
    raise EngineBug("no open place")


def _set_place(s: State, seat: int, place: int) -> None:
    places = list(s.places)
    places[seat] = place
    s.places = tuple(places)
    s.gone |= 1 << seat
    s.gone_count += 1
    _judge_lead(s, seat)


def _judge_lead(s: State, seat: int) -> None:
    """R34/D12: a special declaration is judged when the declarer leaves play: did the head
    rival have the lead by then? (Kept for every seat; the settlement reads the declarers'.)"""
    s.judged |= 1 << seat
    if s.led >> s.table.rival[seat] & 1:
        s.rival_led |= 1 << seat


def _finish(s: State, seat: int) -> None:
    """R30: a seat played out; it takes the highest open place."""
    _set_place(s, seat, _highest_open(s.places[1:]))
    s.finished += (seat,)
    if s.table.revolution:
        _place_rebels(s)


def _place_rebels(s: State) -> None:
    """R29/R50/R56: a revolutionary takes place k (not k + 1) when the other members of its
    union hold places 1 to k − 1. One revolutionary moves up from k + 1 when k is still open (a
    seat forced out at k took it first, R30); of two, which hold k and k + 1, the one whose
    union strings takes k (D39)."""
    table = s.table
    k = table.k
    places = s.places
    top = [seat for seat in table.seats if 0 < places[seat] < k]
    if len(top) != k - 1:
        return
    for rebel in table.revolution:
        union = table.union[rebel]
        if places[rebel] != k + 1 or any(table.union[t] != union for t in top):
            continue
        others = [t for t in table.seats if table.union[t] == union and t != rebel]
        if sorted(others) != sorted(top):
            continue
        holder = next((t for t in table.seats if places[t] == k), 0)
        if holder and holder not in table.revolution:
            continue
        new = list(places)
        new[rebel] = k
        if holder:
            new[holder] = k + 1
        s.places = tuple(new)
        return


def _force_out(s: State, seat: int) -> None:
    """R22d/R27: out of play at the lowest open place; the remaining cards are void."""
    _set_place(s, seat, _lowest_open(s.places[1:]))
    hands = list(s.hands)
    hands[seat] = NO_CARDS
    s.hands = tuple(hands)


def _check_complete(s: State) -> bool:
    """R30/D13/R47: end the deal when one union holds places 1 to k (串三户, 串四户 at eight
    seats) or one seat is left in play."""
    table = s.table
    n, k, seats = table.players, table.k, table.seats
    places = s.places
    top = [seat for seat in seats if 0 < places[seat] <= k]
    strung = len(top) == k and len({table.union[seat] for seat in top}) == 1
    if not strung and s.gone_count < n - 1:
        return False
    if strung:
        # D13: the other places follow the order of play from the seat after the k-th
        last = next(seat for seat in seats if places[seat] == k)
        order = [(last + i - 1) % n + 1 for i in range(1, n)]
    else:
        order = list(seats)  # one seat is left in play: it takes the last open place
    open_places = list(places)
    for seat in order:
        if not open_places[seat]:
            open_places[seat] = _highest_open(open_places[1:])
            if strung:
                s.filled |= 1 << seat
    s.places = tuple(open_places)
    if table.revolution:
        # The last seat in play may take one of places 1 to k - 1 only now (the others forced
        # out below it, R22d/R27): two revolutionaries' D39 order is decided on the whole top.
        _place_rebels(s)
    for seat in seats:
        if not s.judged >> seat & 1:
            _judge_lead(s, seat)  # the seats left in play, and revolutionaries: the whole deal
    if s.burner:
        # the burner did not play out before the deal ended: its burn came to nothing
        _set_burn_outcome(s, s.burner, "stopped")
        s.burner = 0
    s.phase = OVER
    s.turn = 0
    s.top = None
    return True


def _end_round(s: State, leader: int) -> None:
    """R17: the round is over; `leader` (or the next seat in play after them) leads."""
    if s.gone >> leader & 1:
        leader = _next_active(s, leader)
    s.phase = LEAD
    s.turn = leader
    s.led |= 1 << leader
    s.top = None
    s.owner = 0
    s.passed = 0
    s.last_passer = 0
    s.yielded = False
    s.no_final = False
    s.hold_pending = 0


def _open_point(s: State, seat: int, hand: Hand, *, by_last_answer: bool = False) -> None:
    """R20: `seat`'s point-opening set went unbeaten by its head rival."""
    table = s.table
    if s.no_point >> seat & 1 or not table.in_force(s.gone_count):  # R48: more than m in play
        return
    if not by_last_answer and s.gone >> table.rival[seat] & 1:
        return
    if not opens_point(hand, table.rules):
        return
    s.points += (seat,)
    if s.gone >> table.rival[seat] & 1:
        s.late_points |= 1 << seat
    s.no_point |= 1 << seat


def _advance(s: State, after: int) -> None:
    """R15/R16: the next seat in order after `after` that may still beat the top hand; when
    everyone else has passed, the owner's head rival's final chance (D2), else round over."""
    owner = s.owner
    seat = after
    blocked = s.gone | s.passed
    n = s.table.players
    for _ in range(n - 1):
        seat = seat % n + 1
        if seat == owner:
            break
        if not blocked >> seat & 1:
            s.phase = FOLLOW
            s.turn = seat
            return
    rival = s.table.rival[owner]
    if not s.no_final and not s.gone >> rival & 1 and s.last_passer != rival:
        s.phase = FINAL
        s.turn = rival
        return
    _end_round(s, owner)


def _set_burn_outcome(s: State, burner: int, outcome: str) -> None:
    burns = list(s.burns)
    for i in range(len(burns) - 1, -1, -1):
        if burns[i][0] == burner and burns[i][2] is None:
            burns[i] = (burns[i][0], burns[i][1], outcome, burns[i][3])
            s.burns = tuple(burns)
            return
    raise EngineBug(f"no burn in progress for seat {burner}")


# ---------------------------------------------------------------------------------------
# Applying actions


def apply(state: State, action: Action) -> State:
    """The state after `action`; raises RuleViolation when the action is illegal."""
    seat, kind, cards = action
    if state.phase == OVER:
        raise RuleViolation("R30", "deal_over", "the deal is already complete")
    if seat not in state.table.seats:
        raise RuleViolation("R1", "bad_seat", f"there is no seat {seat!r}")
    if state.gone >> seat & 1:
        raise RuleViolation("R30", "seat_out", f"seat {seat} is out of play", seat=seat)
    if kind == PLAY:
        role = _play_role(state, seat)
        hand = _check_play(state, seat, cards, role)
        return _after_play(state, seat, hand.cards, hand, role)  # hand.cards == cards
    if kind == PASS:
        return _pass(state, seat)
    if kind == YIELD:
        return _yield(state, seat)
    raise RuleViolation(None, "bad_action", f"unknown action kind {kind!r}")


# Roles of a play: what the play means, fixed before the cards are looked at.
R_LEAD, R_ANSWER, R_BURN, R_HEADLESS, R_WINDOW_LEAD = range(5)


def _play_role(state: State, seat: int) -> int:
    """Whether `seat` may play now, and as what; raises RuleViolation if not."""
    phase = state.phase
    if phase == LEAD:
        if seat != state.turn:
            raise RuleViolation(
                "R15",
                "not_your_turn",
                f"seat {state.turn} leads, not seat {seat}",
                seat=seat,
                turn=state.turn,
            )
        return R_LEAD
    if phase == FOLLOW or phase == FINAL or phase == LAST_ANSWER:
        if seat != state.turn:
            if phase == LAST_ANSWER:
                raise RuleViolation(
                    "R25",
                    "not_your_turn",
                    f"seat {state.turn} answers seat {state.owner}'s last hand first",
                    seat=seat,
                    turn=state.turn,
                    owner=state.owner,
                )
            if state.passed >> seat & 1:
                raise RuleViolation(
                    "R16", "already_passed", f"seat {seat} passed in this round", seat=seat
                )
            raise RuleViolation(
                "R15",
                "not_your_turn",
                f"it is seat {state.turn}'s turn, not {seat}'s",
                seat=seat,
                turn=state.turn,
            )
        return R_ANSWER
    if phase == GOUJI or phase == ANSWERED:
        owner = state.owner
        if seat == state.turn:
            return R_WINDOW_LEAD if phase == ANSWERED else R_ANSWER
        if seat == owner:
            raise RuleViolation(
                "R19", "not_your_turn", f"seat {seat} cannot answer its own hand", seat=seat
            )
        if state.passed >> seat & 1:
            raise RuleViolation(
                "R21",
                "passed_may_not_burn",
                f"seat {seat} passed in this round and may not burn",
                seat=seat,
            )
        if state.gone >> state.table.rival[seat] & 1:
            return R_HEADLESS  # D6: not a burn
        if state.table.rules.burn_requires_point and seat not in state.points:
            raise RuleViolation(
                "R21",
                "burn_requires_point",
                f"seat {seat} has opened no point and may not burn",
                seat=seat,
            )
        return R_BURN
    raise EngineBug(f"no play role in phase {phase}")


def _check_play(state: State, seat: int, cards: object, role: int) -> Hand:
    """The hand `seat` plays with `cards`, or RuleViolation (R18, R6, R26, R9–R12)."""
    held = state.hands[seat]
    if type(cards) is not tuple or len(cards) != 15:
        raise RuleViolation("R5", "bad_cards", f"not a card count tuple: {cards!r}")
    try:
        left = tuple(map(sub, held, cards))
    except TypeError:
        raise RuleViolation("R5", "bad_cards", f"not a card count tuple: {cards!r}") from None
    if min(left) < 0:
        raise RuleViolation(
            "R18", "cards_not_held", f"seat {seat} does not hold those cards", seat=seat
        )
    hand = hand_of(cards)
    rank = state.table.hold[seat]
    if rank >= 0 and cards[rank]:
        # R26: the held 3s (or 4s) are the final hand, all of them, pure
        if left != NO_CARDS or hand.size != cards[rank]:
            if rank == THREE:
                raise RuleViolation(
                    "R26",
                    "hold_three",
                    f"seat {seat} must keep its 3s, pure, for its final hand",
                    seat=seat,
                )
            raise RuleViolation(
                "R28",
                "hold_four",
                f"seat {seat} has no 3 and must keep its 4s, pure, for its final hand",
                seat=seat,
            )
    if role == R_LEAD or role == R_WINDOW_LEAD:
        return hand
    top = _top(state)
    if not beats(hand, top, state.table.rules):
        raise _why_not_beaten(hand, top, state.table.rules)
    return hand


def _why_not_beaten(hand: Hand, top: Hand, rules: RuleSet) -> RuleViolation:
    """The rule a failed follow breaks (R52 between joker groups, R9 size, R10–R12 by the top
    hand's joker class)."""
    if rules.joker_groups and hand.kind == JOKERS and top.kind == JOKERS:
        weight, top_weight = joker_weight(hand), joker_weight(top)
        cards, top_cards = format_cards(hand.cards), format_cards(top.cards)
        return RuleViolation(
            "R52",
            "does_not_beat",
            f"a joker group {cards} of weight {weight} does not outweigh the group {top_cards} "
            f"of weight {top_weight} on top (a small joker weighs 1, a big joker 2)",
            weight=weight,
            top=top_weight,
            cards=cards,
            top_cards=top_cards,
        )
    if hand.size != top.size:
        return RuleViolation(
            "R9",
            "size_mismatch",
            f"{hand.size} cards played on a hand of {top.size}",
            size=hand.size,
            top=top.size,
        )
    if top.big:
        return RuleViolation(
            "R12",
            "does_not_beat",
            "a hand holding a big joker cannot be beaten that way",
        )
    if top.small:
        return RuleViolation(
            "R11",
            "does_not_beat",
            "a hand with small jokers needs as many big jokers and a higher rank",
        )
    return RuleViolation("R10", "does_not_beat", "the hand played is not higher than the top hand")


def _after_play(state: State, seat: int, cards: Counts, hand: Hand, role: int) -> State:
    s = state.copy()
    rules = s.table.rules
    if role == R_WINDOW_LEAD:
        # D8: the answerer leads, so the burn window closes and the answer may open a point
        _open_point(s, seat, _top(s), by_last_answer=True)
        _end_round(s, seat)
        role = R_LEAD
    owner = s.owner
    left = tuple(map(sub, s.hands[seat], cards))
    last_hand = left == NO_CARDS

    # --- burns (R21, R22, D4–D6) ---
    was_burner = s.burner
    if was_burner and was_burner != seat:
        # someone else beat the burner's hand: the burn is over (stopped, or interrupted by a
        # counter-burn, which the burner counts as stopped too)
        _set_burn_outcome(s, was_burner, "stopped")
        s.burner = 0
    needs_joker = False
    if role == R_BURN:
        counter = was_burner == owner and was_burner != 0
        s.burns += ((seat, owner, None, counter),)
        s.burner = seat
        needs_joker = rules.burn_first_hand_needs_joker
    elif was_burner == seat:
        needs_joker = True  # R22: one joker every step
    if needs_joker and not last_hand and not (cards[SMALL] or cards[BIG]):
        return _false_burn(s, seat, cards, hand, role)

    # --- hold-3 suffocation (R27) ---
    pending = s.hold_pending
    if pending and pending != seat:
        s.suffocated += ((pending, seat),)
        s.hold_pending = 0
        if not rules.suffocated_play_on:
            _force_out(s, pending)

    # --- the cards leave the hand ---
    hands = list(s.hands)
    hands[seat] = left
    s.hands = tuple(hands)
    if rules.hold_four_before_point and cards[FOUR] and seat not in s.points:
        s.no_point |= 1 << seat  # R28a: a 4 before a point forfeits the point
    rank = s.table.hold[seat]
    if rank >= 0 and not last_hand and left[rank] == sum(left):
        s.hold_pending = seat  # R27: only the held 3s are left

    s.top = hand
    s.owner = seat
    s.last_passer = 0
    s.yielded = False
    s.no_final = False
    if last_hand:
        if s.burner == seat:
            s.burner = 0
            _set_burn_outcome(s, seat, "counter" if _is_counter(s, seat) else "success")
        _finish(s, seat)
    if _check_complete(s):
        return s

    table = s.table
    rival = table.rival[seat]
    rival_in = not s.gone >> rival & 1
    if state.phase == LAST_ANSWER:
        # D8: the head rival answered the finisher's last hand
        if last_hand:
            _end_round(s, seat)  # the lead passes on (R17)
            return s
        _open_burn_window(s, seat, hand)
        return s
    if last_hand:
        # R25 (not used with hold-3, whose last hand is a lead of pure 3s)
        if (
            rules.last_hand_answer
            and not rules.hold_three
            and len(s.finished) <= table.answered
            and rival_in
        ):
            s.phase = LAST_ANSWER  # R25
            s.turn = rival
            return s
        _advance(s, seat)  # normal order resumes after the finisher
        return s
    if table.in_force(s.gone_count) and rival_in and is_gouji(hand):
        s.phase = GOUJI  # R19, R48
        s.turn = rival
        return s
    _advance(s, seat)
    return s


def _is_counter(s: State, seat: int) -> bool:
    for burner, _, outcome, counter in reversed(s.burns):
        if burner == seat and outcome is None:
            return counter
    return False


def _open_burn_window(s: State, answerer: int, answer: Hand) -> None:
    """D8: after a last-hand answer the others may only burn it (a Gou Ji hand while Gou Ji is
    in force); the window closes when the answerer leads or nobody left could burn, and the
    answer then opens its point."""
    if s.table.in_force(s.gone_count) and is_gouji(answer):
        s.phase = ANSWERED
        s.turn = answerer
        if _anyone_could_answer(s, answerer):
            return
    _open_point(s, answerer, answer, by_last_answer=True)
    _end_round(s, answerer)


def _anyone_could_answer(s: State, answerer: int) -> bool:
    """D8: is any seat left that may still answer in the burn window, whatever its cards? (The
    reader does not close the window on the strength of the cards it knows.) Mirrors
    `_play_role` in ANSWERED: in play, not the answerer, not passed in the round; a headless
    seat may answer (D6), any other seat burns (R21, with `burn_requires_point` only after a
    point)."""
    blocked = s.gone | s.passed | 1 << answerer
    needs_point = s.table.rules.burn_requires_point
    rival = s.table.rival
    for seat in s.table.seats:
        if blocked >> seat & 1:
            continue
        if not needs_point or s.gone >> rival[seat] & 1 or seat in s.points:
            return True
    return False


def _false_burn(s: State, seat: int, cards: Counts, hand: Hand, role: int) -> State:
    """R22d/D5: a burner's step without a joker."""
    rules = s.table.rules
    _set_burn_outcome(s, seat, "false")
    s.burner = 0
    if rules.false_burn == "place":
        # the hand is void with the rest of the cards; out at the lowest open place
        _force_out(s, seat)
        s.notes += (f"seat {seat} burned falsely (R22d) and takes place {s.places[seat]}",)
        if not _check_complete(s):
            _end_round(s, seat)
        return s
    # false_burn = "tribute": the burner owes tribute and the hand stands as an ordinary play
    owed = rules.false_burn_cards
    s.notes += (f"seat {seat} burned falsely (R22d) and owes {owed} burn tribute",)
    return _after_play(_unburnt(s), seat, cards, hand, R_LEAD if role == R_LEAD else R_ANSWER)


def _unburnt(s: State) -> State:
    """`s` as a state whose phase lets the false burner's hand stand as an ordinary play."""
    t = s.copy()
    if t.phase in (GOUJI, ANSWERED):
        t.phase = FOLLOW
    return t


def _not_leading(state: State, seat: int) -> None:
    """R15: the leader may not pass or yield (`must_lead`); another seat has no turn to pass
    in while someone leads (`not_your_turn`)."""
    phase = state.phase
    if phase == LEAD:
        if seat != state.turn:
            raise RuleViolation(
                "R15",
                "not_your_turn",
                f"seat {state.turn} leads, not seat {seat}",
                seat=seat,
                turn=state.turn,
            )
        raise RuleViolation(
            "R15", "must_lead", f"seat {seat} leads and must play a hand", seat=seat
        )
    if phase == ANSWERED and seat == state.turn:
        raise RuleViolation(
            "R15", "must_lead", f"seat {seat} leads and must play a hand", seat=seat
        )


def _pass(state: State, seat: int) -> State:
    phase = state.phase
    if phase == LEAD or phase == ANSWERED:
        _not_leading(state, seat)
    if phase == GOUJI or phase == ANSWERED:
        if phase == GOUJI and seat == state.turn:
            # R20/D3: the head rival lets the Gou Ji hand stand: the exchange is over
            s = state.copy()
            _open_point(s, state.owner, _top(state))
            _end_round(s, state.owner)
            return s
        if seat == state.owner:
            raise RuleViolation(
                "R19", "not_your_turn", f"seat {seat} cannot pass on its own hand", seat=seat
            )
        if state.passed >> seat & 1:
            raise RuleViolation(
                "R16", "already_passed", f"seat {seat} passed in this round", seat=seat
            )
        # D1: a written non-rival pass counts as an R16 pass: no burning later in the round
        s = state.copy()
        s.passed |= 1 << seat
        if phase == ANSWERED and not _anyone_could_answer(s, s.owner):
            _open_burn_window(s, s.owner, _top(s))  # nobody left who could burn: it closes
        return s
    if seat != state.turn:
        if phase == LAST_ANSWER:
            raise RuleViolation(
                "R25",
                "not_your_turn",
                f"seat {state.turn} answers the last hand first",
                seat=seat,
                turn=state.turn,
            )
        if state.passed >> seat & 1:
            raise RuleViolation(
                "R16", "already_passed", f"seat {seat} passed in this round", seat=seat
            )
        raise RuleViolation(
            "R15",
            "not_your_turn",
            f"it is seat {state.turn}'s turn, not {seat}'s",
            seat=seat,
            turn=state.turn,
        )
    s = state.copy()
    s.passed |= 1 << seat
    s.last_passer = seat
    if phase == FINAL:
        _end_round(s, s.owner)  # D2: after the final chance is declined, the round ends
        return s
    if phase == LAST_ANSWER:
        finisher = s.owner
        if s.table.in_force(s.gone_count) and is_gouji(_top(s)):
            # D8: a pass on a Gou Ji last hand ends the round; the finisher may open a point
            _open_point(s, finisher, _top(s), by_last_answer=True)
            _end_round(s, finisher)
            return s
        s.no_final = True  # D2: no final chance after a declined last-hand answer
        _advance(s, finisher)
        return s
    _advance(s, seat)
    return s


def _yield(state: State, seat: int) -> State:
    phase = state.phase
    if phase == LEAD or phase == ANSWERED:
        _not_leading(state, seat)
    if phase == LAST_ANSWER:
        raise RuleViolation("R25", "no_yield", "there is no yielding on a last-hand answer (D3)")
    if seat != state.table.rival[state.owner] or phase == ANSWERED:
        raise RuleViolation(
            "R19",
            "yield_not_head_rival",
            f"only the head rival of seat {state.owner} may yield",
            owner=state.owner,
        )
    if seat != state.turn:
        raise RuleViolation(
            "R15",
            "not_your_turn",
            f"it is seat {state.turn}'s turn, not {seat}'s",
            seat=seat,
            turn=state.turn,
        )
    if state.yielded:
        raise RuleViolation(
            "R19",
            "already_yielded",
            "the head rival yields at most once a hand (D3)",
        )
    if phase == GOUJI:
        s = state.copy()
        s.yielded = True  # D3: burners may answer first; the head rival decides again
        return s
    # D3: in normal order a yield acts as a pass
    s = _pass(state, seat)
    s.yielded = s.phase != LEAD
    return s


# ---------------------------------------------------------------------------------------
# Generating legal actions


def hands_in(counts: Counts, size: int = 0) -> Iterator[Counts]:
    """Every hand (R6) that can be made from `counts`, as count tuples; only those of
    `size` cards when size > 0."""
    twos, small, big = counts[TWO], counts[SMALL], counts[BIG]
    extras = [
        (t, sj, bj) for t in range(twos + 1) for sj in range(small + 1) for bj in range(big + 1)
    ]
    base = [0] * 15
    for rank in range(12):  # natural hands: rank 3..A plus any 2s and jokers
        have = counts[rank]
        for n in range(1, have + 1):
            for t, sj, bj in extras:
                if size and n + t + sj + bj != size:
                    continue
                c = base[:]
                c[rank] = n
                c[TWO], c[SMALL], c[BIG] = t, sj, bj
                yield tuple(c)
    for t, sj, bj in extras:  # twos hands and jokers-only hands
        if t + sj + bj == 0 or (size and t + sj + bj != size):
            continue
        c = base[:]
        c[TWO], c[SMALL], c[BIG] = t, sj, bj
        yield tuple(c)


def playable(state: State, seat: int) -> list[Counts]:
    """Every card set `seat` may play now (none when it may not play)."""
    if state.phase == OVER or state.gone >> seat & 1:
        return []
    try:
        role = _play_role(state, seat)
    except RuleViolation:
        return []
    size = 0 if role in (R_LEAD, R_WINDOW_LEAD) else _top(state).size
    if size and state.table.rules.joker_groups and _top(state).kind == JOKERS:
        size = 0  # R52: a joker group may answer a joker group of any size
    found = []
    for cards in hands_in(state.hands[seat], size):
        try:
            _check_play(state, seat, cards, role)
        except RuleViolation:
            continue
        found.append(cards)
    return found


def may_burn(state: State, seat: int) -> bool:
    """Would a play by `seat` now be a burn (R21), cards permitting?"""
    if state.phase == OVER or state.gone >> seat & 1:
        return False
    try:
        return _play_role(state, seat) == R_BURN
    except RuleViolation:
        return False


def legal_actions(state: State) -> list[Action]:
    """Every action `apply` accepts in `state` (and no other)."""
    if state.phase == OVER:
        return []
    actions: list[Action] = []
    for seat in state.table.seats:
        if state.gone >> seat & 1:
            continue
        actions.extend(Action(seat, PLAY, cards) for cards in playable(state, seat))
        for kind in (PASS, YIELD):
            try:
                apply(state, Action(seat, kind, None))
            except RuleViolation:
                continue
            actions.append(Action(seat, kind, None))
    return actions
