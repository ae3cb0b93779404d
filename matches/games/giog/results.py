"""Checking a Giog hand report with the engine (the Giog half of the results service).

A *hand* of a Giog table is a `Deal` of the table's match: hand 1..`event.deals_per_match`.
A report is a referee's summary `giog-outcome/1` (pieces won per seat, beheaded seats), a full
hand record `giog-hand/1`, or both. Everything else (storing, idempotency, confirmation,
corrections, the audit trail) is shared, in `matches.results.service`.
"""

from __future__ import annotations

import copy
from typing import Any

from matches.games.errors import BadDocument
from matches.games.giog.engine.game import GiogGame
from matches.games.giog.engine.outcome import OUTCOME_FORMAT, points_for_places
from matches.games.giog.standings import format_points, points_table
from matches.kernel.reports import Checked, ResultError, require_documents
from matches.models import TableSeat

HAND_FORMAT = "giog-hand/1"
#: Which rule a mismatch between the summary and the replayed record breaks.
MISMATCH_RULES = {"won": "G11", "places": "G11", "beheaded": "G12"}


def table_size(match) -> int:
    return TableSeat.objects.filter(table_id=match.table_id).count()


def hand_points(places: list, place_points: list) -> dict[str, str]:
    """Tournament points of each seat for a hand, for display ("3", "1.5"); the standings
    add exact fractions from the places."""
    if not places:
        return {}
    seated = sum(len(group) for group in places)
    points = points_for_places(places, points_table(place_points, seated))
    return {str(seat): format_points(value) for seat, value in sorted(points.items())}


def check_hand(match, number: int, summary: Any, play_log: Any):
    """Run the Giog engine on a hand report; nothing is stored. Raises ResultError (400) when
    a document cannot be read; `errors` are every reason to refuse it."""
    event = match.round.event
    require_documents(summary, play_log, OUTCOME_FORMAT, HAND_FORMAT)
    seats = table_size(match)
    game = GiogGame()
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
            replay_verdict = game.replay(record)
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
        if not replay_verdict["valid"]:
            error = replay_verdict.get("error") or {}
            where = "setup" if error.get("action") is None else f"action {error.get('action')}"
            errors.append(
                {
                    "rule": error.get("rule"),
                    "code": error.get("code", "illegal_play"),
                    "message": f"hand record, {where}: {error.get('message', '')}",
                    "action": error.get("action"),
                    "params": error.get("params") or {},
                }
            )
        elif not replay_verdict["complete"]:
            errors.append(
                {
                    "rule": "G10",
                    "code": "hand_incomplete",
                    "message": "the hand record stops before every hand is empty",
                }
            )
        for mismatch in replay_verdict.get("mismatches") or []:
            errors.append(
                {
                    "rule": MISMATCH_RULES.get(mismatch["field"]),
                    "code": "play_log_mismatch",
                    "message": f"{mismatch['field']}: the report says {mismatch['claimed']}, "
                    f"the hand record gives {mismatch['replayed']}",
                }
            )
        if summary is None:
            summary = {
                "format": OUTCOME_FORMAT,
                "players": record.get("players"),
                "won": replay_verdict["won"],
                "beheaded": replay_verdict["beheaded"],
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
        verdict = dict(game.check_summary(summary))
    except BadDocument as exc:
        raise ResultError("bad_document", f"summary: {exc.message}")
    if not (replay_verdict is not None and errors):
        # A broken record's totals say nothing more: its own error is the reason.
        errors.extend(verdict["errors"])
    if replay_verdict is not None:
        verdict["replay"] = replay_verdict
    verdict["won"] = {str(k): v for k, v in (summary.get("won") or {}).items()}
    verdict["beheaded"] = sorted(set(summary.get("beheaded") or []))
    verdict["points"] = hand_points(verdict["places"], event.place_points) if not errors else {}
    if errors:
        verdict["valid"] = False
    return Checked(summary=summary, play_log=play_log, verdict=verdict, errors=errors)
