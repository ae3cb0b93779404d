"""What the writers of results (submit.py, confirm.py, correct.py) share: the engine's check of
a report, the deal's row lock, the guards on the round and the previous deal, idempotency
replays, and the notice after commit.

Every write holds a row lock on the Deal (`select_for_update(no_key=True)`: FOR NO KEY UPDATE,
which excludes other writers of the deal but not the foreign-key checks of rows that point at it,
so a Celery settlement writing the deal's tally cannot deadlock with a submission; seen at
festival scale, bench/RESULTS-festival.md), and the database refuses a second
final report for a deal (partial unique index), so several web processes cannot store two final
results. `deal_result_changed` is sent from `transaction.on_commit`, only for committed results.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

from django.db import transaction

from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import Checked, ResultError
from matches.models import Deal, DealReport, Match, Round
from matches.signals import deal_result_changed
from matches.standings import service as settlement

log = logging.getLogger(__name__)


def forbidden(message: str, action: str) -> ResultError:
    """403; `action` (enter, confirm, correct, decide, recheck) picks the refusal's wording in
    the page's language (matches/results/messages.py)."""
    return ResultError("permission_denied", message, status=403, params={"action": action})


def check_report(deal_or_match, number: int | None, summary: Any, play_log: Any) -> Checked:
    """The game's engine on a report for a deal; nothing is stored. Raises ResultError (400)
    when a document cannot be read. The returned `errors` are every reason not to accept it."""
    if isinstance(deal_or_match, Deal):
        match, number = deal_or_match.match, deal_or_match.number
    else:
        match = deal_or_match
    return adapter_for(match.round.event).check_report(match, number, summary, play_log)


def rejection(checked: Checked) -> ResultError:
    first = checked.errors[0]
    count = len(checked.errors)
    message = first["message"] if count == 1 else f"{first['message']} (and {count - 1} more)"
    return ResultError(
        "inconsistent_result",
        message,
        status=422,
        rule=first.get("rule"),
        errors=checked.errors,
        verdict=checked.verdict.to_json(),
    )


def locked_deals():
    # One query: `of=("self",)` locks the deal row only, so the joined rows (the table is on
    # the nullable side of an outer join, which FOR UPDATE alone refuses) are only read.
    return (
        Deal.objects.select_for_update(no_key=True, of=("self",))
        .select_related(
            "match__round__event",
            "match__round__stage",
            "match__table",
        )
        .order_by("pk")
    )


def lock_deal(deal_id: int) -> Deal:
    """Lock the deal row for the rest of the transaction and load what the checks need; refuse
    a deal that no longer exists (its match went with a re-draw)."""
    deal = locked_deals().filter(pk=deal_id).first()
    if deal is None:
        raise ResultError(
            "deal_gone", "this deal no longer exists (the round was re-drawn?)", status=409
        )
    return deal


def require_open_round(round_: Round, allow_closed: bool = False) -> None:
    if round_.state == Round.State.PUBLISHED:
        return
    if round_.state == Round.State.CLOSED and allow_closed:
        return
    if round_.state == Round.State.DRAFT:
        raise ResultError("round_not_published", "this round is not published yet", status=409)
    raise ResultError(
        "round_closed", "this round is closed: only an organiser can correct it", status=409
    )


def require_previous_final(deal: Deal) -> None:
    """R35 in Gou Ji: the tributes of a deal are paid from the previous deal's result, so the
    previous deal must be final before this one is reported (in games whose deals follow on)."""
    if deal.number == 1 or not adapter_for(deal.match.round.event).deals_follow_on:
        return
    if (
        not DealReport.objects.final()
        .filter(deal__match_id=deal.match_id, deal__number=deal.number - 1)
        .exists()
    ):
        previous_deal_open(deal)


def previous_deal_open(deal: Deal) -> None:
    raise ResultError(
        "previous_deal_open",
        f"deal {deal.number - 1} has no final or pending result yet; "
        f"its tributes open deal {deal.number}",
        status=409,
        params={"n": deal.number, "previous": deal.number - 1},
        rule="R35",
    )


def by_key(deal_id: int, idempotency_key: str) -> DealReport | None:
    return DealReport.objects.filter(deal_id=deal_id, idempotency_key=idempotency_key).first()


def request_digest(kind: str, summary: Any, play_log: Any, reason: str = "") -> str:
    """What an Idempotency-Key stands for: the operation and everything sent with it."""
    text = json.dumps(
        [kind, summary, play_log, reason],
        sort_keys=True,
        ensure_ascii=False,
        separators=(",", ":"),
        default=str,
    )
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def replay(earlier: DealReport, kind: str, digest: str) -> DealReport:
    """The report stored under this key, when the key came with this very request; a key used
    with another request (another body, or a correction reusing a report's key) is a 422, as
    the HTTP Idempotency-Key draft says: answering with the first result would lose this one."""
    if earlier.request_digest and earlier.request_digest != digest or earlier.kind != kind:
        raise ResultError(
            "idempotency_key_reused",
            "this Idempotency-Key was already used for "
            "another request on this deal; send this one with a new key",
            status=422,
        )
    earlier.replayed = True
    return earlier


def notify(deal: Deal, settled: Match | None = None) -> None:
    """Tell the computation side on commit; the ids spare its receiver a query per result.
    `settled`: the match when the deal was settled in this transaction (`settle_here`): then
    only the standings are left to queue, urgently when that completed the match's round."""
    round_ = deal.match.round
    ids: dict[str, Any] = {
        "deal_id": deal.pk,
        "match_id": deal.match_id,
        "event_id": round_.event_id,
    }
    if settled is not None:
        ids.update(
            settled=True,
            round_id=round_.pk,
            round_number=round_.number,
            match_completed=settled.completed_at is not None,
        )
    transaction.on_commit(lambda: deal_result_changed.send(sender=DealReport, **ids))


def settle_here(deal: Deal, report: DealReport) -> Match | None:
    """Settle the deal that `report` makes final in this very transaction (its tally,
    the next deal's tributes, the match's result: a few rows), instead of a task per deal; the
    result and its settlement then commit together or not at all. In a savepoint: when the
    settlement fails, the result is still stored and the settlement task does it (as it does
    whenever this declines: `standings.settle_new_result`). Before the result chain's append,
    which must stay the transaction's last write."""
    try:
        with transaction.atomic():
            return settlement.settle_new_result(deal, report)
    except Exception:
        log.exception("deal %s: settling in the request failed; queued instead", deal.pk)
        return None
