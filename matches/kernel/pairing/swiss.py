"""Team Swiss pairing (瑞士制) by cost-based matching.

Every round is one minimum-cost perfect matching over the unions whose edge costs rank the
criteria strictly (see `matching.combine_costs`):

1. no rematch (and no second bye),
2. no two unions of one club (when the event keeps clubs apart: `avoid_clubs`), as Tabbycat
   weighs institutions: below rematches, above any move between score groups,
3. the bye, if any, to a union with the lowest score possible (as FIDE C.04.3 C.5),
4. the smallest sum of score differences across tables,
5. seat balance (which union takes side A),
6. the smallest sum of squared score differences (one union floating two groups is worse than
   two unions floating one),
7. in a score group, the top half meets the bottom half (the classic Swiss fold);
   of the unions that could take the bye, the lowest-placed takes it.

Small and mid-sized events (up to `EXACT_LIMIT` unions) are matched in one piece, over every
possible pair. Above that, Edmonds' algorithm in Python is too slow for the 2 s a round the
organisers need at 3,000+ unions, so the score-ordered list is cut into even chunks of about
`CHUNK_SIZE` and each chunk is matched exactly over pairs at most `WINDOW` places apart
(inside each score group, unions that want side A alternate with those that want side B, so
every chunk can balance seats). A chunk that cannot avoid a rematch grows (wider
window, then the next chunk, then the previous one) until it can; a chunk whose score
differences exceed its neighbour pairing grows too, up to `GROWTH` chunks.

Why this loses nothing: pairing neighbours in score order is optimal when rematches are
ignored, and every even chunk of the ordered list can still pair its neighbours, so cutting
never raises that bound. Each round reports the bound (`score_diff_lower_bound`) next to what
it achieved; when they are equal and there is no rematch, the round is optimal on the first two
criteria. Where the bound is out of reach because rematches force floats, `bench/seating.py
--check-exact` matches the same standings in one piece and shows the same figures.
"""

from __future__ import annotations

import enum
import random
import time
from dataclasses import replace
from typing import Any, Final, Hashable, Iterable

from . import types as flags
from .matching import min_cost_perfect_matching
from .sides import against_preference, assign_sides, desire_for_a, seat_conflict
from .types import SIDE_A, SIDE_B, Draw, Entrant, Pairing, SeatingError

EXACT_LIMIT = 128
CHUNK_SIZE = 48
WINDOW = 12
GROWTH = 4  # a chunk grows to at most this many chunks to reach the neighbour-pairing bound


class _ByeSlot(enum.Enum):
    """The extra node that makes an odd field even; whoever is matched with it sits out. One
    enum member, so that `x is BYE_SLOT` tells the type checker which of the two `x` is."""

    SLOT = "BYE"

    def __repr__(self) -> str:
        return "BYE"


BYE_SLOT: Final = _ByeSlot.SLOT
#: a node of the matching: a union, or the bye
Slot = Entrant | _ByeSlot
Pair = tuple[Slot, Slot]


def pair_swiss(
    entrants: Iterable[Entrant],
    *,
    round_number: int,
    seed: int = 0,
    seeded: bool = True,
    exact_limit: int = EXACT_LIMIT,
    chunk_size: int = CHUNK_SIZE,
    window: int = WINDOW,
    avoid_clubs: bool = True,
) -> Draw:
    """Pair one Swiss round. Round 1 is seeded (by `rank`) or random from `seed`.

    `avoid_clubs`: unions of one club meet only when every other draw would need a rematch
    (False: clubs are ignored, a meeting is only flagged)."""
    entrants = list(entrants)
    _check(entrants)
    started = time.perf_counter()
    rng = random.Random(seed)
    if not avoid_clubs:
        # The matching never sees a club; `annotate` still flags the meetings from the originals.
        originals = {e.id: e for e in entrants}
        entrants = [replace(e, club=None) for e in entrants]
    if round_number == 1:
        pairs, method, chunks = _first_round(entrants, rng, seeded, exact_limit), "first-round", 1
    else:
        order = sorted(entrants, key=lambda e: (-e.score, e.rank, str(e.id)))
        if len(order) <= exact_limit:
            exact = _match_block(order, order, None)
            if exact is None:  # every pair is an edge: a perfect matching always exists
                raise SeatingError("the field could not be paired", code="unpairable")
            pairs, chunks = exact, 1
            method = "exact"
        else:
            pairs, chunks = _match_in_chunks(_interleave_wishes(order), chunk_size, window)
            method = "chunked"
    if not avoid_clubs:
        pairs = [(_original(x, originals), _original(y, originals)) for x, y in pairs]
    draw = _finish(pairs, rng, first_round=round_number == 1, seeded=seeded)
    draw.quality.update(method=method, chunks=chunks)
    draw.quality["seconds"] = round(time.perf_counter() - started, 4)
    return draw


def _original(slot: Slot, originals: dict[Hashable, Entrant]) -> Slot:
    return slot if slot is BYE_SLOT else originals.get(slot.id, slot)


def _check(entrants: list[Entrant]) -> None:
    if len(entrants) < 2:
        raise SeatingError("a round needs at least two unions", code="too_few", at_least=2)
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise SeatingError("the same union is entered twice", code="entered_twice")


# --- round 1 ----------------------------------------------------------------------------


def _first_round(
    entrants: list[Entrant], rng: random.Random, seeded: bool, exact_limit: int
) -> list[Pair]:
    """Seeded: the top half meets the bottom half (1 v n/2+1, ...). Random: a seeded shuffle.
    With an odd field the last in the order sits out. Unions of one club that the fold puts
    together are parted by `_part_clubs` (clubs set to None switch this off)."""
    order = sorted(entrants, key=lambda e: (e.rank, str(e.id)))
    if not seeded:
        rng.shuffle(order)
    pairs: list[Pair] = []
    if len(order) % 2:
        pairs.append((order.pop(), BYE_SLOT))
    half = len(order) // 2
    tops, bottoms = order[:half], order[half:]
    if any(_same_club(x, y) for x, y in zip(tops, bottoms)):
        bottoms = _part_clubs(tops, bottoms, exact_limit)
    for top, bottom in zip(tops, bottoms):
        pairs.append((top, bottom))
    return pairs


def _same_club(x: Slot, y: Slot) -> bool:
    if x is BYE_SLOT or y is BYE_SLOT:
        return False
    return x.club is not None and x.club == y.club


def _part_clubs(tops: list[Entrant], bottoms: list[Entrant], exact_limit: int) -> list[Entrant]:
    """Round 1: re-order the bottom half so that no table seats two unions of one club, moving
    each bottom union as few tables as possible. Small fields: an exact matching over
    (club meeting, tables moved); large ones: swap with the nearest bottom union that parts
    both tables."""
    n = len(tops)
    if 2 * n <= exact_limit:
        nodes = [("t", i) for i in range(n)] + [("b", j) for j in range(n)]
        costs: dict[tuple[tuple[str, int], tuple[str, int]], tuple[int, ...]] = {}
        for i in range(n):
            for j in range(n):
                costs[(("t", i), ("b", j))] = (
                    1 if _same_club(tops[i], bottoms[j]) else 0,
                    abs(i - j),
                )
        # Tops never meet tops: only top-bottom edges exist, so the matching is a permutation.
        matched = min_cost_perfect_matching(nodes, costs)
        if matched is not None:
            placed = list(bottoms)
            for u, v in matched:
                top, bottom = (u, v) if u[0] == "t" else (v, u)
                placed[top[1]] = bottoms[bottom[1]]
            return placed
    bottoms = list(bottoms)
    for i in range(n):
        if not _same_club(tops[i], bottoms[i]):
            continue
        for distance in range(1, n):
            for j in (i + distance, i - distance):
                if (
                    0 <= j < n
                    and not _same_club(tops[i], bottoms[j])
                    and not _same_club(tops[j], bottoms[i])
                ):
                    bottoms[i], bottoms[j] = bottoms[j], bottoms[i]
                    break
            else:
                continue
            break
    return bottoms


# --- later rounds: exact matching --------------------------------------------------------


def _pair_costs(
    x: Entrant,
    y: Slot,
    position: dict[Hashable, int],
    group_half: dict[int, int],
    bye_position: tuple[int, int],
) -> tuple[int, ...]:
    """`bye_position`: the lowest score of the field and the last place in it."""
    if y is BYE_SLOT:
        lowest_score, last = bye_position
        above = x.score - lowest_score
        # The bye goes to the lowest-placed union that has not had one.
        return (1 if x.byes else 0, 0, above, 0, 0, 0, last - position[x.id])
    rematch = 1 if y.id in x.opponents or x.id in y.opponents else 0
    club = 1 if x.club is not None and x.club == y.club else 0
    diff = abs(x.score - y.score)
    fold = 0
    if diff == 0:
        fold = abs(abs(position[x.id] - position[y.id]) - group_half[x.score])
    return (rematch, club, 0, diff, seat_conflict(x, y), diff * diff, fold)


def _match_block(
    block: list[Entrant], order: list[Entrant], window: int | None
) -> list[Pair] | None:
    """Exact min-cost matching of `block` (score order), pairs at most `window` apart
    (every pair when None). Adds the bye slot when the block is odd."""
    position: dict[Hashable, int] = {e.id: index for index, e in enumerate(order)}
    bye_position = (order[-1].score, len(order) - 1)
    group_sizes: dict[int, int] = {}
    for e in block:
        group_sizes[e.score] = group_sizes.get(e.score, 0) + 1
    group_half = {score: size // 2 for score, size in group_sizes.items()}
    # The matcher works on indices: hashing whole entrants costs more than the matching.
    costs: dict[tuple[int, int], tuple[int, ...]] = {}
    size = len(block)
    for i, x in enumerate(block):
        stop = size if window is None else min(size, i + window + 1)
        for j in range(i + 1, stop):
            costs[(i, j)] = _pair_costs(x, block[j], position, group_half, bye_position)
    nodes = list(range(size))
    if size % 2:
        for i, x in enumerate(block):
            costs[(i, size)] = _pair_costs(x, BYE_SLOT, position, group_half, bye_position)
        nodes.append(size)
    matched = min_cost_perfect_matching(nodes, costs)
    if matched is None:
        return None
    slots: list[Slot] = [*block, BYE_SLOT]
    return [(slots[i], slots[j]) for i, j in matched]


def _violations(pairs: list[Pair]) -> int:
    count = 0
    for x, y in pairs:
        if x is BYE_SLOT:
            x, y = y, x
        if x is BYE_SLOT:
            continue
        if y is BYE_SLOT:
            count += 1 if x.byes else 0
        elif y.id in x.opponents or x.id in y.opponents:
            count += 1
    return count


def _match_in_chunks(order: list[Entrant], chunk_size: int, window: int) -> tuple[list[Pair], int]:
    """Match an ordered field chunk by chunk (see the module docstring).

    A chunk grows while it cannot avoid a rematch, and also (up to `GROWTH` chunks) while it
    seats two unions of one club or its score differences exceed what pairing neighbours would
    give: e.g. a chunk that ends on
    two unions of a lower group who have met each other does better with the next chunk.
    """
    n = len(order)
    chunk_size += chunk_size % 2
    done: list[tuple[int, list[Pair]]] = []  # (start, pairs) per accepted chunk
    start = 0
    while start < n:
        end = _chunk_end(start, start + chunk_size, n, chunk_size)
        width = window
        while True:
            block = order[start:end]
            pairs = _match_block(block, order, None if width >= len(block) else width)
            rematches = pairs is None or _violations(pairs) > 0
            if pairs is not None and not rematches and not _excess(pairs) + _club_meetings(pairs):
                break
            if rematches and width < len(block):
                width *= 2  # farther partners first; growing comes next
                continue
            may_grow = rematches or len(block) < GROWTH * chunk_size
            if may_grow and end < n:
                end = _chunk_end(start, end + chunk_size, n, chunk_size)
                continue
            if may_grow and done:
                start = done.pop()[0]
                continue
            wider = _wider(width, len(block), window)
            if not rematches and wider:
                width = wider  # the floats may lie farther apart than the window
                continue
            break  # what remains is forced
        if pairs is None:  # every pair of the field is an edge at the end: never
            raise SeatingError("a chunk of the field could not be paired", code="unpairable")
        done.append((start, pairs))
        start = end
    return [pair for _, pairs in done for pair in pairs], len(done)


def _club_meetings(pairs: list[Pair]) -> int:
    """Tables of two unions of one club: a chunk that has one grows like one above its bound
    (clubs set to None when the event ignores them, so this is 0 then)."""
    return sum(1 for x, y in pairs if _same_club(x, y))


def _wider(width: int, size: int, window: int) -> int | None:
    """The next window for a chunk still above its bound: doubling, up to every pair when the
    chunk is small enough for the exact path, else up to four windows."""
    cap = size if size <= EXACT_LIMIT else min(size, 4 * window)
    return min(width * 2, cap) if width < cap else None


def _excess(pairs: list[Pair]) -> int:
    """How far the chunk's pairing is above its bounds: the score differences above the
    neighbour pairing of the same unions, plus the bye's score above the lowest score of a
    union that could have taken it."""
    played: list[tuple[Entrant, Entrant]] = []
    bye: list[Entrant] = []
    for x, y in pairs:
        if x is BYE_SLOT:
            bye += [] if y is BYE_SLOT else [y]
        elif y is BYE_SLOT:
            bye.append(x)
        else:
            played.append((x, y))
    scores = sorted((e.score for pair in played for e in pair), reverse=True)
    bound = sum(scores[i] - scores[i + 1] for i in range(0, len(scores), 2))
    excess = sum(abs(x.score - y.score) for x, y in played) - bound
    if bye:
        everyone = [e for pair in played for e in pair] + bye
        eligible = [e.score for e in everyone if not e.byes] or [e.score for e in everyone]
        excess += bye[0].score - min(eligible)
    return excess


def _interleave_wishes(order: list[Entrant]) -> list[Entrant]:
    """Within each score group, alternate unions that want side A with those that want B, so
    that every chunk and window holds both kinds and seats can balance inside it."""
    result: list[Entrant] = []
    index = 0
    while index < len(order):
        score = order[index].score
        group = []
        while index < len(order) and order[index].score == score:
            group.append(order[index])
            index += 1
        want_a = [e for e in group if desire_for_a(e) > 0]
        want_b = [e for e in group if desire_for_a(e) < 0]
        neutral = [e for e in group if desire_for_a(e) == 0]
        for k in range(max(len(want_a), len(want_b))):
            result.extend(want_a[k : k + 1] + want_b[k : k + 1])
        result.extend(neutral)
    return result


def _chunk_end(start: int, wanted: int, n: int, chunk_size: int) -> int:
    """An even-length chunk, or the rest of the field when less than a chunk would remain."""
    end = start + ((wanted - start) // 2) * 2
    return n if n - end < chunk_size else end


# --- flags and quality ------------------------------------------------------------------


def _finish(
    pairs: list[Pair], rng: random.Random, first_round: bool = False, seeded: bool = True
) -> Draw:
    pairings = []
    byes = []
    entrants: dict[Hashable, Entrant] = {}
    for x, y in pairs:
        if x is BYE_SLOT:
            x, y = y, x
        if x is BYE_SLOT:
            continue  # two byes: never made
        if y is BYE_SLOT:
            bye = annotate(x, None)
            # Why this union: the last seed, the random draw, or the lowest score (later rounds).
            bye.details["bye_reason"] = (
                ("last_seed" if seeded else "random") if first_round else "lowest"
            )
            byes.append(bye)
            continue
        a, b = assign_sides(x, y, rng)
        entrants[a.id], entrants[b.id] = a, b
        pairings.append(annotate(a, b))
    # Top boards first: the highest scores play at table 1.
    pairings.sort(
        key=lambda p: (
            -max(p.details["score_a"], p.details["score_b"]),
            -min(p.details["score_a"], p.details["score_b"]),
            min(entrants[p.a].rank, entrants[p.b].rank),
        )
    )
    draw = Draw(pairings=pairings + byes)
    draw.quality = measure(draw, entrants)
    return draw


def annotate(a: Entrant, b: Entrant | None) -> Pairing:
    """The pairing of `a` (side A) and `b` (side B, None for a bye) with the flags and
    details that explain it. Also used after a swap by hand."""
    if b is None:
        bye = Pairing(a=a.id, b=None, flags=[flags.BYE], details={"score_a": a.score})
        if a.byes:
            bye.flags.append(flags.BYE_REPEATED)
        return bye
    pairing = Pairing(a=a.id, b=b.id, details={"score_a": a.score, "score_b": b.score})
    if a.score != b.score:
        high, low = (a, b) if a.score > b.score else (b, a)
        pairing.flags += [flags.PULLED_DOWN, flags.PULLED_UP]
        pairing.details.update(pulled_down=high.id, pulled_up=low.id)
    if b.id in a.opponents or a.id in b.opponents:
        pairing.flags.append(flags.REMATCH_FORCED)
    if a.club is not None and a.club == b.club:
        pairing.flags.append(flags.CLUB_CLASH)
    against = [u.id for u, side in ((a, SIDE_A), (b, SIDE_B)) if against_preference(u, side)]
    if against:
        pairing.flags.append(flags.SEAT_AGAINST_PREFERENCE)
        pairing.details["seat_against_preference"] = against
    return pairing


def measure(draw: Draw, entrants: dict[Hashable, Entrant]) -> dict[str, Any]:
    """The round's record: rematches, score differences (and their lower bound), seats."""
    played = [p for p in draw.pairings if not p.is_bye]
    scores = sorted((entrants[u].score for p in played for u in (p.a, p.b)), reverse=True)
    lower_bound = sum(scores[i] - scores[i + 1] for i in range(0, len(scores) - 1, 2))
    imbalance = 0
    for p in played:
        for union, side in ((p.a, SIDE_A), (p.b, SIDE_B)):
            balance = entrants[union].seat_balance + (1 if side == SIDE_A else -1)
            imbalance += 1 if abs(balance) >= 2 else 0
    return {
        "tables": len(played),
        "byes": sum(1 for p in draw.pairings if p.is_bye),
        "rematches": sum(1 for p in played if flags.REMATCH_FORCED in p.flags),
        "score_diff_sum": sum(abs(p.details["score_a"] - p.details["score_b"]) for p in played),
        "score_diff_lower_bound": lower_bound,
        "pulled_tables": sum(1 for p in played if flags.PULLED_DOWN in p.flags),
        "seat_imbalance": imbalance,
        "seat_against_preference": sum(
            len(p.details.get("seat_against_preference", ())) for p in played
        ),
        "club_clashes": sum(1 for p in played if flags.CLUB_CLASH in p.flags),
    }
