"""Replaying a `giog-hand/1` record into its verdict (see the spec, "Hand record").

The replay stops at the first illegal action and names it; a record whose setup breaks the
rules (too many of a piece, hands of the wrong size) is invalid with `"action": null`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from matches.kernel.engine_errors import JSONObject, Mismatch, RuleViolation

from .outcome import places
from .pieces import DISTRIBUTION, FULL_SET, SET_SIZE, describe
from .play import HandState
from .record import HandRecord, parse_record
from .verdict import HandVerdict, Trick


def check_setup(record: HandRecord) -> None:
    """Raise `RuleViolation` when the dealt hands and the pieces out of play break G1/G4."""
    all_pieces = Counter(record.out)
    for pieces in record.hands.values():
        all_pieces.update(pieces)
    extra = all_pieces - FULL_SET
    if extra:
        piece = sorted(extra)[0]
        raise RuleViolation(
            "G1",
            "too_many_pieces",
            f"the hands and out hold {all_pieces[piece]} × {describe(piece)} "
            f"({piece}); the set has {FULL_SET[piece]}",
            count=all_pieces[piece],
            limit=FULL_SET[piece],
        )
    hand_size, out_size = DISTRIBUTION[record.players]
    sizes = {seat: len(pieces) for seat, pieces in record.hands.items()}
    for seat, size in sizes.items():
        if size == 0:
            raise RuleViolation("G4", "empty_hand", f"seat {seat} holds no pieces", seat=seat)
        if size > hand_size:
            raise RuleViolation(
                "G4",
                "hand_size",
                f"seat {seat} holds {size} pieces; with {record.players} "
                f"players each holds {hand_size}",
                seat=seat,
                size=size,
                hand_size=hand_size,
            )
    if len(set(sizes.values())) > 1:
        listing = ", ".join(f"seat {s}: {n}" for s, n in sizes.items())
        raise RuleViolation("G4", "unequal_hands", f"every hand must be the same size ({listing})")
    # The whole set: then it must be a real deal, not just a position.
    if sum(all_pieces.values()) == SET_SIZE and len(record.out) != out_size:
        raise RuleViolation(
            "G4",
            "out_size",
            f"with {record.players} players {out_size} pieces stay out of "
            f"play, not {len(record.out)}",
            players=record.players,
            size=out_size,
            given=len(record.out),
        )


def _mismatches(record: HandRecord, verdict: JSONObject) -> list[JSONObject]:
    claimed = record.claimed or {}
    found: list[JSONObject] = []
    if "won" in claimed:
        # A seat the referee left out of `won` is taken to have won nothing.
        as_claimed = {str(s): claimed["won"].get(s, 0) for s in record.seats}
        if as_claimed != verdict["won"]:
            found.append(
                {
                    "field": "won",
                    "claimed": {str(s): n for s, n in claimed["won"].items()},
                    "replayed": verdict["won"],
                }
            )
    if "beheaded" in claimed and sorted(set(claimed["beheaded"])) != verdict["beheaded"]:
        found.append(
            {"field": "beheaded", "claimed": claimed["beheaded"], "replayed": verdict["beheaded"]}
        )
    if "places" in claimed:
        claimed_places = [sorted(group) for group in claimed["places"]]
        if claimed_places != verdict["places"]:
            found.append(
                {"field": "places", "claimed": claimed["places"], "replayed": verdict["places"]}
            )
    return found


def replay_record(record: HandRecord) -> HandVerdict:
    """The verdict for an already parsed record."""
    verdict = HandVerdict(valid=True, won=tuple((s, 0) for s in record.seats))
    try:
        check_setup(record)
    except RuleViolation as violation:
        verdict = replace(verdict, valid=False, error=violation.as_error(action=None))
        return _with_mismatches(record, verdict)

    flags = record.flags
    state = HandState(
        record.players,
        record.hands,
        record.leader,
        must_compete=flags["must_compete"],
        tie_order=flags["tie_order"],
    )
    for index, action in enumerate(record.actions):
        try:
            state.apply(action.seat, action.pieces)
        except RuleViolation as violation:
            verdict = replace(verdict, valid=False, error=violation.as_error(action=index))
            break

    complete = verdict.valid and state.complete
    verdict = replace(
        verdict,
        complete=complete,
        tricks=tuple(Trick.from_json(trick) for trick in state.tricks),
        won=tuple(state.won.items()),
        beheaded=tuple(sorted(state.beheaded)),
        places=tuple(map(tuple, places(state.won, state.beheaded))) if complete else (),
    )
    return _with_mismatches(record, verdict)


def _with_mismatches(record: HandRecord, verdict: HandVerdict) -> HandVerdict:
    found = _mismatches(record, verdict.to_json())
    return replace(verdict, mismatches=tuple(Mismatch.from_json(m) for m in found))


def replay_verdict(document: object) -> HandVerdict:
    """Replay a `giog-hand/1` document; raises `BadDocument` when it cannot be read."""
    return replay_record(parse_record(document))


def replay(document: object) -> JSONObject:
    """`replay_verdict` as the spec's JSON (the command line and the rules API)."""
    return replay_verdict(document).to_json()
