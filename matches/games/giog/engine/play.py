"""Playing a hand trick by trick (G8-G12).

`HandState.apply(seat, pieces)` plays one action and raises `RuleViolation` when it breaks a
rule, leaving the state as it was. The replay (`replay.py`) and the self-play bots
(`selfplay.py`) share this one implementation of the rules.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from matches.kernel.engine_errors import EngineBug, RuleViolation

from .combinations import Combination, classify, combinations_in
from .pieces import describe


@dataclass
class Trick:
    leader: int
    lead: Combination
    #: seats still to follow, in playing order round the table from the leader (G8)
    followers: list[int]
    #: G12: the trick that empties every hand is the last one
    is_last: bool
    plays: list[tuple[int, str]] = field(default_factory=list)
    best_seat: int = 0
    best_strength: int = 0

    @property
    def size(self) -> int:
        return self.lead.size


class HandState:
    def __init__(
        self,
        players: int,
        hands: dict[int, str],
        leader: int,
        must_compete: bool = False,
        tie_order: str = "seat",
    ):
        self.players = players
        self.hands = {seat: Counter(pieces) for seat, pieces in hands.items()}
        self.must_compete = must_compete
        self.tie_order = tie_order
        self.next_leader = leader
        self.trick: Trick | None = None
        self.tricks: list[dict[str, int]] = []
        self.won = {seat: 0 for seat in range(1, players + 1)}
        self.beheaded: set[int] = set()

    # -- reading the state -------------------------------------------------------------------

    @property
    def complete(self) -> bool:
        """G10: every piece in play has been played."""
        return self.trick is None and not any(sum(h.values()) for h in self.hands.values())

    def to_act(self) -> int | None:
        if self.complete:
            return None
        if self.trick is None:
            return self.next_leader
        return self.trick.followers[len(self.trick.plays) - 1]

    @property
    def open_trick(self) -> Trick:
        """The trick being played, in a step that has one."""
        if self.trick is None:
            raise EngineBug("no trick is open")
        return self.trick

    def hand_size(self, seat: int) -> int:
        return sum(self.hands[seat].values())

    def would_take(self, seat: int, strength: int) -> bool:
        """Whether a competing play of `strength` by `seat` would now win the trick (G9)."""
        trick = self.open_trick
        if strength != trick.best_strength:
            return strength > trick.best_strength
        if trick.best_seat == trick.leader:
            return False  # on a tie the trick-starter always wins
        if self.tie_order == "seat":
            return seat < trick.best_seat
        return False  # tie_order "play": the earlier play keeps the trick

    def winning_plays(self, seat: int) -> list[str]:
        """The competing combinations `seat` holds that would take the trick now (G8)."""
        trick = self.open_trick
        return [
            pieces
            for pieces, combo in combinations_in(self.hands[seat], trick.lead.kind, trick.size)
            if self.would_take(seat, combo.strength)
        ]

    # -- playing -----------------------------------------------------------------------------

    def apply(self, seat: int, pieces: str) -> None:
        if self.complete:
            raise RuleViolation(
                "G10", "hand_over", "the hand is over: every piece in play has been played"
            )
        if self.trick is None:
            self._lead(seat, pieces)
        else:
            self._follow(seat, pieces)

    def _check_holds(self, seat: int, pieces: str) -> None:
        missing = Counter(pieces) - self.hands[seat]
        if missing:
            names = ", ".join(describe(p) for p in sorted(missing.elements()))
            raise RuleViolation(
                "G4",
                "not_in_hand",
                f"seat {seat} played {pieces} but does not hold {names}",
                seat=seat,
            )

    def _take_from_hand(self, seat: int, pieces: str) -> None:
        self.hands[seat].subtract(pieces)
        # G12: a General in the first or last trick, whatever it is played as, beheads.
        if ("K" in pieces or "k" in pieces) and (not self.tricks or self.open_trick.is_last):
            self.beheaded.add(seat)

    def _lead(self, seat: int, pieces: str) -> None:
        if seat != self.next_leader:
            raise RuleViolation(
                "G10",
                "out_of_turn",
                f"seat {seat} played but seat {self.next_leader} leads this trick",
                seat=seat,
                turn=self.next_leader,
            )
        if not pieces:
            raise RuleViolation("G8", "empty_play", f"seat {seat} led no pieces", seat=seat)
        self._check_holds(seat, pieces)
        lead = classify(pieces)
        if lead is None:
            raise RuleViolation(
                "G8",
                "not_a_combination",
                f"seat {seat} led {pieces}, which is no combination (G5-G7): "
                "a lead must be a Liab, Dui, Giog or Mui of one colour",
                seat=seat,
            )
        others = [(seat + k - 1) % self.players + 1 for k in range(1, self.players)]
        self.trick = Trick(
            leader=seat,
            lead=lead,
            followers=others,
            is_last=self.hand_size(seat) == lead.size,
            best_seat=seat,
            best_strength=lead.strength,
        )
        self.trick.plays.append((seat, pieces))
        self._take_from_hand(seat, pieces)

    def _follow(self, seat: int, pieces: str) -> None:
        trick = self.open_trick
        expected = self.to_act()
        if seat != expected:
            raise RuleViolation(
                "G8",
                "out_of_turn",
                f"seat {seat} played but it is seat {expected}'s turn",
                seat=seat,
                turn=expected,
            )
        if len(pieces) != trick.size:
            raise RuleViolation(
                "G8",
                "size_mismatch",
                f"seat {seat} played {len(pieces)} piece(s) on a lead of {trick.size}",
                seat=seat,
                size=len(pieces),
                lead=trick.size,
            )
        self._check_holds(seat, pieces)
        combo = classify(pieces)
        takes = (
            combo is not None
            and combo.kind == trick.lead.kind
            and self.would_take(seat, combo.strength)
        )
        if self.must_compete and not takes:
            winners = self.winning_plays(seat)
            if winners:
                raise RuleViolation(
                    "G8",
                    "must_compete",
                    f"seat {seat} holds {winners[0]}, which beats every play "
                    f"so far, and must play a winning {trick.lead.name}",
                    seat=seat,
                )
        trick.plays.append((seat, pieces))
        if takes and combo is not None:
            trick.best_seat, trick.best_strength = seat, combo.strength
        self._take_from_hand(seat, pieces)
        if len(trick.plays) == self.players:
            self._close_trick()

    def _close_trick(self) -> None:
        trick = self.open_trick
        taken = sum(len(pieces) for _, pieces in trick.plays)
        if taken != trick.size * self.players:
            raise EngineBug(f"trick closed with {taken} pieces from {self.players} players")
        self.won[trick.best_seat] += taken
        self.tricks.append({"leader": trick.leader, "winner": trick.best_seat, "pieces": taken})
        self.next_leader = trick.best_seat
        self.trick = None
