"""A referee (private link, signed-in account or API token) reports a deal. The engine checks it
(settle for a summary, replay for a play log); an inconsistent report is not stored at all.
Depending on the event it is final at once or waits for a confirmation (confirm.py). Only the
table's referees and the event's organisers report (`can_enter_results`, asked here alone)."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

import matches.store.chain as chain
from matches.kernel.games.registry import adapter_for
from matches.kernel.reports import ResultError
from matches.models import Confirmation, Deal, DealReport, Event, Match
from matches.permissions import Actor, can_enter_results, captain_union
from matches.results.common import (
    by_key,
    check_report,
    forbidden,
    lock_deal,
    notify,
    previous_deal_open,
    rejection,
    replay,
    request_digest,
    require_open_round,
)
from matches.results.deals import create_deals, table_gone
from matches.store.statements import earlier_reports, locked_deal


def submit_report(
    deal: Deal, summary: Any, play_log: Any, actor: Actor, idempotency_key: str = ""
) -> tuple[DealReport, bool]:
    """Store a referee's report of a deal. Returns (report, created).

    The same idempotency key for the same deal returns the first report (created False).
    Raises ResultError: 400 unreadable, 403 not this actor's table, 409 stale or already final,
    422 inconsistent with the rules (nothing stored).
    """
    return _submit(lambda: lock_deal(deal.pk), deal.pk, summary, play_log, actor, idempotency_key)


def submit_deal_report(
    match: Match, number: int, summary: Any, play_log: Any, actor: Actor, idempotency_key: str = ""
) -> tuple[DealReport, bool]:
    """`submit_report` for deal `number` of a match, as the API and the batch call it: when the
    deal row exists (the match's first settlement writes rows for all its regular deals), it is
    found and locked in one query; otherwise it is created first (`deal_for`)."""

    def locate() -> Deal:
        # The statement of `locked_deals()` written once (matches/store/statements.py).
        deal = locked_deal(match.pk, number)
        if deal is None:
            raise _NoDealRow
        return deal

    try:
        return _submit(locate, None, summary, play_log, actor, idempotency_key)
    except _NoDealRow:
        pass
    # No deal rows for whoever may not report at this table: refused before anything is made.
    _require_referee(actor, match)
    if number < 1:
        raise ResultError("no_such_deal", f"deal {number} does not exist", status=404)
    deal = create_deals(match, number)
    if deal is not None:
        return submit_report(deal, summary, play_log, actor, idempotency_key)
    try:
        return _submit(locate, None, summary, play_log, actor, idempotency_key)
    except _NoDealRow:
        raise table_gone() from None


def _require_referee(actor: Actor, match: Match) -> None:
    """Only the table's referees and the event's organisers report its deals: the one place
    that asks (the API and the pages answer this refusal as it is)."""
    if match.table is None:
        raise ResultError("table_gone", "this match has no table", status=409)
    if not can_enter_results(actor, match.table):
        raise forbidden("you do not referee this table", "enter")


class _NoDealRow(Exception):
    """The deal has no row yet: leave the transaction and create it."""


def _submit(
    locate, deal_id: int | None, summary: Any, play_log: Any, actor: Actor, idempotency_key: str
) -> tuple[DealReport, bool]:
    idempotency_key = (idempotency_key or "").strip()[:100]
    digest = request_digest(DealReport.Kind.REPORT, summary, play_log)
    try:
        with transaction.atomic():
            deal = locate()
            deal_id = deal.pk
            match = deal.match
            # Permission first: a retry's key must not reveal another table's report.
            _require_referee(actor, match)
            # One query for every check on the deal's earlier reports (usually there are none)
            # and, where deals follow on (R35), for the previous deal's final result or its
            # report still waiting for its confirmation (the table plays on while
            # the captains have not confirmed yet; the settlement writes this deal's tributes
            # once that one is final).
            reports = DealReport.objects.filter(deal=deal)
            follows_on = deal.number > 1 and adapter_for(match.round.event).deals_follow_on
            # Compiled once (matches/store/statements.py `earlier_reports`).
            rows = earlier_reports(
                deal.pk, (deal.match_id, deal.number - 1) if follows_on else None
            )
            earlier = [(pk, state, key) for pk, deal_of, state, key in rows if deal_of == deal.pk]
            if idempotency_key:  # a retry gets its report back, even once the round closed
                for pk, _state, key in earlier:
                    if key == idempotency_key:
                        return replay(reports.get(pk=pk), DealReport.Kind.REPORT, digest), False
            require_open_round(match.round)
            states = {state for _pk, state, _key in earlier}
            if DealReport.State.FINAL in states:
                raise ResultError(
                    "already_final",
                    f"deal {deal.number} already has a final result; an organiser can correct it",
                    status=409,
                    params={"n": deal.number},
                )
            if DealReport.State.DISPUTED in states:
                raise ResultError(
                    "deal_disputed",
                    f"deal {deal.number} is disputed: the organiser decides it",
                    status=409,
                    params={"n": deal.number},
                )
            if follows_on and len(rows) == len(earlier):
                previous_deal_open(deal)
            checked = check_report(deal, None, summary, play_log)
            if not checked.accepted:
                raise rejection(checked)
            event = match.round.event
            final_now = event.confirmation == Event.Confirmation.NONE
            now = timezone.now()
            # A new report replaces one still waiting for confirmation (the referee fixed it).
            if DealReport.State.PENDING in states:
                pending = sum(state == DealReport.State.PENDING for _pk, state, _key in earlier)
                superseded = reports.filter(state=DealReport.State.PENDING).update(
                    state=DealReport.State.SUPERSEDED, state_changed_at=now
                )
                if superseded != pending:
                    # Confirmed (or disputed) meanwhile: a confirmation locks the report row,
                    # not the deal's, and this update waited for it.
                    raise ResultError(
                        "already_final",
                        f"deal {deal.number}'s report was confirmed or disputed at the same moment",
                        status=409,
                        params={"n": deal.number},
                    )
            score_a, score_b = checked.side_scores
            report = DealReport.objects.create(
                deal=deal,
                kind=DealReport.Kind.REPORT,
                state=DealReport.State.FINAL if final_now else DealReport.State.PENDING,
                summary=checked.summary,
                play_log=checked.play_log,
                verdict=checked.verdict.to_json(),
                score_a=score_a,
                score_b=score_b,
                submitted_by=actor.user if actor.is_authenticated else None,
                via=actor.via,
                referee_link=actor.link,
                idempotency_key=idempotency_key,
                created_at=now,
                state_changed_at=now,
                request_digest=digest,
            )
            own = None
            if not final_now and actor.is_authenticated:
                # A captain who reports a deal agrees to it for their union (docs/results.md).
                union = captain_union(actor, match)
                if union is not None:
                    own = Confirmation.objects.create(
                        report=report,
                        user=actor.user,
                        referee_link=actor.link,
                        role=Confirmation.Role.CAPTAIN,
                        union=union,
                        agrees=True,
                        note="reported",
                        at=now,
                    )
            event.freeze_rules()
            chain.append_confirmation(own, report)  # the result when final now
            if final_now:
                # Settled by the task: a batch of such deals keeps its query budget
                # (tests/results/test_batch.py); a confirmation settles its deal itself.
                notify(deal)
            return report, True
    except IntegrityError:
        # Another process stored a report for this deal at the same moment.
        if idempotency_key and deal_id is not None:
            stored = by_key(deal_id, idempotency_key)
            if stored is not None:
                return replay(stored, DealReport.Kind.REPORT, digest), False
        raise ResultError(
            "already_final",
            "another result for this deal was stored at the same moment",
            status=409,
        )
