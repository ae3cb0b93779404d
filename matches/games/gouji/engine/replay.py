"""Replay a `gouji-deal/1` record hand by hand and give the verdict (deal-record.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from matches.games.gouji.engine import play as engine
from matches.games.gouji.engine.record import DealRecord, read_record, setup_error
from matches.games.gouji.engine.seating import head_rival
from matches.games.gouji.engine.settle import (
    Outcome,
    automatic_points,
    tribute_ledger,
    union_scores,
)
from matches.games.gouji.engine.verdict import Burn, ReplayVerdict, Suffocation
from matches.kernel.engine_errors import JSONObject, Mismatch, RuleError, RuleViolation


def replay_verdict(doc: Any) -> ReplayVerdict:
    """The verdict on a deal record. Raises BadDocument when the document is unreadable."""
    return replay_record(read_record(doc))


def replay(doc: Any) -> JSONObject:
    """`replay_verdict` as the spec's JSON (the command line and the rules API)."""
    return replay_verdict(doc).to_json()


def initial_state(record: DealRecord) -> engine.State:
    state = engine.start(record.rules, record.hands, record.leader, record.revolution)
    contest = contest_points(record)
    if contest:
        state = state.copy()
        for seat in contest:
            state.points += (seat,)
            state.no_point |= 1 << seat
    return state


def contest_seats(record: DealRecord) -> tuple[int, ...]:
    """R29 `revolution_contest`: the revolutionary and its head rival, whose points come from
    the contest before play (not written in a record), or () without one."""
    if record.rules.revolution_contest and 1 <= len(record.revolution) <= 2:
        # R56: under two revolutions each revolutionary's head rival has its contest too
        seats: list[int] = []
        for rebel in record.revolution:
            for seat in (rebel, head_rival(rebel, record.rules.players)):
                if seat not in seats:
                    seats.append(seat)
        return tuple(seats)
    return ()


def contest_points(record: DealRecord) -> tuple[int, ...]:
    """R29 `revolution_contest`: the contest is played before the deal and is not part of the
    record, so its points are taken as the record claims them (spec: summaries report the points
    as played; replay of the variant is optional)."""
    claimed = (record.claimed or {}).get("points") or ()
    return tuple(seat for seat in contest_seats(record) if seat in claimed)


def replay_record(record: DealRecord) -> ReplayVerdict:
    problem = setup_error(record)
    if problem is not None:
        return _verdict(record, None, _error(None, problem))
    state = initial_state(record)
    apply = engine.apply
    error = None
    notes: list[str] = []
    if contest_seats(record):
        seats = " and ".join(map(str, contest_seats(record)))
        notes.append(
            f"R29: revolution_contest is played before the deal; the points of seats {seats} "
            "are taken as claimed"
        )
    for index, action in enumerate(record.actions):
        try:
            after = apply(state, action)
        except RuleViolation as violation:
            error = _error(index, violation)
            break
        if len(after.burns) > len(state.burns):
            notes.extend(burn_priority_notes(state, after))
        state = after
    return _verdict(record, state, error, notes)


def _error(index: int | None, violation: RuleViolation) -> RuleError:
    return violation.as_error(action=index)


def burn_priority_notes(before: engine.State, after: engine.State) -> list[str]:
    """R21: several seats could burn; the burned seat's union mates come first, then playing
    order. The engine accepts any eligible burner and says when priority was passed over."""
    burner, burned = after.burns[-1][0], after.burns[-1][1]
    table = before.table
    n = table.players
    order = [(burned + i - 1) % n + 1 for i in range(1, n)]
    union = table.union
    order.sort(key=lambda seat: union[seat] != union[burned])  # stable: mates first (R51)
    for seat in order:
        if seat == burner:
            return []
        if could_burn(before, seat):
            mate = union[seat] == union[burned]
            why = "a union mate of the burned seat" if mate else "earlier in playing order"
            return [
                f"R21: seat {burner} burned seat {burned}, but seat {seat} could burn too "
                f"and had priority ({why})"
            ]
    return []


def could_burn(state: engine.State, seat: int) -> bool:
    return engine.may_burn(state, seat) and bool(engine.playable(state, seat))


def outcome_of(record: DealRecord, state: engine.State, finish: list[int]) -> Outcome:
    late = frozenset(seat for seat in state.seats if state.late_points >> seat & 1)
    return Outcome(
        finish=tuple(finish),
        points=frozenset(state.points),
        declarations=dict(record.declarations),
        burns=tuple((b, d, o) for b, d, o, _ in state.burns if o is not None),
        suffocated=tuple(state.suffocated),
        revolution=tuple(record.revolution),
        string_three_streak=0,
        late_points=late,
        special_failed=frozenset(
            seat
            for seat, kind in record.declarations.items()
            if kind == "special" and state.rival_led >> seat & 1
        ),
        counters=tuple(counter for _, _, o, counter in state.burns if o is not None),
        players=record.rules.players,
    )


def _finish(record: DealRecord, state: engine.State) -> list[int]:
    if state.phase != engine.OVER:
        return list(state.finished)
    finish = state.final_order()
    claimed = (record.claimed or {}).get("finish")
    seats = record.rules.seats
    if state.filled and claimed and sorted(claimed) == list(seats):
        # D13: places after a string of three (or four, R47) are agreed at the table; take the
        # referee's order when it agrees with every place the play itself fixed
        fixed = [seat for seat in seats if not state.filled >> seat & 1]
        if all(claimed.index(seat) == finish.index(seat) for seat in fixed):
            finish = list(claimed)
    return finish


def _verdict(
    record: DealRecord,
    state: engine.State | None,
    error: RuleError | None,
    notes: Sequence[str] = (),
) -> ReplayVerdict:
    verdict = ReplayVerdict(valid=error is None, error=error, notes=tuple(notes))
    if state is not None:
        finish = _finish(record, state)
        verdict = replace(
            verdict,
            finish=tuple(finish),
            points=tuple(state.points),
            burns=tuple(Burn(b, d, o) for b, d, o, _ in state.burns),
            suffocated=tuple(Suffocation(s, by) for s, by in state.suffocated),
            notes=tuple(state.notes) + verdict.notes,
        )
        if state.phase == engine.OVER and error is None:
            verdict = replace(verdict, complete=True)
            outcome = outcome_of(record, state, finish)
            if "special" in record.declarations.values():
                # R34: which special declarations failed, for a summary written from the replay
                verdict = replace(verdict, special_failed=tuple(sorted(outcome.special_failed)))
            try:
                verdict = replace(
                    verdict,
                    union_scores=union_scores(outcome, record.rules),
                    tributes=tribute_ledger(outcome, record.rules),
                )
            except RuleViolation as violation:
                verdict = replace(verdict, valid=False, error=_error(None, violation))
    if record.claimed:
        found = mismatches(_implied(record, record.claimed), verdict.to_json())
        verdict = replace(verdict, mismatches=tuple(Mismatch.from_json(m) for m in found))
    return verdict


def _implied(record: DealRecord, claimed: JSONObject) -> JSONObject:
    """R29/D11/D40: a revolutionary's head rival opens a point automatically, so a claim need
    not list it."""
    if "points" in claimed:
        rivals = automatic_points(record.rules, record.revolution)
        missing = sorted(rivals - set(claimed["points"]))
        if missing:
            return {**claimed, "points": [*claimed["points"], *missing]}
    return claimed


def _canonical(field: str, value: Any) -> Any:
    """Claims compare as sets where order carries no meaning (points, burns, suffocations)."""
    if value is None:
        return None
    if field == "points":
        return sorted(value)
    if field == "burns":
        return sorted((b["burner"], b["burned"], b["outcome"] or "") for b in value)
    if field == "suffocated":
        return sorted((s["seat"], s["by"]) for s in value)
    return value


def mismatches(claimed: JSONObject, verdict: JSONObject) -> list[JSONObject]:
    found = []
    for field in ("finish", "points", "burns", "suffocated", "union_scores"):
        if field not in claimed:
            continue
        if _canonical(field, claimed[field]) != _canonical(field, verdict[field]):
            found.append({"field": field, "claimed": claimed[field], "replayed": verdict[field]})
    return found
