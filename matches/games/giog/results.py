"""Checking a Giog hand report with the engine (the Giog half of the results service).

A *hand* of a Giog table is a `Deal` of the table's match: hand 1..`event.deals_per_match`.
A report is a referee's summary `giog-outcome/1` (pieces won per seat, beheaded seats), a full
hand record `giog-hand/1`, or both. Everything else (storing, idempotency, confirmation,
corrections, the audit trail) is shared, in `matches.results`.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any, Sequence

from matches.games.giog.engine.outcome import OUTCOME_FORMAT, points_for_places, summary_verdict
from matches.games.giog.engine.replay import replay_verdict as replay_engine
from matches.games.giog.engine.verdict import GiogDealVerdict
from matches.games.giog.standings import format_points, points_table
from matches.kernel.engine_errors import BadDocument
from matches.kernel.reports import Checked, ResultError, require_documents
from matches.models import TableSeat

HAND_FORMAT = "giog-hand/1"
#: Which rule a mismatch between the summary and the replayed record breaks.
MISMATCH_RULES = {"won": "G11", "places": "G11", "beheaded": "G12"}


def table_size(match) -> int:
    return TableSeat.objects.filter(table_id=match.table_id).count()


def hand_points(places: Sequence[Sequence[int]], place_points: list[int]) -> dict[str, str]:
    """Tournament points of each seat for a hand, for display ("3", "1.5"); the standings
    add exact fractions from the places."""
    if not places:
        return {}
    seated = sum(len(group) for group in places)
    points = points_for_places(places, points_table(place_points, seated))
    return {str(seat): format_points(value) for seat, value in sorted(points.items())}


def check_hand(match, number: int, summary: Any, play_log: Any) -> Checked:
    """Run the Giog engine on a hand report; nothing is stored. Raises ResultError (400) when
    a document cannot be read; `errors` are every reason to refuse it."""
    event = match.round.event
    require_documents(summary, play_log, OUTCOME_FORMAT, HAND_FORMAT)
    seats = table_size(match)
    errors: list[dict] = []
    replay_verdict = None
    if summary is not None:
        summary = dict(summary)
        summary.setdefault("format", OUTCOME_FORMAT)
        summary.setdefault("players", seats)
    if play_log is not None:
        record = copy.deepcopy(play_log)
        if summary is not None:
            claimed = record.get("claimed")
            claimed = {} if claimed is None else claimed  # 0, "" and false are wrong too
            if not isinstance(claimed, dict):
                raise ResultError("bad_document", "hand record: claimed must be a JSON object")
            claimed = dict(claimed)
            for key in ("won", "beheaded"):
                if key in summary:
                    claimed[key] = summary[key]
            record["claimed"] = claimed
        try:
            replay_verdict = replay_engine(record)
        except BadDocument as exc:
            raise ResultError("bad_document", f"hand record: {exc.message}")
        if record.get("players") != seats:
            errors.append(
                {
                    "rule": "G4",
                    "code": "players_mismatch",
                    "message": f"the hand record is for {record.get('players')} players; "
                    f"this table seats {seats}",
                    "params": {"players": record.get("players"), "seats": seats},
                }
            )
        if not replay_verdict.valid:
            error = replay_verdict.error
            action = error.action if error is not None else None
            where = "setup" if action is None else f"action {action}"
            errors.append(
                {
                    "rule": error.rule if error else None,
                    "code": error.code if error else "illegal_play",
                    "message": f"hand record, {where}: {error.message if error else ''}",
                    "action": action,
                    "params": dict(error.params) if error else {},
                }
            )
        elif not replay_verdict.complete:
            errors.append(
                {
                    "rule": "G10",
                    "code": "hand_incomplete",
                    "message": "the hand record stops before every hand is empty",
                }
            )
        for mismatch in replay_verdict.mismatches:
            errors.append(
                {
                    "rule": MISMATCH_RULES.get(mismatch.field),
                    "code": "play_log_mismatch",
                    "message": f"{mismatch.field}: the report says {mismatch.claimed}, "
                    f"the hand record gives {mismatch.replayed}",
                }
            )
        if summary is None:
            replayed = replay_verdict.to_json()
            summary = {
                "format": OUTCOME_FORMAT,
                "players": record.get("players"),
                "won": replayed["won"],
                "beheaded": replayed["beheaded"],
            }
    if summary.get("players") != seats and not any(e["code"] == "players_mismatch" for e in errors):
        errors.append(
            {
                "rule": "G4",
                "code": "players_mismatch",
                "message": f"the summary is for {summary.get('players')} players; this "
                f"table seats {seats}",
                "params": {"players": summary.get("players"), "seats": seats},
            }
        )
    try:
        checked = summary_verdict(summary)
    except BadDocument as exc:
        raise ResultError("bad_document", f"summary: {exc.message}")
    if not (replay_verdict is not None and errors):
        # A broken record's totals say nothing more: its own error is the reason.
        errors.extend(error.to_json() for error in checked.errors)
    points = hand_points(checked.places, list(event.game_rules.place_points)) if not errors else {}
    verdict = GiogDealVerdict(
        checked=replace(checked, valid=False) if errors else checked,
        replay=replay_verdict,
        won=tuple((int(k), v) for k, v in (summary.get("won") or {}).items()),
        beheaded=tuple(sorted(set(summary.get("beheaded") or []))),
        points=tuple((int(seat), shown) for seat, shown in points.items()),
    )
    return Checked(summary=summary, play_log=play_log, verdict=verdict, errors=errors)
