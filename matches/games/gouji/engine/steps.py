"""A deal record step by step, for the deal viewer, and where it first contradicts a summary.

`deal_steps(doc, summary)` replays a `gouji-deal/1` record (deal-record.md) and gives every
state a reader steps through: step 0 is the table before the first action, step k the table
after action k-1. Each step says the cards each seat still holds, the hand on the table and who
owns it, who passed in the round, whose turn it is, the places fixed so far, the points opened,
the burns (with their outcome once decided), the suffocations, and what happened at that step
(`events`, as codes and seats: the Django side words them).

With a summary (`gouji-outcome/1`, or any dict with some of finish, points, burns, suffocated,
declarations, revolution), `disagreement` names the **first step at which the replay fixes a
fact the summary contradicts**:

- setup: the summary's declarations or revolution differ from the record's: step 0;
- finish: a seat takes a place (plays out, or is put out at the lowest open place) other than
  the summary's place for it; a revolutionary's place, and places filled by D13 after a string of
  three, are fixed when the deal ends, and are compared then (the D13 places as the replay
  takes them, from the summary when the played places agree);
- points: a seat opens a point the summary does not list; or a point the summary lists can no
  longer be opened: the seat forfeited it (R28a) or the melee has begun (m or fewer seats in
  play: no point is opened after that, R20, R48), or the deal is over;
- burns: a burn starts (burner, burned) or is decided (outcome) that the summary does not list;
  or a burn the summary lists can no longer happen: no burn is in progress and the melee has
  begun (no Gou Ji hand is in force after that, R19, R48), or the deal is over;
- suffocated: a suffocation the summary does not list; one it lists missing when the deal ends;
- anything else the replay's verdict still finds different (`mismatches`, e.g. union scores,
  or a record that stops early): the last step.

When the replay finds the summary in agreement (no `mismatches`), there is no disagreement.
Pure Python: no Django.
"""

from __future__ import annotations

from collections import Counter

from matches.games.gouji.engine import play as engine
from matches.games.gouji.engine.cards import format_cards
from matches.games.gouji.engine.play import PHASE_NAMES
from matches.games.gouji.engine.record import DealRecord, read_record, setup_error
from matches.games.gouji.engine.replay import (
    _finish,
    _implied,
    initial_state,
    replay_record,
)
from matches.kernel.engine_errors import JSONObject, RuleViolation

#: fields of a summary the replay can contradict
CLAIMS = ("finish", "points", "burns", "suffocated")


def _claimed(doc: JSONObject, summary: JSONObject | None) -> JSONObject:
    """The record with the summary's outcome as its claim (the summary wins over a claim the
    record carries itself, as when a report is checked)."""
    if summary is None:
        return doc
    claimed = dict(doc.get("claimed") or {})
    claimed.update({key: summary[key] for key in CLAIMS if key in summary})
    return {**doc, "claimed": claimed}


def _setup_differs(doc: JSONObject, summary: JSONObject) -> list[str]:
    fields = []
    said = summary.get("declarations")
    if said is not None:
        logged = doc.get("declarations") or {}
        if {str(k): v for k, v in (said or {}).items()} != {str(k): v for k, v in logged.items()}:
            fields.append("declarations")
    said = summary.get("revolution")
    if said is not None and sorted(map(str, said or [])) != sorted(
        map(str, doc.get("revolution") or [])
    ):
        fields.append("revolution")
    return fields


def _action_json(action: engine.Action) -> JSONObject:
    if action.kind == engine.PLAY and action.cards is not None:
        return {"seat": action.seat, "kind": "play", "cards": format_cards(action.cards)}
    return {"seat": action.seat, "kind": action.kind}


def _snapshot(state: engine.State, top_cards: str | None) -> JSONObject:
    seats = state.seats
    return {
        "hands": {str(seat): format_cards(state.hands[seat]) for seat in seats},
        "top": {"seat": state.owner, "cards": top_cards} if state.top is not None else None,
        "passed": [seat for seat in seats if state.passed >> seat & 1],
        "turn": state.turn,
        "phase": PHASE_NAMES[state.phase],
        "places": {str(seat): state.places[seat] for seat in seats if state.places[seat]},
        "out": [seat for seat in seats if state.gone >> seat & 1],
        "finished": list(state.finished),
        "points": list(state.points),
        "burns": [{"burner": b, "burned": d, "outcome": o} for b, d, o, _ in state.burns],
        "suffocated": [{"seat": s, "by": by} for s, by in state.suffocated],
    }


def _events(
    before: engine.State | None, after: engine.State, action: engine.Action
) -> list[JSONObject]:
    """What changed from `before` to `after`, as codes a page words."""
    events: list[JSONObject] = []
    if before is None:
        return events
    for seat in sorted(after.seats, key=lambda seat: after.places[seat]):
        if not before.places[seat] and after.places[seat]:
            if seat in after.finished:
                kind = "finish"  # played out (R30)
            elif after.filled >> seat & 1:
                kind = "filled"  # placed after a string of three (D13)
            elif any(after.hands[seat]):
                kind = "last"  # the one seat left in play when the deal ends
            else:
                kind = "out"  # put out of play, its cards void (R22d, R27)
            events.append({"code": kind, "seat": seat, "place": after.places[seat]})
    for seat in after.points[len(before.points) :]:
        events.append({"code": "point", "seat": seat})
    for index, (burner, burned, outcome, _counter) in enumerate(after.burns):
        old = before.burns[index] if index < len(before.burns) else None
        if old is None:
            events.append({"code": "burn", "burner": burner, "burned": burned})
        if outcome is not None and (old is None or old[2] is None):
            events.append(
                {"code": "burn_" + outcome, "burner": burner, "burned": burned, "outcome": outcome}
            )
    for seat, by in after.suffocated[len(before.suffocated) :]:
        events.append({"code": "suffocated", "seat": seat, "by": by})
    if after.phase == engine.OVER:
        events.append({"code": "over"})
    elif after.phase == engine.LEAD and before.phase != engine.LEAD:
        events.append({"code": "lead", "seat": after.turn})
    elif after.phase == engine.GOUJI and before.phase != engine.GOUJI:
        events.append({"code": "gouji", "seat": after.owner, "rival": after.turn})
    return events


class _Judge:
    """Compares each new state with the summary; remembers the first contradiction."""

    def __init__(self, record: DealRecord, summary: JSONObject):
        claimed = _implied(record, record.claimed or {})
        self.record = record
        self.finish = claimed.get("finish") if "finish" in summary else None
        self.points = set(claimed.get("points") or ()) if "points" in summary else None
        # claims as `read_record` checked them: every entry has all its keys
        self.burns: Counter[tuple[int, int, str | None]] | None = None
        if "burns" in summary:
            self.burns = Counter(
                (b["burner"], b["burned"], b["outcome"])
                for b in claimed.get("burns") or ()
                if isinstance(b, dict)
            )
            self.burn_pairs = Counter((b, d) for b, d, _ in self.burns.elements())
        self.suffocated: Counter[tuple[int, int]] | None = None
        if "suffocated" in summary:
            self.suffocated = Counter(
                (s["seat"], s["by"]) for s in claimed.get("suffocated") or () if isinstance(s, dict)
            )
        self.found: JSONObject | None = None

    def claimed_place(self, seat: int) -> int | None:
        finish = self.finish or []
        return finish.index(seat) + 1 if seat in finish else None

    def check(self, step: int, before: engine.State | None, state: engine.State) -> None:
        if self.found is not None:
            return
        for problem in (
            self._finish(before, state),
            self._points(state),
            self._burns(state),
            self._suffocated(state),
        ):
            if problem is not None:
                self.found = {"step": step, **problem}
                return

    def _finish(self, before: engine.State | None, state: engine.State) -> JSONObject | None:
        if self.finish is None:
            return None
        over = state.phase == engine.OVER
        places = {}
        if over:
            final = _finish(self.record, state)
            places = {seat: final.index(seat) + 1 for seat in final}
        for seat in state.seats:
            late = seat in self.record.revolution or state.filled >> seat & 1
            if late:
                if not over:
                    continue
                place = places.get(seat)
            else:
                place = state.places[seat]
                if not place or (before is not None and before.places[seat]):
                    continue
            if place and place != self.claimed_place(seat):
                return {
                    "field": "finish",
                    "code": "place",
                    "seat": seat,
                    "replayed": place,
                    "claimed": self.claimed_place(seat),
                }
        return None

    def _points(self, state: engine.State) -> JSONObject | None:
        if self.points is None:
            return None
        for seat in state.points:
            if seat not in self.points:
                return {"field": "points", "code": "point_extra", "seat": seat}
        settled = state.phase == engine.OVER or not state.in_force  # R48: no more points
        for seat in sorted(self.points):
            if seat in state.points:
                continue
            if settled or state.no_point >> seat & 1:
                return {"field": "points", "code": "point_missing", "seat": seat}
        return None

    def _burns(self, state: engine.State) -> JSONObject | None:
        if self.burns is None:
            return None
        started = Counter((b, d) for b, d, _, _ in state.burns)
        decided: Counter[tuple[int, int, str | None]] = Counter(
            (b, d, o) for b, d, o, _ in state.burns if o is not None
        )
        for (burner, burned), count in started.items():
            if count > self.burn_pairs[(burner, burned)]:
                return {"field": "burns", "code": "burn_extra", "burner": burner, "burned": burned}
        for (burner, burned, outcome), count in decided.items():
            if count > self.burns[(burner, burned, outcome)]:
                return {
                    "field": "burns",
                    "code": "burn_outcome",
                    "burner": burner,
                    "burned": burned,
                    "replayed": outcome,
                }
        settled = state.phase == engine.OVER or (not state.in_force and not state.burner)
        if settled and decided != self.burns:
            burner, burned, outcome = next(iter(sorted((self.burns - decided).elements())))
            return {
                "field": "burns",
                "code": "burn_missing",
                "burner": burner,
                "burned": burned,
                "claimed": outcome,
            }
        return None

    def _suffocated(self, state: engine.State) -> JSONObject | None:
        if self.suffocated is None:
            return None
        happened = Counter(state.suffocated)
        for (seat, by), count in happened.items():
            if count > self.suffocated[(seat, by)]:
                return {"field": "suffocated", "code": "suffocated_extra", "seat": seat, "by": by}
        if state.phase == engine.OVER and happened != self.suffocated:
            seat, by = next(iter(sorted((self.suffocated - happened).elements())))
            return {"field": "suffocated", "code": "suffocated_missing", "seat": seat, "by": by}
        return None


def deal_steps(doc: JSONObject, summary: JSONObject | None = None) -> JSONObject:
    """Every step of the record `doc` (see the module's docstring). Raises BadDocument when the
    record cannot be read."""
    record = read_record(_claimed(doc, summary))
    result: JSONObject = {
        "leader": record.leader,
        "declarations": {str(k): v for k, v in record.declarations.items()},
        "revolution": list(record.revolution),
        "steps": [],
        "error": None,
        "complete": False,
        "disagreement": None,
        "mismatches": [],
    }
    problem = setup_error(record)
    if problem is not None:
        result["error"] = {"action": None, **problem.as_dict()}
        return result
    judge = _Judge(record, summary) if summary is not None else None
    if judge is not None and summary is not None:
        differs = _setup_differs(doc, summary)
        if differs:
            judge.found = {"step": 0, "field": differs[0], "code": "setup"}
    state = initial_state(record)
    top_cards = None
    steps = [{"n": 0, "action": None, "events": [], **_snapshot(state, None)}]
    if judge:
        judge.check(0, None, state)
    for index, action in enumerate(record.actions):
        try:
            after = engine.apply(state, action)
        except RuleViolation as violation:
            result["error"] = {"action": index, **violation.as_dict()}
            break
        if after.top is not None and after.owner == action.seat and action.cards is not None:
            top_cards = format_cards(action.cards)
        step = {
            "n": index + 1,
            "action": _action_json(action),
            "events": _events(state, after, action),
            **_snapshot(after, top_cards if after.top is not None else None),
        }
        steps.append(step)
        if judge:
            judge.check(index + 1, state, after)
        state = after
    result["steps"] = steps
    result["complete"] = state.phase == engine.OVER and result["error"] is None
    if result["complete"]:
        result["steps"][-1]["finish"] = _finish(record, state)
    if judge is not None:
        verdict = replay_record(record)
        result["mismatches"] = [mismatch.to_json() for mismatch in verdict.mismatches]
        if judge.found is None and verdict.mismatches:
            field = verdict.mismatches[0].field
            judge.found = {"step": len(steps) - 1, "field": field, "code": "other"}
        result["disagreement"] = judge.found
    return result
