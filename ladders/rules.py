"""The 擂台赛 (challenge ladder) as a Qingdao club league runs it: pure Python, no Django.

Eight title slots are defended: one 主将 (chief), two 副将 (vice) and five 先锋 (vanguard).
A season is held in quarterly sessions. In a session the challengers (every team without a
title) beyond five first play a drawn knockout down to five; each of the five then challenges
every 先锋 in a drawn order; a challenger that beat at least three 先锋 challenges both 副将,
and one that beat both 副将 challenges the 主将. Titles change hands when the session closes
(`titles_after_session`). A challenge is best of three 局; a 局 is four 把 (deals) and the
higher total wins it, a tie adds one 把 at a time until the totals differ. docs/ladder.md says
why each choice the league's text leaves open was made the way it is.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

Team = TypeVar("Team", bound=Hashable)

DEALS_PER_GAME = 4  # 一局四把
GAMES_TO_WIN = 2  # 三局两胜
CHALLENGERS_PER_SESSION = 5
VANGUARD_WINS_FOR_VICE = 3
VICE_WINS_FOR_CHIEF = 2


class LadderError(ValueError):
    """A ladder result or step that the rules do not allow; the message says which rule (in
    English, for logs and tests). `code` and `params` let the service say it in the user's
    language: the rules know no Django and no translations."""

    def __init__(self, message: str, code: str = "", **params: int):
        super().__init__(message)
        self.code = code
        self.params = params


class Rank(enum.StrEnum):
    CHIEF = "chief"  # 主将
    VICE = "vice"  # 副将
    VANGUARD = "vanguard"  # 先锋


# League points for winning a challenge against a title, to whichever side wins it.
POINTS = {Rank.CHIEF: 6, Rank.VICE: 3, Rank.VANGUARD: 1}


@dataclass(frozen=True, order=True)
class Slot:
    """One title: its rank and its number within the rank (副将 1 and 2, 先锋 1–5)."""

    rank: Rank
    number: int

    @property
    def key(self) -> str:
        return f"{self.rank}-{self.number}"

    @classmethod
    def from_key(cls, key: str) -> Slot:
        rank, _, number = key.partition("-")
        slot = cls(Rank(rank), int(number))
        if slot not in SLOTS:
            raise LadderError(f"no title {key!r}")
        return slot


# Top to bottom: the order of the seeding and of the titles' hand-over.
SLOTS: tuple[Slot, ...] = (
    Slot(Rank.CHIEF, 1),
    Slot(Rank.VICE, 1),
    Slot(Rank.VICE, 2),
    *(Slot(Rank.VANGUARD, n) for n in range(1, 6)),
)
VANGUARDS = tuple(s for s in SLOTS if s.rank is Rank.VANGUARD)
VICES = tuple(s for s in SLOTS if s.rank is Rank.VICE)
CHIEF = SLOTS[0]


# --- one 局, one challenge -------------------------------------------------------------------


def game_winner(deals: Sequence[tuple[int, int]]) -> int | None:
    """0 (first side) or 1 (second side) when the 局's deals decide it, None while it is still
    open. Each deal is (first side's score, second side's score). After four deals the higher
    total wins; a tie adds one deal at a time. A deal after the 局 was decided is refused."""
    first = second = 0
    for number, (a, b) in enumerate(deals, start=1):
        if number > DEALS_PER_GAME and first != second:
            raise LadderError(
                f"the 局 was decided after deal {number - 1}; deal {number} is one too many",
                "deal_too_many",
                deal=number - 1,
            )
        first, second = first + a, second + b
    if len(deals) < DEALS_PER_GAME or first == second:
        return None
    return 0 if first > second else 1


def challenge_winner(games: Sequence[Sequence[tuple[int, int]]]) -> int | None:
    """0 or 1 once a side has won two 局, None while the challenge is open. Refuses a 局 after
    the challenge was decided and a 局 that starts before the one before it was decided."""
    won = [0, 0]
    for number, deals in enumerate(games, start=1):
        if GAMES_TO_WIN in won:
            raise LadderError(
                f"the challenge was decided after 局 {number - 1}; 局 {number} is one too many",
                "game_too_many",
                game=number - 1,
            )
        try:
            winner = game_winner(deals)
        except LadderError as error:
            # Say which 局: the 局 alone does not know its number.
            raise LadderError(str(error), error.code, game=number, **error.params) from None
        if winner is None:
            if number < len(games):
                raise LadderError(
                    f"局 {number} is not decided, so 局 {number + 1} cannot start",
                    "game_open",
                    game=number,
                )
            return None
        won[winner] += 1
    return won.index(GAMES_TO_WIN) if GAMES_TO_WIN in won else None


# --- seeding and the session's draw ----------------------------------------------------------


def seed_titles(ranking: Sequence[Team]) -> dict[Slot, Team]:
    """The titles from a ranking (last season's points table, best first): 1st 主将, 2nd and
    3rd 副将, 4th to 8th 先锋. Needs eight distinct teams."""
    if len(set(ranking)) != len(ranking):
        raise LadderError("a team appears twice in the seeding", "seed_twice")
    if len(ranking) < len(SLOTS):
        raise LadderError(
            f"the seeding needs {len(SLOTS)} teams for the eight titles, not {len(ranking)}",
            "seed_short",
            n=len(ranking),
        )
    return dict(zip(SLOTS, ranking))


def knockout_round(
    challengers: Sequence[Team], rng: random.Random
) -> tuple[list[tuple[Team, Team]], list[Team]]:
    """One round of the drawn knockout that brings the challengers down to five: as many
    drawn pairs as remove the surplus (at most half the field a round), the rest go through.
    Returns (pairs, teams through without playing). No pairs once five or fewer are left."""
    surplus = len(challengers) - CHALLENGERS_PER_SESSION
    if surplus <= 0:
        return [], list(challengers)
    drawn = list(challengers)
    rng.shuffle(drawn)
    matches = min(surplus, len(drawn) // 2)
    pairs = [(drawn[2 * i], drawn[2 * i + 1]) for i in range(matches)]
    return pairs, drawn[2 * matches :]


def vanguard_schedule(
    challengers: Sequence[Team], rng: random.Random
) -> list[list[tuple[Team, Slot]]]:
    """The 先锋 stage: each challenger (five at most) meets every 先锋 once. Five rounds; in a
    round each 先锋 defends at most once (a drawn Latin square: challenger i meets the
    先锋 drawn at position (i + round) mod 5)."""
    if len(challengers) > CHALLENGERS_PER_SESSION:
        raise LadderError("more than five challengers: play the knockout first")
    order = list(VANGUARDS)
    rng.shuffle(order)
    teams = list(challengers)
    rng.shuffle(teams)
    size = len(VANGUARDS)
    return [[(team, order[(i + r) % size]) for i, team in enumerate(teams)] for r in range(size)]


def next_challenges(
    vanguard_wins: int, vice_wins: int, *, vice_played: int, chief_played: bool
) -> list[Rank]:
    """What a challenger has earned and not yet played: both 副将 after three 先锋 wins, the
    主将 after beating both 副将."""
    earned: list[Rank] = []
    if vanguard_wins >= VANGUARD_WINS_FOR_VICE:
        earned += [Rank.VICE] * (len(VICES) - vice_played)
    if vice_wins >= VICE_WINS_FOR_CHIEF and not chief_played:
        earned.append(Rank.CHIEF)
    return earned


# --- the session's close: titles and points --------------------------------------------------


@dataclass(frozen=True)
class Outcome(Generic[Team]):
    """A decided challenge against a title: who challenged, which title, who held it, who won,
    and the challenge's 局 and 把 margins (the challenger's view) for ties between claimants."""

    challenger: Team
    slot: Slot
    holder: Team
    challenger_won: bool
    game_margin: int = 0
    deal_margin: int = 0


def titles_after_session(
    holders: dict[Slot, Team], outcomes: Iterable[Outcome[Team]]
) -> dict[Slot, Team]:
    """The titles when a session closes. From the 主将 down, a title goes to a challenger that
    beat its holder this session and holds no title yet; when several did, the one with the
    most challenge wins this session, then the best 局 margin, then the best 把 margin, then
    the one that won it first. A holder that loses its title returns to the challengers; a
    challenger takes the highest title it won, so a title it also won lower down goes to the
    next claimant (or stays with its holder)."""
    outcomes = list(outcomes)
    wins: dict[Team, int] = {}
    for o in outcomes:
        if o.challenger_won:
            wins[o.challenger] = wins.get(o.challenger, 0) + 1
    result = dict(holders)
    promoted: set[Team] = set()
    for slot in SLOTS:
        claims = [
            (i, o)
            for i, o in enumerate(outcomes)
            if o.slot == slot
            and o.challenger_won
            and o.holder == holders.get(slot)
            and o.challenger not in promoted
        ]
        if not claims:
            continue
        _, best = min(
            claims,
            key=lambda c: (-wins[c[1].challenger], -c[1].game_margin, -c[1].deal_margin, c[0]),
        )
        result[slot] = best.challenger
        promoted.add(best.challenger)
    return result


def points_table(outcomes: Iterable[Outcome[Team]]) -> dict[Team, int]:
    """League points: a challenge won against a 先锋 title is worth 1, a 副将 title 3, the
    主将 6, to whichever side wins it (the defender keeps its title and scores)."""
    table: dict[Team, int] = {}
    for o in outcomes:
        winner = o.challenger if o.challenger_won else o.holder
        table[winner] = table.get(winner, 0) + POINTS[o.slot.rank]
    return table


def forfeit_winner(no_shows: tuple[int, int]) -> int | None:
    """A challenge's no-shows, (first side, second side): a side's first no-show reschedules
    the challenge, its second forfeits it to the other side. When both sides reach two, nobody
    wins (the holder keeps its title, nobody scores): returns None then as while nothing is
    forfeited; `both_forfeit` tells the two apart."""
    first, second = no_shows
    if min(first, second) < 0:
        raise LadderError("a no-show count cannot be negative")
    if first >= 2 and second < 2:
        return 1
    if second >= 2 and first < 2:
        return 0
    return None


def both_forfeit(no_shows: tuple[int, int]) -> bool:
    return min(no_shows) >= 2
