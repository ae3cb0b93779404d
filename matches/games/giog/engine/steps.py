"""A `giog-hand/1` record step by step, for the deal viewer, and where it first contradicts a
summary (`giog-outcome/1`: pieces won per seat, beheaded seats).

Step 0 is the table before the first play; step k the table after action k-1: the pieces each
seat still holds, the plays of the trick on the table (at the step that closes a trick, its
plays, with the winner), whose turn it is, the pieces each seat has won and who is beheaded.

The **first disagreement** with a summary is the first step at which the replay fixes a fact
the summary contradicts:

- won: a seat has won more pieces than the summary says (won pieces are never given back), or
  fewer than the summary says and too few pieces are left in play to make up the difference;
  once the hand is over, any seat whose count differs;
- beheaded: a seat is beheaded (G12) that the summary does not list; a seat the summary lists
  that is not beheaded when the hand is over;
- anything else the replay's verdict still finds different: the last step.

When the replay finds no mismatch there is no disagreement. Pure Python: no Django.
"""

from __future__ import annotations

from collections import Counter

from matches.kernel.engine_errors import EngineBug, JSONObject, RuleViolation

from .pieces import piece_strength
from .play import HandState
from .record import HandRecord, parse_record
from .replay import check_setup, replay_record

CLAIMS = ("won", "beheaded")


def _claimed(doc: JSONObject, summary: JSONObject | None) -> JSONObject:
    if summary is None:
        return doc
    claimed = dict(doc.get("claimed") or {})
    claimed.update({key: summary[key] for key in CLAIMS if key in summary})
    return {**doc, "claimed": claimed}


def _pieces(counter: Counter[str]) -> str:
    """A hand's pieces, strongest first (G3)."""
    return "".join(sorted(counter.elements(), key=piece_strength, reverse=True))


def _snapshot(state: HandState, plays: list[tuple[int, str]], winning: int) -> JSONObject:
    return {
        "hands": {str(seat): _pieces(hand) for seat, hand in state.hands.items()},
        "plays": [{"seat": seat, "pieces": pieces} for seat, pieces in plays],
        "winning": winning,
        "turn": state.to_act() or 0,
        "won": {str(seat): n for seat, n in state.won.items()},
        "beheaded": sorted(state.beheaded),
        "complete": state.complete,
    }


class _Judge:
    def __init__(self, record: HandRecord, summary: JSONObject):
        claimed = record.claimed or {}
        seats = range(1, record.players + 1)
        self.won = None
        if "won" in summary and "won" in claimed:
            self.won = {seat: claimed["won"].get(seat, 0) for seat in seats}
        self.beheaded = set(claimed.get("beheaded") or ()) if "beheaded" in summary else None
        self.found: JSONObject | None = None

    def check(self, step: int, state: HandState, left: int) -> None:
        if self.found is not None:
            return
        problem = self._won(state, left) or self._beheaded(state)
        if problem is not None:
            self.found = {"step": step, **problem}

    def _won(self, state: HandState, left: int) -> JSONObject | None:
        if self.won is None:
            return None
        for seat, claimed in self.won.items():
            won = state.won[seat]
            if won > claimed:
                code = "won_extra"
            elif won + left < claimed or (state.complete and won != claimed):
                code = "won_short"
            else:
                continue
            return {"field": "won", "code": code, "seat": seat, "replayed": won, "claimed": claimed}
        return None

    def _beheaded(self, state: HandState) -> JSONObject | None:
        if self.beheaded is None:
            return None
        for seat in sorted(state.beheaded - self.beheaded):
            return {"field": "beheaded", "code": "beheaded_extra", "seat": seat}
        if state.complete:
            for seat in sorted(self.beheaded - state.beheaded):
                return {"field": "beheaded", "code": "beheaded_missing", "seat": seat}
        return None


def _left_in_play(state: HandState) -> int:
    """Pieces still to be won: in the hands, and played into the open trick."""
    held = sum(sum(hand.values()) for hand in state.hands.values())
    open_trick = sum(len(pieces) for _, pieces in state.trick.plays) if state.trick else 0
    return held + open_trick


def hand_steps(doc: JSONObject, summary: JSONObject | None = None) -> JSONObject:
    """Every step of the record `doc` (see the module's docstring). Raises BadDocument when the
    record cannot be read."""
    record = parse_record(_claimed(doc, summary))
    result = {
        "players": record.players,
        "leader": record.leader,
        "steps": [],
        "error": None,
        "complete": False,
        "disagreement": None,
        "mismatches": [],
    }
    try:
        check_setup(record)
    except RuleViolation as violation:
        result["error"] = {"action": None, **violation.as_dict()}
        return result
    flags = record.flags
    state = HandState(
        record.players,
        record.hands,
        record.leader,
        must_compete=flags["must_compete"],
        tie_order=flags["tie_order"],
    )
    judge = _Judge(record, summary) if summary is not None else None
    steps = [{"n": 0, "action": None, "events": [], **_snapshot(state, [], 0)}]
    if judge:
        judge.check(0, state, _left_in_play(state))
    for index, action in enumerate(record.actions):
        tricks = len(state.tricks)
        open_plays = list(state.trick.plays) if state.trick else []
        beheaded = set(state.beheaded)
        try:
            state.apply(action.seat, action.pieces)
        except RuleViolation as violation:
            result["error"] = {"action": index, **violation.as_dict()}
            break
        events = []
        if len(state.tricks) > tricks:
            trick = state.tricks[-1]
            plays, winning = [*open_plays, (action.seat, action.pieces)], trick["winner"]
            events.append({"code": "trick", "seat": trick["winner"], "pieces": trick["pieces"]})
        elif state.trick is not None:  # the trick goes on
            plays, winning = list(state.trick.plays), state.trick.best_seat
        else:
            raise EngineBug("a trick neither taken nor open")
        for seat in sorted(state.beheaded - beheaded):
            events.append({"code": "beheaded", "seat": seat})
        if state.complete:
            events.append({"code": "over"})
        lead = not open_plays
        steps.append(
            {
                "n": index + 1,
                "action": {
                    "seat": action.seat,
                    "kind": "lead" if lead else "follow",
                    "pieces": action.pieces,
                },
                "events": events,
                **_snapshot(state, plays, winning),
            }
        )
        if judge:
            judge.check(index + 1, state, _left_in_play(state))
    result["steps"] = steps
    result["complete"] = state.complete and result["error"] is None
    if judge is not None:
        verdict = replay_record(record)
        result["mismatches"] = [mismatch.to_json() for mismatch in verdict.mismatches]
        if judge.found is None and verdict.mismatches:
            field = verdict.mismatches[0].field
            judge.found = {"step": len(steps) - 1, "field": field, "code": "other"}
        result["disagreement"] = judge.found
    return result
