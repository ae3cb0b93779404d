"""Checking a Gou Ji deal report with the engine (the Gou Ji half of the results service).

A report is a referee's summary `gouji-outcome/1`, a digital table's play log `gouji-deal/1`, or
both. The event's rule set judges, whatever the documents say; the R40 streak comes from the
match's earlier final deals, which no single document can know.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any, Mapping

from matches.games.gouji.engine import sequence
from matches.games.gouji.engine.replay import replay_verdict as replay_engine
from matches.games.gouji.engine.ruleset import RuleSet
from matches.games.gouji.engine.settle import OUTCOME_FORMAT, settle_verdict
from matches.games.gouji.engine.verdict import GoujiDealVerdict, ReplayVerdict, SettleVerdict
from matches.kernel.engine_errors import BadDocument
from matches.kernel.reports import Checked, ResultError, require_documents
from matches.models import DealReport

DEAL_FORMAT = "gouji-deal/1"
#: Outcome fields a summary and a replay can both say; a summary's are checked against the replay.
CLAIMABLE = ("finish", "points", "burns", "suffocated")


def string_three_streak(match, number: int, finish, earlier: Mapping | None = None) -> int:
    """R40: how many final deals in a row just before deal `number` were strung three by the
    union that strings three in this deal (whose finishing order is `finish`); 0 when this deal
    strings no three. `earlier`: outcomes of deals played but not final yet (a feature table's
    behind its delay), read where no final result says otherwise."""
    union = sequence.strung_by(finish)
    if union is None:
        return 0
    strung = {
        deal_number: sequence.strung_by((summary or {}).get("finish"))
        for deal_number, summary in DealReport.objects.final()
        .filter(deal__match=match, deal__number__lt=number)
        .values_list("deal__number", "summary")
    }
    for deal_number, outcome in (earlier or {}).items():
        if deal_number < number:
            strung.setdefault(deal_number, sequence.strung_by((outcome or {}).get("finish")))
    return sequence.streak_before(strung, number, union)


def check_report(
    match, number: int, summary: Any, play_log: Any, earlier: Mapping | None = None
) -> Checked:
    """Run the engine on a report for deal `number` of `match`; nothing is stored. Raises
    ResultError (400) when a document cannot be read; `errors` are every reason to refuse it."""
    require_documents(summary, play_log, OUTCOME_FORMAT, DEAL_FORMAT)
    rules = match.round.event.game_rules.rules_json
    replay_verdict = None
    errors: list[dict] = []
    if play_log is not None:
        replay_verdict, errors = _replay(play_log, summary, rules)
        if summary is not None:
            errors.extend(_setup_mismatches(summary, play_log))
        else:
            summary = sequence.outcome_from_replay(play_log, replay_verdict)
    summary, settled = settle_summary(
        summary, rules, string_three_streak(match, number, summary.get("finish"), earlier)
    )
    if replay_verdict is not None:
        verdict = _judged_by_replay(settled, replay_verdict, summary, rules, errors)
    else:
        verdict = GoujiDealVerdict(settled)
        errors.extend(error.to_json() for error in settled.errors)
    return Checked(summary=summary, play_log=play_log, verdict=verdict, errors=errors)


def settle_summary(summary: dict, rules: Any, streak: int = 0) -> tuple[dict, SettleVerdict]:
    """A summary judged by the engine under the event's `rules`, `streak` deals strung three
    just before (R40): (the summary as judged, the verdict). No database: `check_report`'s and
    the score-sheet bench's (bench/scoresheets.py) one engine call. Raises ResultError (400)."""
    summary = dict(summary)
    summary.setdefault("format", OUTCOME_FORMAT)
    summary["rules"] = rules
    summary["string_three_streak"] = streak
    try:
        return summary, settle_verdict(summary)
    except BadDocument as exc:
        raise ResultError("bad_document", f"summary: {exc.message}")


def _replay(
    play_log: dict[str, Any], summary: dict[str, Any] | None, rules: Any
) -> tuple[ReplayVerdict, list[dict[str, Any]]]:
    record = copy.deepcopy(play_log)
    record["rules"] = rules
    if summary is not None:
        claimed = record.get("claimed")
        claimed = {} if claimed is None else claimed  # not `or {}`: 0, "" and false are wrong too
        if not isinstance(claimed, dict):
            raise ResultError("bad_document", "play log: claimed must be a JSON object")
        claimed = dict(claimed)
        claimed.update({key: summary[key] for key in CLAIMABLE if key in summary})
        record["claimed"] = claimed
    try:
        replay_verdict = replay_engine(record)
    except BadDocument as exc:
        raise ResultError("bad_document", f"play log: {exc.message}")
    errors: list[dict[str, Any]] = []
    if not replay_verdict.valid:
        error = replay_verdict.error
        action = error.action if error is not None else None
        errors.append(
            {
                "rule": error.rule if error else None,
                "code": error.code if error else "illegal_play",
                "message": f"play log, action {action}: {error.message if error else ''}",
                "action": action,
                "params": dict(error.params) if error else {},
            }
        )
    elif not replay_verdict.complete:
        errors.append(
            {
                "rule": "R30",
                "code": "play_log_incomplete",
                "message": "the play log stops before the deal is over",
            }
        )
    if errors:
        # The replay stopped (an illegal play, or the log ends early): what it reached is no
        # outcome to hold the report's fields against, and the refusal above says why.
        return replay_verdict, errors
    for mismatch in replay_verdict.mismatches:
        errors.append(
            {
                "rule": None,
                "code": "play_log_mismatch",
                "message": f"{mismatch.field}: the report says {mismatch.claimed}, "
                f"the play log gives {mismatch.replayed}",
                "params": {
                    "field": mismatch.field,
                    "claimed": mismatch.claimed,
                    "replayed": mismatch.replayed,
                },
            }
        )
    return replay_verdict, errors


def _setup_mismatches(summary: dict, play_log: dict) -> list[dict]:
    """Declarations and revolution are set up before play: the summary must say what the play
    log says (the replay's `claimed` check covers only what play produces)."""
    errors = []
    for name in ("declarations", "revolution"):
        said, logged = summary.get(name), play_log.get(name)
        if said is None:
            continue
        if name == "declarations" and isinstance(said, dict) and isinstance(logged or {}, dict):
            same = {str(k): v for k, v in said.items()} == {
                str(k): v for k, v in (logged or {}).items()
            }
        else:
            same = isinstance(said, list) and sorted(map(str, said)) == sorted(
                map(str, logged or [])
            )
        if not same:
            errors.append(
                {
                    "rule": "R34" if name == "declarations" else "R29",
                    "code": "play_log_mismatch",
                    "message": f"{name}: the report says {said}, the play log says {logged or '—'}",
                    "params": {"field": name, "claimed": said, "replayed": logged},
                }
            )
    return errors


def _judged_by_replay(
    settled: SettleVerdict,
    replay: ReplayVerdict,
    summary: dict[str, Any],
    rules: Any,
    errors: list[dict[str, Any]],
) -> GoujiDealVerdict:
    """A played deal is judged by its replay. Settling the summary adds the streak (R40, which a
    single record cannot know); where the two differ the replay wins, since it also knows which
    points were opened after a head rival finished (D12), which no summary can say."""
    if errors:
        return GoujiDealVerdict(settled, replay)
    if not settled.valid or settled.union_scores != replay.union_scores:
        strung = sequence.strung_by(summary.get("finish"))
        tributes = replay.tributes
        if sequence.amnesty_applies(
            RuleSet.from_json(rules), strung, summary["string_three_streak"]
        ):
            tributes = ()  # R40
        settled = replace(
            settled, valid=True, errors=(), union_scores=replay.union_scores, tributes=tributes
        )
        return GoujiDealVerdict(settled, replay, settled_from="replay")
    return GoujiDealVerdict(settled, replay)
